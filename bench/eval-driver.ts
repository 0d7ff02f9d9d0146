/**
 * The evaluation the bench measures, as a driver: given the LangSmith API, the agent server
 * and the dataset, it runs INTERFACE v1.3's steps 1–5 and says when the runs started and ended.
 *
 * `minimalEvaluation` is a stand-in written with the same clients and calls the action makes
 * (the `langsmith` SDK's `Client`, `@langchain/langgraph-sdk`'s `runs.wait` with
 * `langsmith_tracer`), so that the bench measures the simulator and the call pattern until the
 * action's own evaluation (`src/verify/eval/`) is passed in its place (`benchEval({driver})`).
 */
import { Client as AgentClient } from '@langchain/langgraph-sdk';
import { Client } from 'langsmith';

export interface EvalDriverContext {
  /** `<origin>/api/v1`. */
  langsmithApiUrl: string;
  apiKey: string;
  agentUrl: string;
  /** Dataset name. */
  dataset: string;
  assistant: string;
  concurrency: number;
  experimentName: string;
  /** The metadata the experiment records (what finds a baseline later). */
  metadata: Record<string, unknown>;
  /** The baseline's metadata filter (INTERFACE step 5). */
  baselineMetadata: Record<string, unknown>;
  /** How long to wait for the evaluators after the last run (`eval-wait`). */
  waitMs: number;
}

export interface EvalDriverResult {
  experimentId: string;
  /** performance.now() when the first run started and when the last one answered. */
  runsStartedAt: number;
  runsEndedAt: number;
  runs: number;
  failedRuns: number;
  /** Whether every expected key was complete before `waitMs` ran out. */
  complete: boolean;
  /** Mean score per key: this experiment, and the baseline's (undefined: none found). */
  means: Record<string, number>;
  baselineMeans?: Record<string, number>;
}

export type EvalDriver = (ctx: EvalDriverContext) => Promise<EvalDriverResult>;

type Stats = Record<string, { n?: number | null; avg?: number | null }>;

/** The stand-in: the calls of INTERFACE steps 1–5, nothing more (no report, no gate). */
export const minimalEvaluation: EvalDriver = async (ctx) => {
  const ls = new Client({
    apiUrl: ctx.langsmithApiUrl,
    apiKey: ctx.apiKey,
    autoBatchTracing: false,
    callerOptions: { maxRetries: 0 },
  });
  // 1. The dataset and every page of its examples.
  const dataset = await ls.readDataset({ datasetName: ctx.dataset });
  const examples: { id: string; inputs: Record<string, unknown> }[] = [];
  for await (const e of ls.listExamples({ datasetId: dataset.id })) examples.push(e);
  // 2. The experiment, bound to the dataset.
  const experiment = await ls.createProject({
    projectName: ctx.experimentName,
    referenceDatasetId: dataset.id,
    metadata: ctx.metadata,
  });
  // 3. Each example once, `concurrency` at a time, traced into the experiment.
  const agent = new AgentClient({
    apiUrl: ctx.agentUrl,
    apiKey: ctx.apiKey,
    callerOptions: { maxRetries: 0 },
  });
  let next = 0;
  let failedRuns = 0;
  const runsStartedAt = performance.now();
  const worker = async () => {
    while (next < examples.length) {
      const example = examples[next++]!;
      const answer = await agent.runs.wait(null, ctx.assistant, {
        input: example.inputs,
        raiseError: false,
        _langsmithTracer: { projectName: ctx.experimentName, exampleId: example.id },
      });
      if (typeof answer === 'object' && answer !== null && '__error__' in answer) failedRuns++;
    }
  };
  await Promise.all(Array.from({ length: ctx.concurrency }, worker));
  const runsEndedAt = performance.now();
  // 4. The experiment read as a whole until every key has a score per run (bounded).
  const until = performance.now() + ctx.waitMs;
  let stats: Stats = {};
  let complete = false;
  for (;;) {
    const session = await ls.readProject({ projectId: experiment.id, includeStats: true });
    stats = (session.feedback_stats ?? {}) as Stats;
    const counts = Object.values(stats).map((s) => s.n ?? 0);
    complete =
      session.run_count === examples.length &&
      counts.length > 0 &&
      counts.every((n) => n >= examples.length);
    if (complete || performance.now() >= until) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  // 5. The newest baseline, and both experiments' per-example scores from their root runs.
  let baseline: { id: string; start_time: number | string } | undefined;
  for await (const p of ls.listProjects({
    referenceDatasetId: dataset.id,
    metadata: ctx.baselineMetadata,
  })) {
    if (p.id === experiment.id) continue;
    if (!baseline || Date.parse(`${p.start_time}Z`) > Date.parse(`${baseline.start_time}Z`)) {
      baseline = p;
    }
  }
  const means = await meanScores(ls, experiment.id);
  return {
    experimentId: experiment.id,
    runsStartedAt,
    runsEndedAt,
    runs: examples.length,
    failedRuns,
    complete,
    means,
    ...(baseline ? { baselineMeans: await meanScores(ls, baseline.id) } : {}),
  };
};

/** Mean score per key over the root runs (every page of `/runs/query`). */
async function meanScores(ls: Client, projectId: string): Promise<Record<string, number>> {
  const sums: Record<string, { sum: number; n: number }> = {};
  const list = (ls as unknown as { _listRuns: Client['listRuns'] })._listRuns({
    projectId,
    isRoot: true,
    select: ['id', 'reference_example_id', 'feedback_stats'],
  });
  for await (const run of list) {
    for (const [key, stat] of Object.entries((run.feedback_stats ?? {}) as Stats)) {
      if (typeof stat.avg !== 'number') continue;
      const s = (sums[key] ??= { sum: 0, n: 0 });
      s.sum += stat.avg;
      s.n++;
    }
  }
  return Object.fromEntries(Object.entries(sums).map(([k, s]) => [k, s.sum / s.n]));
}
