/**
 * Stateless runs of the simulated agent server (`POST /runs/wait`, called with
 * `@langchain/langgraph-sdk` as the action does) and their traces in the simulated LangSmith:
 * `langsmith_tracer` makes the run an experiment's run, scored by the dataset's evaluator.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client } from '@langchain/langgraph-sdk';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { call } from './helpers.js';

let sim: Simulator;
let depId: string;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  depId = sim.seedDeployment({ name: 'served' }).id;
});

const agent = () =>
  new Client({ apiUrl: sim.agentUrl(depId), apiKey: sim.apiKey, callerOptions: { maxRetries: 0 } });

function dataset() {
  return sim.langsmith.seedDataset({
    name: 'qa',
    examples: [
      { inputs: { input: 'q0' }, outputs: { output: 'echo: q0' } },
      { inputs: { input: 'q1' }, outputs: { output: 'echo: q1' } },
    ],
    evaluators: [{ key: 'correctness' }],
  });
}

/** The session the action would create first (`POST /sessions` with the dataset). */
async function experiment(datasetId: string, name = 'exp') {
  const made = await call(sim, 'POST', '/api/v1/sessions', {
    body: { name, reference_dataset_id: datasetId, extra: {} },
  });
  return (made.body as { id: string }).id;
}

describe('POST /runs/wait', () => {
  it('answers the final state, and traces the run into the langsmith_tracer project', async () => {
    const ds = dataset();
    const sessionId = await experiment(ds.id);
    const exampleId = ds.exampleIds[0]!;
    const answer = await agent().runs.wait(null, 'agent', {
      input: { input: 'q0' },
      _langsmithTracer: { projectName: 'exp', exampleId },
    });
    expect(answer).toEqual({ input: 'q0', output: 'echo: q0' });
    const runs = sim.langsmith.runs('exp');
    expect(runs.map((r) => [r.name, r.reference_example_id, r.session_id])).toEqual([
      ['LangGraph', exampleId, sessionId],
      ['agent', exampleId, sessionId],
    ]);
    expect(runs[1]!.parent_run_id).toBe(runs[0]!.id);
    expect(runs[0]).toMatchObject({ inputs: { input: 'q0' }, outputs: answer, status: 'success' });
    // As the real server, a copy goes to the default project, without the example.
    const copies = sim.langsmith.runs('default');
    expect(copies.map((r) => [r.name, r.reference_example_id])).toEqual([
      ['LangGraph', null],
      ['agent', null],
    ]);
    // The dataset's evaluator scored the root run.
    expect(sim.langsmith.feedback()).toEqual([
      expect.objectContaining({ run_id: runs[0]!.id, key: 'correctness', score: 1 }),
    ]);
  });

  it('traces nothing without langsmith_tracer, or when the server ignores it', async () => {
    const ds = dataset();
    await experiment(ds.id);
    await agent().runs.wait(null, 'agent', { input: { input: 'q0' } });
    sim.agent(depId).ignoreTracer = true;
    await agent().runs.wait(null, 'agent', {
      input: { input: 'q1' },
      _langsmithTracer: { projectName: 'exp', exampleId: ds.exampleIds[1]! },
    });
    expect(sim.langsmith.runs('exp')).toEqual([]);
    expect(sim.langsmith.sessions().map((s) => s.name)).toEqual(['exp']);
  });

  it('answers 200 with __error__ for a graph that raises, and traces the run as an error', async () => {
    const ds = dataset();
    await experiment(ds.id);
    sim.agent(depId).run = 'error';
    sim.agent(depId).errorMessage = 'boom: this graph always fails';
    const res = await call(sim, 'POST', `/agents/${depId}/runs/wait`, {
      body: {
        assistant_id: 'agent',
        input: { input: 'q0' },
        langsmith_tracer: { project_name: 'exp', example_id: ds.exampleIds[0] },
      },
    });
    expect(res.status).toBe(200);
    // The real server serialises the error twice (langgraph-api 2.0.0).
    expect(res.body).toEqual({
      __error__: {
        error: 'Error',
        message: JSON.stringify({ error: 'Error', message: 'boom: this graph always fails' }),
      },
    });
    const [root] = sim.langsmith.runs('exp');
    expect(root).toMatchObject({ status: 'error', error: 'boom: this graph always fails' });
    expect(sim.langsmith.feedback()).toMatchObject([{ key: 'correctness', score: 0 }]);
  });

  it('answers wrong for the share of inputs wrongAnswerRate says, the same ones each time', async () => {
    sim.agent(depId).wrongAnswerRate = 0.3;
    const outputs = async () => {
      const answers = [];
      for (let i = 0; i < 40; i++) {
        const a = (await agent().runs.wait(null, 'agent', { input: { input: `q${i}` } })) as {
          output: string;
        };
        answers.push(a.output.endsWith('(wrong)'));
      }
      return answers;
    };
    const first = await outputs();
    const wrong = first.filter(Boolean).length;
    expect(wrong).toBeGreaterThan(4);
    expect(wrong).toBeLessThan(20);
    expect(await outputs()).toEqual(first);
  });

  it('takes runDelayMs to answer, and counts runs in flight', async () => {
    sim.agent(depId).runDelayMs = 150;
    const started = performance.now();
    await Promise.all([0, 1, 2].map(() => agent().runs.wait(null, 'agent', { input: {} })));
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(sim.agentRuns()).toMatchObject({ started: 3, inFlight: 0, maxInFlight: 3 });
  });

  it('refuses a run without assistant_id or with a malformed langsmith_tracer (422), an unknown assistant (404)', async () => {
    const wait = (body: unknown) => call(sim, 'POST', `/agents/${depId}/runs/wait`, { body });
    expect((await wait({ input: {} })).status).toBe(422);
    expect((await wait({ assistant_id: 'agent', langsmith_tracer: 'exp' })).status).toBe(422);
    expect((await wait({ assistant_id: 'nope' })).status).toBe(404);
  });
});
