import { describe, expect, it } from '@jest/globals';
import type { RootRun } from '../../../src/api/langsmith.js';
import {
  compareScores,
  figure,
  mean,
  pairedInterval,
  scoresOf,
  scoresOutput,
  t975,
} from '../../../src/verify/eval/compare.js';

/** Root runs, one per example, with `key`'s score per example (undefined: not scored). */
function runs(key: string, scores: (number | undefined)[]): RootRun[] {
  return scores.map((avg, i) => ({
    id: `${key}-${i}`,
    reference_example_id: `ex-${i}`,
    feedback_stats: avg === undefined ? {} : { [key]: { n: 1, avg } },
  }));
}

describe('scoresOf', () => {
  it('averages an example’s root runs and ignores non-numeric feedback and runs without example', () => {
    const scores = scoresOf([
      {
        id: '1',
        reference_example_id: 'a',
        feedback_stats: { k: { n: 1, avg: 1 }, label: { n: 1, avg: null } },
      },
      { id: '2', reference_example_id: 'a', feedback_stats: { k: { n: 1, avg: 0 } } },
      { id: '3', reference_example_id: null, feedback_stats: { k: { n: 1, avg: 1 } } },
    ]);
    expect([...scores.keys()]).toEqual(['k']);
    expect(scores.get('k')).toEqual(new Map([['a', 0.5]]));
  });
});

describe('compareScores', () => {
  const all = new Set(['correctness', 'tone']);

  it('compares over the examples both scored (paired), means over each one’s own', () => {
    const [key] = compareScores({
      current: runs('correctness', [1, 1, 0, undefined]),
      baseline: runs('correctness', [1, 0, undefined, 1]),
      gate: {},
      complete: all,
    });
    // This run: 1, 1, 0 → 2/3; baseline: 1, 0, 1 → 2/3; pairs ex-0 (0) and ex-1 (+1).
    expect(key).toMatchObject({
      mean: 2 / 3,
      n: 3,
      baseline: 2 / 3,
      baselineN: 3,
      delta: 0.5,
      paired: 2,
    });
    // t(1) = 12.7062, s = 0.7071, se = 0.5: 0.5 ± 6.3531.
    expect(key?.low).toBeCloseTo(-5.8531, 4);
    expect(key?.high).toBeCloseTo(6.8531, 4);
    expect(key?.verdict).toBe('reported');
  });

  it('applies "*" to every key, a key’s own rules over it', () => {
    const keys = compareScores({
      current: [...runs('correctness', [0.5, 0.5]), ...runs('tone', [0.5, 0.5])],
      gate: { '*': { min: 0.6 }, tone: { min: 0.4 } },
      complete: all,
    });
    expect(keys.map((k) => [k.key, k.verdict])).toEqual([
      ['correctness', 'failed'],
      ['tone', 'passed'],
    ]);
    expect(keys[0]?.reasons).toEqual(['mean 0.500 is below min 0.6 (2 examples)']);
  });

  it('fails max-drop only when the drop is larger and the interval wholly below zero', () => {
    const baseline = runs('correctness', [1, 1, 1, 1]);
    const judge = (scores: number[], maxDrop: number) =>
      compareScores({
        current: runs('correctness', scores),
        baseline,
        gate: { correctness: { maxDrop } },
        complete: all,
      })[0];
    expect(judge([0.5, 0.5, 0.5, 0.5], 0.4)?.verdict).toBe('failed'); // -0.5, interval a point
    expect(judge([0.5, 0.5, 0.5, 0.5], 0.5)?.verdict).toBe('passed'); // not larger than max-drop
    expect(judge([0, 1, 1, 0.9], 0.1)?.verdict).toBe('passed'); // -0.275, interval reaches 0
  });

  it('lists a key only the gate names, unscored, as failed; an unnamed incomplete key as incomplete', () => {
    const keys = compareScores({
      current: runs('correctness', [1, undefined]),
      gate: { tone: { min: 0 } },
      complete: new Set(),
    });
    expect(keys.map((k) => [k.key, k.verdict, k.n])).toEqual([
      ['correctness', 'incomplete', 1],
      ['tone', 'failed', 0],
    ]);
    expect(keys[1]?.reasons).toEqual(['not scored on every run (0 examples scored)']);
  });

  it('has no difference without a baseline', () => {
    const [key] = compareScores({ current: runs('correctness', [1, 0]), gate: {}, complete: all });
    expect(key).toMatchObject({ baseline: null, delta: null, low: null, high: null, paired: 0 });
  });
});

