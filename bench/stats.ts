/** Small statistics and formatting helpers of the benchmark, and its seeded PRNG. */

/** Sorted copy without NaN/undefined. */
function sorted(values: readonly number[]): number[] {
  return values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
}

/** Linear-interpolated quantile (q in [0, 1]); NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  const s = sorted(values);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);
export const p95 = (values: readonly number[]): number => quantile(values, 0.95);

/**
 * mulberry32: a tiny seeded PRNG, so that the ±40 % variations of the replays are the same
 * from one run of the bench to the next. Returns floats in [0, 1).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `1.23 s`, or `–` for NaN. */
export function seconds(ms: number, digits = 2): string {
  return Number.isFinite(ms) ? `${(ms / 1000).toFixed(digits)} s` : '–';
}

/** `45 ms`, or `–` for NaN. */
export function millis(ms: number, digits = 0): string {
  return Number.isFinite(ms) ? `${ms.toFixed(digits)} ms` : '–';
}

/** `12`, `12.5`, or `–` for NaN. */
export function count(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** `1.5 MB`, `16.1 kB`, `812 B` (decimal units). */
export function bytes(n: number): string {
  if (!Number.isFinite(n)) return '–';
  if (n >= 1e6) return `${(n / 1e6).toFixed(2)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)} kB`;
  return `${n} B`;
}

/** Runs `task` over `items` with at most `limit` at a time; results in input order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
