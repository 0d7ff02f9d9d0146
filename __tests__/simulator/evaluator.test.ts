/** The simulated LangSmith's dataset-bound evaluators: how each scorer scores one run. */
import { describe, expect, it } from '@jest/globals';
import { scoreRun, validateEvaluators } from '../../simulator/evaluator.js';

const example = { inputs: { input: 'hi' }, outputs: { output: 'echo: hi' } };

describe('scoreRun', () => {
  it('match: 1 when every reference output has the same value in the run, else 0', () => {
    const e = { key: 'correctness' };
    expect(scoreRun(e, { inputs: {}, outputs: { input: 'hi', output: 'echo: hi' } }, example)).toBe(
      1,
    );
    expect(scoreRun(e, { inputs: {}, outputs: { output: 'echo: ho' } }, example)).toBe(0);
    expect(scoreRun(e, { inputs: {}, outputs: {} }, example)).toBe(0);
  });

  it('match: a run that errored scores 0, even with outputs; no reference outputs: no score', () => {
    const e = { key: 'correctness', score: 'match' as const };
    const errored = { inputs: {}, outputs: { output: 'echo: hi' }, error: 'boom' };
    expect(scoreRun(e, errored, example)).toBe(0);
    expect(scoreRun(e, { inputs: {}, outputs: { output: 'x' } }, { inputs: {} })).toBeUndefined();
  });

  it('no-error, a constant, a function (rounded to 4 places), and never', () => {
    expect(scoreRun({ key: 'ok', score: 'no-error' }, { inputs: {}, error: 'x' }, example)).toBe(0);
    expect(scoreRun({ key: 'ok', score: 'no-error' }, { inputs: {} }, example)).toBe(1);
    expect(scoreRun({ key: 'c', score: 0.25 }, { inputs: {} }, example)).toBe(0.25);
    const third = { key: 'f', score: () => 1 / 3 };
    expect(scoreRun(third, { inputs: {} }, example)).toBe(0.3333);
    expect(scoreRun({ key: 'f', score: () => null }, { inputs: {} }, example)).toBeUndefined();
    expect(scoreRun({ key: 'n', never: true }, { inputs: {} }, example)).toBeUndefined();
  });
});

describe('validateEvaluators', () => {
  it('refuses an empty key, a key written twice, a negative delay and an unknown scorer', () => {
    expect(() => validateEvaluators([{ key: '' }])).toThrow(/needs a key/);
    expect(() => validateEvaluators([{ key: 'a' }, { key: 'a' }])).toThrow(/"a"/);
    expect(() => validateEvaluators([{ key: 'a', delayMs: -1 }])).toThrow(/delayMs/);
    expect(() => validateEvaluators([{ key: 'a', score: 'exact' as 'match' }])).toThrow(/exact/);
    expect(validateEvaluators([{ key: 'a', delayMs: 5 }])).toEqual([{ key: 'a', delayMs: 5 }]);
  });
});
