/**
 * A REAL LangGraph agent server (`langgraphjs dev` from fixtures/agent-app) traces into the
 * simulator's LangSmith API: a stateless run (`POST /runs/wait`) with
 * `langsmith_tracer: {project_name, example_id}` becomes a run of the experiment the session
 * was created for (`POST /sessions` with `reference_dataset_id`, by the `langsmith` SDK), and
 * the dataset's evaluator scores it. This is the mechanism the evaluation gate rests on.
 *
 * What the server's tracer sent (langgraph-api 2.0.0, langsmith 0.12.0 inside it): `GET
 * /api/v1/info`, then `POST /api/v1/runs/multipart` (chunked, not gzipped) with a `post.<id>`
 * part per run, already ended: the root run `LangGraph` and one child per node (`__start__`,
 * then the graph's node), all three with `reference_example_id`, into the experiment's project;
 * and the same three again, with other IDs and without `reference_example_id`, into the
 * `default` project. A graph that raises: the same runs with an `error` part, and the wait
 * answers 200 `{"__error__": {"error": "Error", "message": "<the error serialised as JSON>"}}`.
 *
 * Skipped (with a message) only when fixtures/agent-app/node_modules is missing outside CI.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Client as AgentClient } from '@langchain/langgraph-sdk';
import { Client } from 'langsmith';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import {
  describeWithServer,
  startLangGraphServer,
  type LangGraphServer,
} from '../helpers/langgraph-server.js';
import { pollUntil } from '../simulator/helpers.js';

const describeServer = describeWithServer();

describeServer('a real LangGraph agent server traces into the simulated LangSmith', () => {
  let sim: Simulator;
  let server: LangGraphServer;
  let langsmith: Client;
  let dataset: { id: string; exampleIds: string[] };

  beforeAll(async () => {
    sim = await startSimulator();
    dataset = sim.langsmith.seedDataset({
      name: 'echo-qa',
      examples: [
        { inputs: { input: 'hi' }, outputs: { output: 'echo: hi' } },
        { inputs: { input: 'ho' }, outputs: { output: 'echo: something else' } },
      ],
      evaluators: [{ key: 'correctness' }, { key: 'ran', score: 'no-error' }],
    });
    const endpoint = `${sim.url}/api/v1`;
    server = await startLangGraphServer({
      env: {
        LANGSMITH_TRACING: 'true',
        LANGSMITH_ENDPOINT: endpoint,
        LANGCHAIN_ENDPOINT: endpoint,
        LANGSMITH_API_KEY: sim.apiKey,
      },
    });
    langsmith = new Client({
      apiUrl: endpoint,
      apiKey: sim.apiKey,
      autoBatchTracing: false,
      callerOptions: { maxRetries: 0 },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await sim?.close();
  }, 30_000);

  it("turns the runs into the experiment's runs, with their children, and they are scored", async () => {
    const experiment = await langsmith.createProject({
      projectName: 'echo-preview-1',
      referenceDatasetId: dataset.id,
      metadata: { langgraph_deploy_action: true },
    });
    const agent = new AgentClient({ apiUrl: server.url, callerOptions: { maxRetries: 0 } });
    const answers = [];
    for (const [i, input] of ['hi', 'ho'].entries()) {
      answers.push(
        await agent.runs.wait(null, 'echo', {
          input: { input },
          _langsmithTracer: { projectName: 'echo-preview-1', exampleId: dataset.exampleIds[i]! },
        }),
      );
    }
    expect(answers).toEqual([
      { input: 'hi', output: 'echo: hi' },
      { input: 'ho', output: 'echo: ho' },
    ]);

    // The tracer sends in the background: wait (bounded) for both traces, children included.
    const runs = await pollUntil(
      async () => sim.langsmith.runs('echo-preview-1'),
      (r) => r.length >= 6,
      20_000,
    );
    const roots = runs.filter((r) => r.parent_run_id === null);
    expect(roots.map((r) => r.name)).toEqual(['LangGraph', 'LangGraph']);
    expect(roots.map((r) => r.reference_example_id)).toEqual(dataset.exampleIds);
    expect(roots.every((r) => r.session_id === experiment.id)).toBe(true);
    const children = runs.filter((r) => r.parent_run_id !== null);
    expect(children.map((r) => r.name).sort()).toEqual(['__start__', '__start__', 'echo', 'echo']);
    expect(children.every((r) => roots.some((root) => root.id === r.parent_run_id))).toBe(true);
    expect(children.every((r) => dataset.exampleIds.includes(r.reference_example_id!))).toBe(true);

    // The dataset's evaluators scored the two root runs: the SDK reads it as the action will.
    const stats = await langsmith.readProject({ projectId: experiment.id, includeStats: true });
    expect(stats.run_count).toBe(2);
    expect(stats.feedback_stats).toMatchObject({
      correctness: { n: 2, avg: 0.5 },
      ran: { n: 2, avg: 1 },
    });

    // The copy in the default project carries no example.
    const copies = sim.langsmith.runs('default');
    expect(copies.filter((r) => r.name === 'LangGraph')).toHaveLength(2);
    expect(copies.every((r) => r.reference_example_id === null)).toBe(true);
  });

  it('traces a graph that raises as an errored run, and answers 200 with __error__', async () => {
    await langsmith.createProject({ projectName: 'boom-1', referenceDatasetId: dataset.id });
    const res = await fetch(`${server.url}/runs/wait`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        assistant_id: 'boom',
        input: { input: 'hi' },
        langsmith_tracer: { project_name: 'boom-1', example_id: dataset.exampleIds[0] },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { __error__: { error: string; message: string } };
    expect(body.__error__.error).toBe('Error');
    expect(JSON.parse(body.__error__.message)).toEqual({
      error: 'Error',
      message: 'boom: this graph always fails',
    });
    const runs = await pollUntil(
      async () => sim.langsmith.runs('boom-1'),
      (r) => r.some((run) => run.name === 'LangGraph'),
      20_000,
    );
    const root = runs.find((r) => r.name === 'LangGraph')!;
    expect(root).toMatchObject({ status: 'error', reference_example_id: dataset.exampleIds[0] });
    expect(root.error).toContain('boom: this graph always fails');
    const scored = await pollUntil(
      async () => sim.langsmith.feedback().filter((f) => f.run_id === root.id),
      (f) => f.length === 2,
    );
    expect(Object.fromEntries(scored.map((f) => [f.key, f.score]))).toEqual({
      correctness: 0,
      ran: 0,
    });
  });

  it('used only GET /info and POST /runs/multipart to trace (no batch, no single runs)', () => {
    const traced = sim.requests.filter(
      (r) => r.path.startsWith('/api/v1/runs') && r.path !== '/api/v1/runs/query',
    );
    expect(new Set(traced.map((r) => `${r.method} ${r.path}`))).toEqual(
      new Set(['POST /api/v1/runs/multipart']),
    );
    expect(traced.every((r) => r.status === 202)).toBe(true);
    expect(sim.langsmith.requestCounts()['GET /api/v1/info']).toBeGreaterThanOrEqual(1);
  });
});
