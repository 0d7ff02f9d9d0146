/**
 * A LangSmith in memory for unit tests of the evaluation: one dataset (`qa`), its experiments
 * with their root runs, and a dataset-bound evaluator that scores new runs `scoreAfterMs` after
 * the last one was traced. The simulator (`simulator/`) is the HTTP one.
 */
import type { Example, Experiment, LangSmith, RootRun } from '../../src/api/langsmith.js';
import type { FakeClock } from './fakes.js';

export const DATASET = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

export class FakeLangSmith implements LangSmith {
  sessions: (Experiment & { runs: RootRun[] })[] = [];
  calls: string[] = [];
  created: Parameters<LangSmith['createRun']>[0][] = [];
  /** Scores a run (example ID → key → score), or leaves a key unscored (undefined). */
  constructor(
    readonly clock: FakeClock,
    public examplesOf: Example[],
    public score: (example: string) => Record<string, number | undefined> = () => ({
      correctness: 1,
    }),
    /** How long after the runs the evaluator has scored them. */
    public scoreAfterMs = 5_000,
  ) {}
  finishedAt = 0;
  async dataset(nameOrId: string) {
    this.calls.push('dataset');
    return nameOrId === 'qa' || nameOrId === DATASET ? { id: DATASET, name: 'qa' } : undefined;
  }
  async examples(_id: string, splits: string[], max: number) {
    this.calls.push(`examples ${splits.join(',')}`);
    return this.examplesOf.slice(0, max + 1);
  }
  async experiment(nameOrId: string) {
    this.calls.push('experiment');
    return this.sessions.find((s) => s.id === nameOrId || s.name === nameOrId);
  }
  async experiments() {
    this.calls.push('experiments');
    return this.sessions;
  }
  async createExperiment(name: string, datasetId: string, metadata: Record<string, unknown>) {
    this.calls.push('createExperiment');
    const made = {
      id: `exp-${this.sessions.length}`,
      name,
      tenant_id: 'tenant-1',
      start_time: new Date(this.clock.now()).toISOString(),
      reference_dataset_id: datasetId,
      extra: { metadata },
      runs: [],
    };
    this.sessions.push(made);
    return made;
  }
  session(id: string) {
    const found = this.sessions.find((s) => s.id === id || s.name === id);
    if (!found) throw new Error(`no session ${id}`);
    return found;
  }
  /** A root run traced into the experiment named `project`. */
  trace(project: string, exampleId: string) {
    this.session(project).runs.push({ id: `run-${exampleId}`, reference_example_id: exampleId });
    this.finishedAt = this.clock.now();
  }
  scored(id: string): RootRun[] {
    const done = this.clock.now() >= this.finishedAt + this.scoreAfterMs;
    return this.session(id).runs.map((run) => {
      if (run.feedback_stats) return run; // a past experiment's own scores
      const scores = done ? this.score(run.reference_example_id ?? '') : {};
      const stats = Object.entries(scores).filter(([, v]) => v !== undefined);
      return {
        ...run,
        feedback_stats: Object.fromEntries(stats.map(([k, v]) => [k, { n: 1, avg: v }])),
      };
    });
  }
  async feedbackStats(id: string) {
    this.calls.push('feedbackStats');
    const stats: Record<string, { n: number; avg: number }> = {};
    for (const run of this.scored(id)) {
      for (const [key, stat] of Object.entries(run.feedback_stats ?? {})) {
        const was = stats[key] ?? { n: 0, avg: 0 };
        stats[key] = { n: was.n + 1, avg: (was.avg * was.n + (stat.avg ?? 0)) / (was.n + 1) };
      }
    }
    return stats;
  }
  async rootRuns(id: string) {
    this.calls.push('rootRuns');
    return this.scored(id);
  }
  async createRun(run: Parameters<LangSmith['createRun']>[0]) {
    this.calls.push('createRun');
    this.created.push(run);
    this.trace(run.project_name, run.reference_example_id);
  }
  /** A finished experiment of the past with its scores (a baseline candidate). */
  past(
    name: string,
    metadata: Record<string, unknown>,
    startTime: string,
    score: (e: string) => number,
  ) {
    this.sessions.push({
      id: `past-${name}`,
      name,
      start_time: startTime,
      reference_dataset_id: DATASET,
      extra: { metadata },
      runs: this.examplesOf.map((e) => ({
        id: `past-${name}-${e.id}`,
        reference_example_id: e.id,
        feedback_stats: { correctness: { n: 1, avg: score(e.id) } },
      })),
    });
  }
}

export const examples = (n: number): Example[] =>
  Array.from({ length: n }, (_, i) => ({ id: `ex-${i}`, inputs: { question: `q${i}` } }));

/** The metadata of an experiment a production deploy of `octo/app` recorded. */
export const PRODUCTION = { langgraph_deploy_action: true, repository: 'octo/app', event: 'push' };
