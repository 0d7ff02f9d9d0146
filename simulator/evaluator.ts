/**
 * The evaluators bound to a dataset in the simulated LangSmith: each one scores every new root
 * run of an experiment on that dataset (a session with `reference_dataset_id`) that carries a
 * `reference_example_id`, once the run has ended, `delayMs` later on the simulator's clock (as
 * LangSmith runs a dataset's evaluators on each new experiment, in the background).
 */
import { isDeepStrictEqual } from 'node:util';

/** What an evaluator sees of a run and of its example. */
export interface ScoredRun {
  inputs: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  error?: string;
}
export interface ScoredExample {
  inputs: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/**
 * How an evaluator scores:
 * - `match` (default): 1 when every key of the example's `outputs` has the same value in the
 *   run's outputs, else 0 (a run that errored has no outputs: 0); no score for an example
 *   without outputs;
 * - `no-error`: 1 when the run did not error, else 0;
 * - a number: that score for every run;
 * - a function: its number (undefined or null: no score).
 */
export type SimScorer =
  | 'match'
  | 'no-error'
  | number
  | ((run: ScoredRun, example: ScoredExample) => number | null | undefined);

export interface SimEvaluator {
  /** The feedback key it writes, e.g. `correctness`. */
  key: string;
  score?: SimScorer;
  /** How long after the run ended its score appears (default: the simulator's `evaluatorDelayMs`). */
  delayMs?: number;
  /** An evaluator that never scores (a broken judge): the key never completes. */
  never?: boolean;
}

export function validateEvaluators(evaluators: SimEvaluator[]): SimEvaluator[] {
  const keys = new Set<string>();
  for (const e of evaluators) {
    if (typeof e.key !== 'string' || e.key === '') throw new Error('An evaluator needs a key.');
    if (keys.has(e.key)) throw new Error(`Two evaluators write the feedback key "${e.key}".`);
    keys.add(e.key);
    if (e.delayMs !== undefined && !(e.delayMs >= 0)) {
      throw new Error(`Evaluator "${e.key}": delayMs must be >= 0.`);
    }
    const s = e.score;
    if (s !== undefined && s !== 'match' && s !== 'no-error' && typeof s !== 'number') {
      if (typeof s !== 'function') throw new Error(`Evaluator "${e.key}": unknown score ${s}.`);
    }
  }
  return evaluators.map((e) => ({ ...e }));
}

/** The evaluator's score of one run, rounded to 4 places as LangSmith stores it; undefined: none. */
export function scoreRun(
  evaluator: SimEvaluator,
  run: ScoredRun,
  example: ScoredExample,
): number | undefined {
  if (evaluator.never) return undefined;
  const scorer = evaluator.score ?? 'match';
  let score: number | null | undefined;
  if (typeof scorer === 'number') score = scorer;
  else if (scorer === 'no-error') score = run.error === undefined ? 1 : 0;
  else if (scorer === 'match') {
    const expected = example.outputs;
    if (!expected || Object.keys(expected).length === 0) return undefined;
    const got = run.error === undefined ? run.outputs : undefined;
    score = Object.entries(expected).every(([k, v]) => got && isDeepStrictEqual(got[k], v)) ? 1 : 0;
  } else score = scorer(run, example);
  if (score === null || score === undefined || !Number.isFinite(score)) return undefined;
  return Math.round(score * 10_000) / 10_000;
}
