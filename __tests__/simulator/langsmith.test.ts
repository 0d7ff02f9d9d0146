/**
 * The simulator's LangSmith API, read and written by the official `langsmith` SDK's `Client`
 * (the client the action uses): datasets, examples with splits and pages, sessions with stats
 * and the metadata filter, runs by every ingest endpoint the SDK uses, the cursor-paged run
 * query, feedback, the dataset-bound evaluator on the simulator's clock, and a refused key.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client, RunTree } from 'langsmith';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { seedFromJson } from '../../simulator/langsmith-controls.js';
import { call } from './helpers.js';

let sim: Simulator;
let now = Date.parse('2026-03-01T12:00:00Z');
const clock = () => now;

beforeAll(async () => {
  sim = await startSimulator({ langsmith: { clock } });
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.reset();
  now = Date.parse('2026-03-01T12:00:00Z');
});

function client(options: { key?: string; batch?: boolean } = {}): Client {
  return new Client({
    apiUrl: `${sim.url}/api/v1`,
    apiKey: options.key ?? sim.apiKey,
    autoBatchTracing: options.batch ?? false,
    callerOptions: { maxRetries: 0 },
    timeout_ms: 10_000,
  });
}

/** `listRuns` without its deprecation warning (the same `POST /runs/query`, as the action calls it). */
async function rootRuns(c: Client, projectId: string) {
  const list = (c as unknown as { _listRuns: Client['listRuns'] })._listRuns({
    projectId,
    isRoot: true,
  });
  const runs = [];
  for await (const run of list) runs.push(run);
  return runs;
}

async function all<T>(list: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of list) items.push(item);
  return items;
}

const examples = (n: number, split?: (i: number) => string[]) =>
  Array.from({ length: n }, (_, i) => ({
    inputs: { input: `q${i}` },
    outputs: { output: `echo: q${i}` },
    ...(split ? { splits: split(i) } : {}),
  }));

