/**
 * Step 5 of the evaluation: per feedback key, this experiment's mean, the baseline's, and the
 * paired difference over the examples both scored with its 95% interval (by Student's t); then
 * the gate's verdict. Pure: the scores come in as the experiments' root runs.
 */
import type { RootRun } from '../../api/langsmith.js';
import type { GateRule } from '../../inputs/eval.js';

export type KeyScore = ReturnType<typeof compareScores>[number];
/** A paired difference and its 95% interval (`pairedInterval`). */
type Interval = Record<'delta' | 'low' | 'high', number | null>;

/** Key → example → its score (the mean over the example's root runs), numeric scores only. */
export function scoresOf(runs: readonly RootRun[]): Map<string, Map<string, number>> {
  const all = new Map<string, Map<string, number[]>>();
  for (const run of runs) {
    const example = run.reference_example_id;
    if (!example) continue;
    for (const [key, stat] of Object.entries(run.feedback_stats ?? {})) {
      if (typeof stat.avg !== 'number' || !Number.isFinite(stat.avg)) continue;
      const byExample = all.get(key) ?? new Map<string, number[]>();
      all.set(key, byExample.set(example, [...(byExample.get(example) ?? []), stat.avg]));
    }
  }
  return new Map(
    [...all].map(([key, byExample]) => [
      key,
      new Map([...byExample].map(([example, scores]) => [example, mean(scores) as number])),
    ]),
  );
}

/** `0.123`, `-0.050`, or `n/a`. */
export const figure = (value: number | null, sign = false) =>
  value === null ? 'n/a' : `${sign && value > 0 ? '+' : ''}${value.toFixed(3)}`;

/** The difference and its interval: `-0.050 (-0.120 to +0.020)`, `—` without a baseline. */
export const interval = (k: Interval) =>
  k.delta === null
    ? '—'
    : `${figure(k.delta, true)}${k.low === null ? '' : ` (${figure(k.low, true)} to ${figure(k.high, true)})`}`;

/**
 * Every key either experiment scored or the gate names (`*` aside), compared and judged: `min`
 * fails a mean below it, `max-drop` a drop larger than it whose interval lies wholly below zero;
 * a key not scored on every run (`incomplete`) fails only when the gate names it (or `*`).
 */
export function compareScores(options: {
  current: readonly RootRun[];
  baseline?: readonly RootRun[] | undefined;
  gate: Record<string, GateRule>;
  /** The keys whose every run has a score (from the experiment's feedback). */
  complete: ReadonlySet<string>;
}) {
  const { gate } = options;
  const current = scoresOf(options.current);
  const baseline = scoresOf(options.baseline ?? []);
  const named = Object.keys(gate).filter((key) => key !== '*');
  const keys = [...new Set([...current.keys(), ...baseline.keys(), ...named])].sort();
  return keys.map((key) => {
    const mine = current.get(key) ?? new Map<string, number>();
    const theirs = baseline.get(key) ?? new Map<string, number>();
    const differences = [...mine]
      .filter(([example]) => theirs.has(example))
      .map(([example, score]) => score - (theirs.get(example) as number));
    const rules = gate[key] ?? gate['*'];
    const rule: GateRule = { ...gate['*'], ...gate[key] };
    const score = {
      key,
      // This experiment's mean over the examples it scored, and how many (`n`).
      mean: mean([...mine.values()]),
      n: mine.size,
      baseline: mean([...theirs.values()]),
      baselineN: theirs.size,
      // This − baseline over the `paired` examples both scored, with its 95% interval (all
      // null without a baseline: no example is paired).
      ...pairedInterval(differences),
      paired: differences.length,
      // Every run of this experiment has a score for the key.
      complete: options.complete.has(key),
      verdict: 'reported' as 'passed' | 'failed' | 'incomplete' | 'reported',
      // Why the gate failed the key, in words with the figures.
      reasons: [] as string[],
    };
    if (!score.complete && rules !== undefined) {
      score.reasons.push(`not scored on every run (${score.n} examples scored)`);
    }
    if (rule.min !== undefined && score.mean !== null && score.mean < rule.min) {
      score.reasons.push(
        `mean ${figure(score.mean)} is below min ${rule.min} (${score.n} examples)`,
      );
    }
    const { delta, low, high } = score;
    if (delta !== null && high !== null && high < 0 && delta < -(rule.maxDrop ?? Infinity)) {
      score.reasons.push(
        `dropped by ${figure(-delta)} from the baseline's ${figure(score.baseline)} (95% ` +
          `interval ${figure(low)} to ${figure(high)}, ${score.paired} paired examples), more ` +
          `than max-drop ${rule.maxDrop}`,
      );
    }
    if (score.reasons.length > 0) score.verdict = 'failed';
    else if (!score.complete) score.verdict = 'incomplete';
    else if (rules !== undefined) score.verdict = 'passed';
    return score;
  });
}

/** `eval-scores`: per key with numeric scores, this mean and count, the baseline, the difference. */
export function scoresOutput(keys: readonly KeyScore[]): string {
  const figures = ['mean', 'n', 'baseline', 'delta', 'low', 'high'] as const;
  const round = (v: number | null) => (v === null ? null : Math.round(v * 1e6) / 1e6);
  const entries = keys
    .filter((k) => k.mean !== null)
    .map((k) => [k.key, Object.fromEntries(figures.map((f) => [f, round(k[f])]))]);
  return JSON.stringify(Object.fromEntries(entries));
}

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
export function pairedInterval(differences: readonly number[]): Interval {
  const delta = mean(differences);
  const n = differences.length;
  if (delta === null || n < 2) return { delta, low: null, high: null };
  const variance = differences.reduce((sum, d) => sum + (d - delta) ** 2, 0) / (n - 1);
  const half = t975(n - 1) * Math.sqrt(variance / n);
  return { delta, low: delta - half, high: delta + half };
}
