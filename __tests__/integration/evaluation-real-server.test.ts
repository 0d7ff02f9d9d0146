/**
 * The action's evaluation (`evaluate()`, with its real clients: the `langsmith` SDK on the
 * action's HTTP layer and `@langchain/langgraph-sdk`) against a REAL LangGraph agent server
 * (`langgraphjs dev` from fixtures/agent-app) whose tracing points at the simulator's LangSmith
 * API: the server's own traces become the experiment's runs (no run recorded by the action),
 * the dataset's evaluator scores them, and the comparison with a production experiment is
 * read from both experiments' root runs. Skipped (with a message) only when
 * fixtures/agent-app/node_modules is missing outside CI.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { Deadline, systemClock } from '../../src/lib/time.js';
import { evaluate, type EvalContext } from '../../src/verify/eval/index.js';
import { githubContext, recordingLogger } from '../helpers/fakes.js';
import {
  describeWithServer,
  startLangGraphServer,
  type LangGraphServer,
} from '../helpers/langgraph-server.js';

const describeServer = describeWithServer();

describeServer('the evaluation on a real LangGraph agent server', () => {
  let sim: Simulator;
  let server: LangGraphServer;

  beforeAll(async () => {
    sim = await startSimulator();
    const endpoint = `${sim.url}/api/v1`;
    server = await startLangGraphServer({
      env: {
        LANGSMITH_TRACING: 'true',
        LANGSMITH_ENDPOINT: endpoint,
        LANGCHAIN_ENDPOINT: endpoint,
        LANGSMITH_API_KEY: sim.apiKey,
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await sim?.close();
  }, 30_000);

  it('turns the server’s traces into the experiment’s runs, scored and compared', async () => {
    const questions = ['hi', 'ho', 'hey'];
    sim.langsmith.seedDataset({
      name: 'echo-qa',
      examples: questions.map((q) => ({ inputs: { input: q }, outputs: { output: `echo: ${q}` } })),
      evaluators: [{ key: 'correctness' }],
    });
    const production = sim.langsmith.seedExperiment({
      name: 'echo-main-1',
      dataset: 'echo-qa',
      metadata: { langgraph_deploy_action: true, repository: 'octo/app', event: 'push' },
      startTime: Date.now() - 3_600_000,
      scores: { correctness: 1 },
    });
    const logger = recordingLogger();
    const ctx: EvalContext = {
      http: {
        clock: systemClock,
        deadline: new Deadline(systemClock, systemClock.now() + 120 * 1000),
        logger,
      },
      logger,
      config: {
        apiKey: sim.apiKey,
        uiBaseUrl: sim.url,
        github: githubContext('https://api.github.com'),
        evaluation: {
          dataset: 'echo-qa',
          splits: [],
          assistant: 'echo',
          maxExamples: 10,
          concurrency: 2,
          baseline: 'auto',
          gate: { correctness: { min: 1, maxDrop: 0 } },
          waitSeconds: 60,
          apiUrl: `${sim.url}/api/v1`,
        },
      },
    };
    const target = { url: server.url, name: 'echo-pr-7', deploymentId: 'dep-1' };

    const { report, failure } = await evaluate(ctx, target);

    expect(failure).toBeUndefined();
    expect(report).toMatchObject({
      examples: 3,
      recorded: 0, // every run is the server's own trace
      failedRuns: 0,
      baselineName: 'echo-main-1',
      passed: true,
    });
    expect(report.url).toContain(`%2C${production.id}`);
    expect(report.keys).toEqual([
      expect.objectContaining({ key: 'correctness', mean: 1, n: 3, baseline: 1, delta: 0 }),
    ]);
    const roots = sim.langsmith.runs(report.experimentId).filter((r) => !r.parent_run_id);
    expect(roots.map((r) => r.name)).toEqual(['LangGraph', 'LangGraph', 'LangGraph']);
    expect(new Set(roots.map((r) => r.reference_example_id)).size).toBe(3);
  }, 120_000);
});