describe('datasets and examples', () => {
  it('reads a dataset by name and by ID, and says "not found" for an unknown one', async () => {
    const seeded = sim.langsmith.seedDataset({ name: 'qa', examples: examples(3) });
    const c = client();
    const byName = await c.readDataset({ datasetName: 'qa' });
    expect(byName).toMatchObject({ id: seeded.id, name: 'qa', example_count: 3 });
    expect(await c.readDataset({ datasetId: seeded.id })).toMatchObject({ name: 'qa' });
    await expect(c.readDataset({ datasetName: 'nope' })).rejects.toThrow(/not found/);
    // Seeded datasets have no metadata: a metadata filter finds none of them.
    expect(await all(c.listDatasets({ metadata: { team: 'x' } }))).toEqual([]);
    expect(await all(c.listDatasets({ metadata: {} }))).toHaveLength(1);
    const unknown = await call(sim, 'GET', `/api/v1/datasets/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
  });

  it('lists every example in pages of 100 (offset/limit), of the splits asked', async () => {
    const seeded = sim.langsmith.seedDataset({
      name: 'big',
      examples: examples(250, (i) => (i % 5 === 0 ? ['test'] : ['train'])),
    });
    const c = client();
    const every = await all(c.listExamples({ datasetId: seeded.id }));
    expect(every.map((e) => e.id)).toEqual(seeded.exampleIds);
    const pages = sim.requests.filter((r) => r.path === '/api/v1/examples');
    expect(pages.map((r) => [r.query.offset, r.query.limit])).toEqual([
      ['0', '100'],
      ['100', '100'],
      ['200', '100'],
    ]);
    const test = await all(c.listExamples({ datasetId: seeded.id, splits: ['test'] }));
    expect(test).toHaveLength(50);
    expect(test[0]).toMatchObject({
      inputs: { input: 'q0' },
      metadata: { dataset_split: ['test'] },
    });
    expect(await all(c.listExamples({ datasetId: seeded.id, splits: ['none'] }))).toEqual([]);
  });

  it('refuses a page over 100 and an unknown dataset', async () => {
    const seeded = sim.langsmith.seedDataset({ name: 'qa' });
    const big = await call(sim, 'GET', `/api/v1/examples?dataset=${seeded.id}&limit=101`);
    expect(big.status).toBe(422);
    const none = await call(sim, 'GET', `/api/v1/examples?dataset=${crypto.randomUUID()}`);
    expect(none.status).toBe(404);
  });
});

describe('sessions (experiments)', () => {
  it('creates an experiment on a dataset with metadata; refuses a taken name or unknown dataset', async () => {
    const dataset = sim.langsmith.seedDataset({ name: 'qa' });
    const c = client();
    const made = await c.createProject({
      projectName: 'agent-abc1234-42',
      referenceDatasetId: dataset.id,
      metadata: { langgraph_deploy_action: true, event: 'pull_request' },
    });
    expect(made).toMatchObject({
      name: 'agent-abc1234-42',
      reference_dataset_id: dataset.id,
      extra: { metadata: { langgraph_deploy_action: true, event: 'pull_request' } },
      // LangSmith's naive UTC timestamps.
      start_time: '2026-03-01T12:00:00.000',
    });
    await expect(c.createProject({ projectName: 'agent-abc1234-42' })).rejects.toThrow(/409/);
    const again = await c.createProject({ projectName: 'agent-abc1234-42', upsert: true });
    expect(again.id).toBe(made.id);
    await expect(
      c.createProject({ projectName: 'x', referenceDatasetId: crypto.randomUUID() }),
    ).rejects.toThrow(/404/);
  });

  it('gives stats (run_count, feedback_stats) only with include_stats, as LangSmith does', async () => {
    const dataset = sim.langsmith.seedDataset({ name: 'qa', examples: examples(4) });
    const seeded = sim.langsmith.seedExperiment({
      name: 'prod-1',
      dataset: 'qa',
      scores: { correctness: [1, 0, 1, null] },
    });
    const c = client();
    const plain = await c.readProject({ projectId: seeded.id });
    expect(plain).toMatchObject({ run_count: null, feedback_stats: null });
    const stats = await c.readProject({ projectId: seeded.id, includeStats: true });
    expect(stats.run_count).toBe(4);
    expect(stats.feedback_stats).toMatchObject({ correctness: { n: 3, avg: 2 / 3 } });
    expect(dataset.exampleIds).toHaveLength(4);
  });

  it("filters the dataset's experiments by metadata, newest first unless told otherwise", async () => {
    const dataset = sim.langsmith.seedDataset({ name: 'qa', examples: examples(1) });
    const meta = { langgraph_deploy_action: true, repository: 'acme/agent', event: 'push' };
    sim.langsmith.seedExperiment({
      name: 'old',
      dataset: 'qa',
      metadata: meta,
      startTime: now - 2000,
    });
    sim.langsmith.seedExperiment({
      name: 'new',
      dataset: 'qa',
      metadata: meta,
      startTime: now - 1000,
    });
    sim.langsmith.seedExperiment({
      name: 'pr',
      dataset: 'qa',
      metadata: { ...meta, event: 'pull_request' },
    });
    sim.langsmith.seedDataset({ name: 'other' });
    sim.langsmith.seedExperiment({ name: 'elsewhere', dataset: 'other', metadata: meta });
    const c = client();
    const names = async () =>
      (await all(c.listProjects({ referenceDatasetId: dataset.id, metadata: meta }))).map(
        (p) => p.name,
      );
    expect(await names()).toEqual(['new', 'old']);
    sim.langsmith.settings.sessionsOldestFirst = true;
    expect(await names()).toEqual(['old', 'new']);
    const query = sim.requests.find((r) => r.path === '/api/v1/sessions')!.query;
    expect(JSON.parse(query.metadata!)).toEqual(meta);
  });
});

describe('runs', () => {
  it('stores runs the SDK traces (multipart ingest): root and child, with reference_example_id', async () => {
    const dataset = sim.langsmith.seedDataset({ name: 'qa', examples: examples(1) });
    const c = client({ batch: true });
    const project = await c.createProject({ projectName: 'exp', referenceDatasetId: dataset.id });
    const root = new RunTree({
      name: 'LangGraph',
      run_type: 'chain',
      inputs: { input: 'q0' },
      project_name: 'exp',
      reference_example_id: dataset.exampleIds[0]!,
      client: c,
    });
    await root.postRun();
    const child = root.createChild({ name: 'echo', run_type: 'chain', inputs: { input: 'q0' } });
    await child.postRun();
    await child.end({ output: 'echo: q0' });
    await child.patchRun();
    await root.end({ output: 'echo: q0' });
    await root.patchRun();
    await c.awaitPendingTraceBatches();
    expect(sim.requests.some((r) => r.path === '/api/v1/runs/multipart')).toBe(true);
    const runs = sim.langsmith.runs('exp');
    expect(runs.map((r) => [r.name, r.parent_run_id === null])).toEqual([
      ['LangGraph', true],
      ['echo', false],
    ]);
    expect(runs[1]!.parent_run_ids).toEqual([runs[0]!.id]);
    const roots = await rootRuns(client(), project.id);
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({
      name: 'LangGraph',
      reference_example_id: dataset.exampleIds[0],
      outputs: { output: 'echo: q0' },
      status: 'success',
    });
  });

  it('stores runs created one by one (POST /runs, PATCH /runs/{id}) and by /runs/batch', async () => {
    const c = client();
    const id = crypto.randomUUID();
    await c.createRun({ id, name: 'one', run_type: 'chain', inputs: { a: 1 }, project_name: 'p' });
    await c.updateRun(id, { outputs: { b: 2 }, end_time: now });
    const batched = crypto.randomUUID();
    await c.batchIngestRuns({
      runCreates: [
        {
          id: batched,
          name: 'two',
          run_type: 'chain',
          inputs: {},
          trace_id: batched,
          dotted_order: `20260301T120000000000Z${batched}`,
          session_name: 'p',
        } as never,
      ],
    });
    const routes = sim.langsmith.requestCounts();
    expect(routes).toMatchObject({
      'POST /api/v1/runs': 1,
      'PATCH /api/v1/runs/{id}': 1,
      'POST /api/v1/runs/batch': 1,
    });
    const runs = sim.langsmith.runs('p');
    expect(runs.map((r) => r.name).sort()).toEqual(['one', 'two']);
    expect(runs.find((r) => r.name === 'one')).toMatchObject({
      outputs: { b: 2 },
      status: 'success',
    });
  });

  it('pages root runs by cursor (100 a page) and refuses filter expressions it would ignore', async () => {
    sim.langsmith.seedDataset({ name: 'qa', examples: examples(150) });
    const exp = sim.langsmith.seedExperiment({ name: 'e', dataset: 'qa', scores: { c: 1 } });
    const runs = await rootRuns(client(), exp.id);
    expect(new Set(runs.map((r) => r.id))).toEqual(new Set(exp.runIds));
    expect(runs[0]!.feedback_stats).toMatchObject({ c: { n: 1, avg: 1 } });
    const queries = sim.requests.filter((r) => r.path === '/api/v1/runs/query');
    expect(queries).toHaveLength(2);
    expect((queries[1]!.body as { cursor?: string }).cursor).toEqual(expect.any(String));
    const filtered = await call(sim, 'POST', '/api/v1/runs/query', {
      body: { session: [exp.id], filter: 'eq(name, "x")' },
    });
    expect(filtered.status).toBe(400);
  });
});

describe('runs: ingest edge cases', () => {
  /** A multipart body as the SDK builds it (parts `post.<id>`, `post.<id>.<field>`). */
  function multipart(parts: [string, unknown][]) {
    const boundary = 'b0und4ry';
    const body = parts
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n` +
          `Content-Type: application/json\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`,
      )
      .join('');
    return fetch(`${sim.url}/api/v1/runs/multipart`, {
      method: 'POST',
      headers: {
        'x-api-key': sim.apiKey,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: `${body}--${boundary}--\r\n`,
    });
  }

  it('assembles a run from its parts, refuses one without trace_id/dotted_order or with a part that is not JSON', async () => {
    const id = crypto.randomUUID();
    const run = { id, name: 'r', run_type: 'chain', session_name: 'p', trace_id: id };
    const ok = await multipart([
      [`post.${id}`, { ...run, dotted_order: `20260301T120000000000Z${id}` }],
      [`post.${id}.inputs`, { a: 1 }],
      [`post.${id}.outputs`, { b: 2 }],
      [`attachment.${id}.image`, 'not kept'],
    ]);
    expect(ok.status).toBe(202);
    expect(sim.langsmith.runs('p')).toMatchObject([{ id, inputs: { a: 1 }, outputs: { b: 2 } }]);
    const other = crypto.randomUUID();
    expect((await multipart([[`post.${other}`, { ...run, id: other }]])).status).toBe(422);
    expect((await multipart([[`post.${other}`, '{not json']])).status).toBe(422);
    const json = await call(sim, 'POST', '/api/v1/runs/multipart', { body: {} });
    expect(json.status).toBe(415);
    const garbled = await fetch(`${sim.url}/api/v1/runs/multipart`, {
      method: 'POST',
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'multipart/form-data; boundary=zz' },
      body: '--x\r\nnothing',
    });
    expect(garbled.status).toBe(400);
  });

  it('keeps an update that arrives before its run, and applies it when the run comes', async () => {
    const c = client();
    const id = crypto.randomUUID();
    await c.updateRun(id, { outputs: { late: true }, end_time: now });
    expect(sim.langsmith.sessions()).toEqual([]);
    await c.createRun({ id, name: 'r', run_type: 'chain', inputs: {}, project_name: 'p' });
    expect(sim.langsmith.runs('p')).toMatchObject([{ id, outputs: { late: true } }]);
  });

  it('shows runs only ingestDelayMs after they arrived (LangSmith ingests in the background)', async () => {
    sim.langsmith.settings.ingestDelayMs = 3000;
    const c = client();
    const project = await c.createProject({ projectName: 'p' });
    await c.createRun({
      id: crypto.randomUUID(),
      name: 'r',
      run_type: 'chain',
      inputs: {},
      project_name: 'p',
    });
    expect(await rootRuns(c, project.id)).toEqual([]);
    now += 3000;
    expect(await rootRuns(c, project.id)).toHaveLength(1);
  });
});

describe('feedback and the dataset-bound evaluator', () => {
  async function experimentRun(c: Client, exampleId: string, outputs: Record<string, unknown>) {
    const id = crypto.randomUUID();
    await c.createRun({
      id,
      name: 'LangGraph',
      run_type: 'chain',
      inputs: {},
      project_name: 'exp',
      reference_example_id: exampleId,
    });
    await c.updateRun(id, { outputs, end_time: now });
    return id;
  }

  it('scores each ended root run after the delay on the simulator clock, not before', async () => {
    const dataset = sim.langsmith.seedDataset({
      name: 'qa',
      examples: examples(2),
      evaluators: [
        { key: 'correctness', delayMs: 5000 },
        { key: 'no_error', score: 'no-error', delayMs: 1000 },
      ],
    });
    const c = client();
    const exp = await c.createProject({ projectName: 'exp', referenceDatasetId: dataset.id });
    await experimentRun(c, dataset.exampleIds[0]!, { output: 'echo: q0' });
    await experimentRun(c, dataset.exampleIds[1]!, { output: 'wrong' });
    const stats = async () =>
      (await c.readProject({ projectId: exp.id, includeStats: true })).feedback_stats;
    expect(await stats()).toEqual({});
    now += 1000;
    expect(Object.keys((await stats())!)).toEqual(['no_error']);
    now += 3999;
    expect((await stats())!.correctness).toBeUndefined();
    now += 1;
    expect(await stats()).toMatchObject({
      correctness: { n: 2, avg: 0.5 },
      no_error: { n: 2, avg: 1 },
    });
    const roots = await rootRuns(c, exp.id);
    const scores = roots.map(
      (r) => (r.feedback_stats as Record<string, { avg: number }>).correctness!.avg,
    );
    expect(scores.sort()).toEqual([0, 1]);
  });

  it('scores only root runs of an experiment on its own dataset, with the evaluators it has', async () => {
    const dataset = sim.langsmith.seedDataset({
      name: 'qa',
      examples: examples(1),
      evaluators: [{ key: 'correctness' }, { key: 'judge', never: true }],
    });
    const other = sim.langsmith.seedDataset({ name: 'other', examples: examples(1) });
    const c = client();
    await c.createProject({ projectName: 'exp', referenceDatasetId: dataset.id });
    const root = await experimentRun(c, dataset.exampleIds[0]!, { output: 'echo: q0' });
    // A child run, and a run for another dataset's example: not scored.
    const child = crypto.randomUUID();
    await c.createRun({
      id: child,
      name: 'node',
      run_type: 'chain',
      inputs: {},
      project_name: 'exp',
      parent_run_id: root,
      reference_example_id: dataset.exampleIds[0]!,
      end_time: now,
    });
    await experimentRun(c, other.exampleIds[0]!, { output: 'echo: q0' });
    // A project without a dataset: not an experiment.
    const id = crypto.randomUUID();
    await c.createRun({
      id,
      name: 'LangGraph',
      run_type: 'chain',
      inputs: {},
      project_name: 'plain',
      reference_example_id: dataset.exampleIds[0]!,
      end_time: now,
    });
    const feedback = sim.langsmith.feedback();
    expect(feedback.map((f) => [f.run_id, f.key, f.score])).toEqual([[root, 'correctness', 1]]);
  });

  it('takes feedback from POST /feedback and counts it per run and per session', async () => {
    sim.langsmith.seedDataset({ name: 'qa', examples: examples(1) });
    const exp = sim.langsmith.seedExperiment({ name: 'e', dataset: 'qa' });
    const c = client();
    const runId = exp.runIds[0]!;
    await c.createFeedback(runId, 'helpfulness', { score: 0.5, sessionId: exp.id });
    await c.createFeedback(runId, 'helpfulness', { score: 1, sessionId: exp.id });
    const session = await c.readProject({ projectId: exp.id, includeStats: true });
    expect(session.feedback_stats).toMatchObject({ helpfulness: { n: 2, avg: 0.75 } });
    const [run] = await rootRuns(c, exp.id);
    expect(run!.feedback_stats).toMatchObject({ helpfulness: { n: 2, avg: 0.75 } });
    const unknown = await call(sim, 'POST', '/api/v1/feedback', {
      body: { run_id: crypto.randomUUID(), key: 'k', score: 1 },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('the key', () => {
  it('answers 401 to a wrong key, and to every request while the key is refused', async () => {
    sim.langsmith.seedDataset({ name: 'qa' });
    await expect(client({ key: 'wrong' }).readDataset({ datasetName: 'qa' })).rejects.toThrow(
      /401/,
    );
    sim.langsmith.refuseKey(403);
    await expect(client().readDataset({ datasetName: 'qa' })).rejects.toThrow(/403/);
    sim.langsmith.acceptKey();
    await expect(client().readDataset({ datasetName: 'qa' })).resolves.toMatchObject({
      name: 'qa',
    });
  });

  it('counts requests by route, UUIDs as {id}', async () => {
    sim.langsmith.seedDataset({ name: 'qa', examples: examples(1) });
    const made = sim.langsmith.seedExperiment({ name: 'e', dataset: 'qa' });
    await client().readProject({ projectId: made.id });
    await client().readProject({ projectId: made.id });
    await client().readDataset({ datasetName: 'qa' });
    expect(sim.langsmith.requestCounts()).toEqual({
      'GET /api/v1/sessions/{id}': 2,
      'GET /api/v1/datasets': 1,
    });
  });
});

describe('seeding from JSON (npm run sim -- --langsmith-seed FILE)', () => {
  it('seeds datasets and experiments, and names what is wrong', () => {
    seedFromJson(
      sim.langsmith,
      JSON.stringify({
        datasets: [
          { name: 'qa', examples: [{ inputs: { input: 'hi' } }], evaluators: [{ key: 'c' }] },
        ],
        experiments: [{ name: 'prod', dataset: 'qa', scores: { c: [0.5] } }],
      }),
    );
    expect(sim.langsmith.sessions()).toMatchObject([
      { name: 'prod', run_count: 1, feedback_stats: { c: { avg: 0.5 } } },
    ]);
    expect(() => seedFromJson(sim.langsmith, '{"datasets": {}}')).toThrow(
      /"datasets" must be a list/,
    );
    expect(() => seedFromJson(sim.langsmith, '{"experiments": [{"name": "x"}]}')).toThrow(
      /"dataset"/,
    );
    expect(() =>
      seedFromJson(
        sim.langsmith,
        '{"datasets": [{"name": "d", "evaluators": [{"key": "k", "score": "judge"}]}]}',
      ),
    ).toThrow(/unknown score judge/);
  });
});
