/**
 * The evaluation gate (issue #34, item 7): a dataset of 200 examples run on an agent that
 * answers in 0.5 s, 4 at a time, against the simulator (its LangSmith API and a simulated agent
 * server that traces into the experiment). Measured: the wall time of the runs against the
 * ideal (200 / 4 × 0.5 s = 25 s), and the LangSmith requests by route, at 200 examples and at
 * 20, to show that they grow with pages, not with examples (no per-example polling).
 *
 * The evaluation itself is a driver (bench/eval-driver.ts): the stand-in `minimalEvaluation`
 * until the action's `src/verify/eval/` is passed as `driver`.
 */
import { startSimulator } from '../simulator/index.js';
import { minimalEvaluation, type EvalDriver, type EvalDriverResult } from './eval-driver.js';
import { seconds } from './stats.js';

export interface EvalCase {
  examples: number;
  idealMs: number;
  runsMs: number;
  /** From the driver's start to its end (reading, running, waiting for scores, comparing). */
  totalMs: number;
  result: EvalDriverResult;
  requests: Record<string, number>;
}

export interface EvalResults {
  driver: string;
  concurrency: number;
  latencyMs: number;
  evaluatorDelayMs: number;
  cases: EvalCase[];
}

const BASELINE = { langgraph_deploy_action: true, repository: 'acme/agent', event: 'push' };

export async function benchEval(
  options: {
    sizes?: number[];
    concurrency?: number;
    latencyMs?: number;
    evaluatorDelayMs?: number;
    driver?: EvalDriver;
    driverName?: string;
    progress?: (line: string) => void;
  } = {},
): Promise<EvalResults> {
  const concurrency = options.concurrency ?? 4;
  const latencyMs = options.latencyMs ?? 500;
  const evaluatorDelayMs = options.evaluatorDelayMs ?? 1000;
  const driver = options.driver ?? minimalEvaluation;
  const cases: EvalCase[] = [];
  for (const examples of options.sizes ?? [20, 200]) {
    options.progress?.(`eval: ${examples} examples, ${concurrency} at a time…`);
    const sim = await startSimulator({
      rateLimit: { requests: 100_000, windowMs: 1000 },
      langsmith: { evaluatorDelayMs },
    });
    try {
      sim.langsmith.seedDataset({
        name: 'bench-qa',
        examples: Array.from({ length: examples }, (_, i) => ({
          inputs: { input: `question ${i}` },
          outputs: { output: `echo: question ${i}` },
        })),
        evaluators: [{ key: 'correctness' }, { key: 'no_error', score: 'no-error' }],
      });
      sim.langsmith.seedExperiment({
        name: 'bench-agent-main',
        dataset: 'bench-qa',
        metadata: BASELINE,
        startTime: Date.now() - 3_600_000,
        scores: { correctness: (_, i) => (i % 10 === 0 ? 0 : 1), no_error: 1 },
      });
      const dep = sim.seedDeployment({ name: 'bench-agent-pr-1' });
      sim.agent(dep.id).runDelayMs = latencyMs;
      sim.agent(dep.id).wrongAnswerRate = 0.1;
      const started = performance.now();
      const result = await driver({
        langsmithApiUrl: `${sim.url}/api/v1`,
        apiKey: sim.apiKey,
        agentUrl: sim.agentUrl(dep.id),
        dataset: 'bench-qa',
        assistant: 'agent',
        concurrency,
        experimentName: `bench-agent-pr-1-${examples}`,
        metadata: { ...BASELINE, event: 'pull_request', pr: 1 },
        baselineMetadata: BASELINE,
        waitMs: 60_000,
      });
      cases.push({
        examples,
        idealMs: Math.ceil(examples / concurrency) * latencyMs,
        runsMs: result.runsEndedAt - result.runsStartedAt,
        totalMs: performance.now() - started,
        result,
        requests: sim.langsmith.requestCounts(),
      });
    } finally {
      await sim.close();
    }
  }
  return {
    driver: options.driverName ?? 'minimalEvaluation (bench/eval-driver.ts)',
    concurrency,
    latencyMs,
    evaluatorDelayMs,
    cases,
  };
}

const RUNS_GOAL_RATIO = 1.2;

/** The section of the bench's output, and its two goals (judged on the largest case). */
export function evalSection(
  results: EvalResults,
  goals: { goal: string; measured: string; pass: boolean }[],
): string {
  const big = results.cases.reduce((a, b) => (b.examples > a.examples ? b : a));
  const ratio = big.runsMs / big.idealMs;
  goals.push({
    goal:
      `Evaluation: ${big.examples} examples, ${results.concurrency} at a time, ` +
      `${results.latencyMs} ms each: runs within ${RUNS_GOAL_RATIO}× the ideal ${seconds(big.idealMs, 0)}`,
    measured: `${seconds(big.runsMs, 1)} (${ratio.toFixed(2)}×)`,
    pass: ratio <= RUNS_GOAL_RATIO && big.result.runs === big.examples,
  });
  const routes = [...new Set(results.cases.flatMap((c) => Object.keys(c.requests)))].sort();
  const busiest = Math.max(...routes.map((r) => big.requests[r] ?? 0));
  goals.push({
    goal: `Evaluation: no per-example LangSmith request (every route under ${big.examples / 10} calls at ${big.examples} examples)`,
    measured: `busiest route: ${busiest} calls; all routes: ${total(big.requests)}`,
    pass: busiest < big.examples / 10,
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const head = ['LangSmith route', ...results.cases.map((c) => `${c.examples} examples`)];
  return [
    '## Evaluation gate (`eval-dataset`)',
    '',
    `Driver: ${results.driver}. A dataset of N examples bound to two evaluators ` +
      `(\`correctness\`, \`no_error\`; scores ${results.evaluatorDelayMs} ms after each run ` +
      'ends), a production baseline recorded earlier, a simulated agent server that answers ' +
      `\`POST /runs/wait\` in ${results.latencyMs} ms and traces each run into the experiment ` +
      `(\`langsmith_tracer\`); ${results.concurrency} runs at a time. The runs are timed from ` +
      'the first start to the last answer; ideal = ⌈N / concurrency⌉ × latency.',
    '',
    line([
      'examples',
      'runs',
      'ideal',
      'ratio',
      'failed runs',
      'scores complete',
      'whole evaluation',
    ]),
    line(['---', '---', '---', '---', '---', '---', '---']),
    ...results.cases.map((c) =>
      line([
        String(c.examples),
        seconds(c.runsMs, 1),
        seconds(c.idealMs, 1),
        `${(c.runsMs / c.idealMs).toFixed(2)}×`,
        String(c.result.failedRuns),
        c.result.complete ? 'yes' : 'no',
        seconds(c.totalMs, 1),
      ]),
    ),
    '',
    line(head),
    line(head.map(() => '---')),
    ...routes.map((r) =>
      line([`\`${r}\``, ...results.cases.map((c) => String(c.requests[r] ?? 0))]),
    ),
    line(['all', ...results.cases.map((c) => String(total(c.requests)))]),
    '',
    `Means of this run vs the baseline (${big.examples} examples): ` +
      Object.entries(big.result.means)
        .map(
          ([k, v]) => `${k} ${v.toFixed(3)} vs ${big.result.baselineMeans?.[k]?.toFixed(3) ?? '–'}`,
        )
        .join('; ') +
      '.',
  ].join('\n');
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
