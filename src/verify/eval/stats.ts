/**
 * The statistics of the evaluation gate: a mean, and the 95% confidence interval of the mean
 * of paired differences (this run − baseline, one per example both scored) by Student's t.
 */

/** The 0.975 quantile of Student's t for 1 to 30 degrees of freedom. */
const T_975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788,
  2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639,
  2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];

/**
 * The 0.975 quantile of Student's t with `df` degrees of freedom: the table up to 30, then the
 * Cornish-Fisher expansion around the normal quantile (within 1e-5 from there on).
 */
export function t975(df: number): number {
  if (df < 1) return Number.NaN;
  if (df <= T_975.length) return T_975[Math.floor(df) - 1] as number;
  const z = 1.959964;
  const [z3, z5, z7] = [z ** 3, z ** 5, z ** 7];
  const g1 = (z3 + z) / 4;
  const g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
  const g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3;
}

export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/**
 * The mean of the paired differences and its 95% interval (null with fewer than two pairs,
 * where no spread can be estimated).
 */
export function pairedInterval(differences: readonly number[]): {
  delta: number | null;
  low: number | null;
  high: number | null;
} {
  const delta = mean(differences);
  const n = differences.length;
  if (delta === null || n < 2) return { delta, low: null, high: null };
  const variance = differences.reduce((sum, d) => sum + (d - delta) ** 2, 0) / (n - 1);
  const half = t975(n - 1) * Math.sqrt(variance / n);
  return { delta, low: delta - half, high: delta + half };
}
