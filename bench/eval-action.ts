/**
 * The action's own evaluation (`src/verify/eval/`) as a bench driver: `evaluate()` with the real
 * `langsmith` SDK client and agent runner on the action's HTTP layer, the run's clock and a
 * 30-minute deadline. The runs are timed by wrapping the agent runner (first start, last end).
 */
import type { EvalDriver } from './eval-driver.js';
import { evaluate, type EvalContext } from '../src/verify/eval/index.js';
import { agentRunner } from '../src/verify/eval/runs.js';
import { Deadline, systemClock } from '../src/lib/time.js';

const quiet = { info() {}, debug() {}, notice() {}, warning() {}, error() {} };

export const actionEvaluation: EvalDriver = async (driver) => {
  const http = {
    clock: systemClock,
    deadline: new Deadline(systemClock, systemClock.now() + 1800 * 1000),
    logger: quiet,
  };
  const ctx: EvalContext = {
    http,
    logger: quiet,
    config: {
      apiKey: driver.apiKey,
      uiBaseUrl: driver.langsmithApiUrl.replace(/\/api\/v1$/, ''),
      github: {
        eventName: 'pull_request',
        ref: 'refs/pull/1/merge',
        sha: 'a'.repeat(40),
        repository: String(driver.baselineMetadata['repository']),
        serverUrl: 'https://github.com',
        apiUrl: 'https://api.github.com',
        runId: driver.experimentName.replace(/\D/g, '') || '1',
        runAttempt: '1',
        workspace: process.cwd(),
      },
      evaluation: {
        dataset: driver.dataset,
        splits: [],
        assistant: driver.assistant,
        maxExamples: 10_000,
        concurrency: driver.concurrency,
        baseline: 'auto',
        gate: {},
        waitSeconds: driver.waitMs / 1000,
        apiUrl: driver.langsmithApiUrl,
      },
    },
  };
  const agent = await agentRunner(ctx, driver.agentUrl, driver.assistant, driver.concurrency);
  let runsStartedAt = Number.POSITIVE_INFINITY;
  let runsEndedAt = 0;
  const runner = {
    graph: agent.graph,
    run: async (...args: Parameters<typeof agent.run>) => {
      runsStartedAt = Math.min(runsStartedAt, performance.now());
      const outcome = await agent.run(...args);
      runsEndedAt = Math.max(runsEndedAt, performance.now());
      return outcome;
    },
  };
  const target = { url: driver.agentUrl, name: 'bench-agent-pr-1', deploymentId: 'dep' };
  const { report } = await evaluate(ctx, target, { runner });
  const means = Object.fromEntries(
    report.keys.flatMap((k) => (k.mean === null ? [] : [[k.key, k.mean]])),
  ) as Record<string, number>;
  const baselineMeans = Object.fromEntries(
    report.keys.flatMap((k) => (k.baseline === null ? [] : [[k.key, k.baseline]])),
  ) as Record<string, number>;
  return {
    experimentId: report.experimentId,
    runsStartedAt,
    runsEndedAt,
    runs: report.examples,
    failedRuns: report.failedRuns,
    complete: report.keys.length > 0 && report.keys.every((k) => k.complete),
    means,
    ...(report.baselineName ? { baselineMeans } : {}),
  };
};