describe('scoresOutput', () => {
  it('is JSON of the keys with numeric scores, rounded to 6 decimals', () => {
    const keys = compareScores({
      current: [...runs('a', [1, 0, 0]), ...runs('b', [])],
      gate: { b: { min: 0 } },
      complete: new Set(['a']),
    });
    expect(scoresOutput(keys)).toBe(
      '{"a":{"mean":0.333333,"n":3,"baseline":null,"delta":null,"low":null,"high":null}}',
    );
  });
});

describe('figure', () => {
  it('shows three decimals, a sign when asked, n/a for none', () => {
    expect([figure(0.5), figure(0.25, true), figure(-0.1, true), figure(null)]).toEqual([
      '0.500',
      '+0.250',
      '-0.100',
      'n/a',
    ]);
  });
});

describe('t975', () => {
  it('is the table value for small samples', () => {
    expect(t975(1)).toBe(12.7062);
    expect(t975(3)).toBe(3.1824);
    expect(t975(30)).toBe(2.0423);
  });

  it('follows Student’s t beyond the table (reference values of the t distribution)', () => {
    expect(t975(31)).toBeCloseTo(2.03951, 4);
    expect(t975(50)).toBeCloseTo(2.00856, 4);
    expect(t975(199)).toBeCloseTo(1.97196, 4);
    expect(t975(1000)).toBeCloseTo(1.96234, 4);
  });

  it('is undefined without a degree of freedom', () => {
    expect(t975(0)).toBeNaN();
  });
});

describe('mean', () => {
  it('is the average, or null for no values', () => {
    expect(mean([1, 0, 0, 1, 1])).toBe(0.6);
    expect(mean([])).toBeNull();
  });
});

describe('pairedInterval', () => {
  it('gives the mean difference with its 95% t interval (computed by hand)', () => {
    // d = 0.1 0.2 0.3 0.4: mean 0.25, s = sqrt(0.05 / 3) = 0.129099, se = s / 2 = 0.0645497,
    // t(3) = 3.1824, half-width 0.205423.
    const { delta, low, high } = pairedInterval([0.1, 0.2, 0.3, 0.4]);
    expect(delta).toBeCloseTo(0.25, 10);
    expect(low).toBeCloseTo(0.044577, 5);
    expect(high).toBeCloseTo(0.455423, 5);
  });

  it('is a point when every difference is the same', () => {
    expect(pairedInterval([-0.5, -0.5, -0.5])).toEqual({ delta: -0.5, low: -0.5, high: -0.5 });
  });

  it('has no interval with fewer than two pairs', () => {
    expect(pairedInterval([0.3])).toEqual({ delta: 0.3, low: null, high: null });
    expect(pairedInterval([])).toEqual({ delta: null, low: null, high: null });
  });

  it('narrows with more examples of the same spread', () => {
    const few = pairedInterval([0, 1, 0, 1]);
    const many = pairedInterval(Array.from({ length: 200 }, (_, i) => i % 2));
    // 200 values of 0 and 1: mean 0.5, s = sqrt(50 / 199) = 0.501255, se = 0.0354441,
    // t(199) = 1.97196, half-width 0.0698942.
    expect(many.low).toBeCloseTo(0.5 - 0.0698942, 5);
    expect((many.high as number) - (many.low as number)).toBeLessThan(
      (few.high as number) - (few.low as number),
    );
  });
});
