import { afterEach, describe, expect, it } from '@jest/globals';
import { langsmithClient } from '../../src/api/langsmith.js';
import type { HttpContext } from '../../src/api/http/request.js';
import { ApiError, CancelledError } from '../../src/lib/errors.js';
import { Deadline } from '../../src/lib/time.js';
import { resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';
import { FakeClock } from '../helpers/fakes.js';
import {
  captureLogger,
  sendJson,
  startServer,
  type Handler,
  type LocalServer,
} from '../helpers/http-test-server.js';

const KEY = 'lsv2_pt_langsmith_test_key_0123';
const DATASET = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
const SESSION = '11111111-2222-4333-8444-555555555555';

let server: LocalServer | undefined;
afterEach(async () => {
  resetSecretsForTests();
  await server?.close();
  server = undefined;
});

async function setup(handler: Handler, http: Partial<HttpContext> = {}) {
  server = await startServer(handler);
  // Fractions of a millisecond left, as with the system clock (the SDK's timeout must be whole).
  const clock = new FakeClock(1_700_000_000_000.25);
  const ctx: HttpContext = {
    clock,
    deadline: new Deadline(clock, 1_700_000_600_000),
    logger: captureLogger(),
    random: () => 0,
    ...http,
  };
  const api = await langsmithClient({ apiUrl: `${server.url}/api/v1`, apiKey: KEY, http: ctx });
  return { api, requests: server.requests };
}

const path = (url: string) => new URL(url, 'http://x').pathname;
const query = (url: string) => new URL(url, 'http://x').searchParams;

describe('langsmithClient', () => {
  it('finds a dataset by name, sending the key to the LangSmith API only', async () => {
    const { api, requests } = await setup((req, res) =>
      sendJson(res, 200, [{ id: DATASET, name: 'qa' }]),
    );
    await expect(api.dataset('qa')).resolves.toEqual({ id: DATASET, name: 'qa' });
    expect(requests).toHaveLength(1);
    expect(path(requests[0]!.url)).toBe('/api/v1/datasets');
    expect(query(requests[0]!.url).get('name')).toBe('qa');
    expect(requests[0]!.headers['x-api-key']).toBe(KEY);
  });

  it('finds a dataset by ID, and none when there is none, after one request (no SDK retries)', async () => {
    const { api, requests } = await setup((req, res) => sendJson(res, 200, []));
    await expect(api.dataset(DATASET)).resolves.toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(path(requests[0]!.url)).toBe('/api/v1/datasets');
    expect(query(requests[0]!.url).getAll('id')).toEqual([DATASET]);
  });

  it('finds an experiment by ID or by name', async () => {
    const { api, requests } = await setup((req, res) => sendJson(res, 200, [{ id: SESSION }]));
    await expect(api.experiment(SESSION)).resolves.toEqual({ id: SESSION });
    await expect(api.experiment('prod-1')).resolves.toEqual({ id: SESSION });
    expect(
      requests.map((r) => [path(r.url), query(r.url).get('id'), query(r.url).get('name')]),
    ).toEqual([
      ['/api/v1/sessions', SESSION, null],
      ['/api/v1/sessions', null, 'prod-1'],
    ]);
  });

  it('retries a 503 with the action’s retries only, then says LangSmith failed', async () => {
    const { api, requests } = await setup((req, res) => sendJson(res, 503, { detail: 'busy' }), {
      maxAttempts: 2,
    });
    const error = await api.dataset('qa').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(/answered HTTP 503: busy/);
    expect(requests).toHaveLength(2);
  });

  it('names `api-key` when LangSmith refuses the key, masked (as the inputs mask it)', async () => {
    setSecret(KEY);
    const { api } = await setup((req, res) => sendJson(res, 401, { detail: `bad key ${KEY}` }));
    const error = (await api.dataset('qa').catch((e: unknown) => e)) as ApiError;
    expect(error.title).toBe('LangSmith refused the API key');
    expect(error.message).toMatch(/`api-key`/);
    expect(error.message).not.toContain(KEY);
  });

  it('reads every page of examples with the splits asked, but no more than max + 1', async () => {
    const { api, requests } = await setup((req, res) => {
      const q = query(req.url ?? '');
      const offset = Number(q.get('offset'));
      const page = Array.from({ length: Number(q.get('limit')) }, (_, i) => ({
        id: `ex-${offset + i}`,
        inputs: { n: offset + i },
      }));
      sendJson(res, 200, page);
    });
    const examples = await api.examples(DATASET, ['test', 'hard'], 150);
    expect(examples).toHaveLength(151);
    expect(examples[150]).toEqual({ id: 'ex-150', inputs: { n: 150 } });
    expect(requests).toHaveLength(2);
    expect(query(requests[0]!.url).getAll('splits')).toEqual(['test', 'hard']);
    expect(query(requests[0]!.url).get('dataset')).toBe(DATASET);
  });

  it('creates the experiment on the dataset with its metadata', async () => {
    const { api, requests } = await setup((req, res) =>
      sendJson(res, 200, {
        id: SESSION,
        name: 'e',
        tenant_id: 't',
        start_time: '2026-01-01T00:00:00Z',
      }),
    );
    const made = await api.createExperiment('e', DATASET, { langgraph_deploy_action: true });
    expect(made.id).toBe(SESSION);
    expect(requests[0]!.method).toBe('POST');
    expect(path(requests[0]!.url)).toBe('/api/v1/sessions');
    expect(JSON.parse(requests[0]!.body)).toMatchObject({
      name: 'e',
      reference_dataset_id: DATASET,
      extra: { metadata: { langgraph_deploy_action: true } },
    });
  });

  it('lists the dataset’s experiments with the metadata filter', async () => {
    const { api, requests } = await setup((req, res) =>
      sendJson(res, 200, [{ id: SESSION, start_time: '2026-01-01T00:00:00Z' }]),
    );
    await expect(api.experiments(DATASET, { repository: 'o/r' })).resolves.toHaveLength(1);
    const q = query(requests[0]!.url);
    expect(q.get('reference_dataset')).toBe(DATASET);
    expect(JSON.parse(q.get('metadata') ?? '')).toEqual({ repository: 'o/r' });
  });

  it('reads the root runs of an experiment page by page (cursor), with their feedback', async () => {
    const { api, requests } = await setup((req, res) => {
      const body = JSON.parse(req.body) as { cursor?: string };
      const run = (id: string) => ({
        id,
        reference_example_id: `ex-${id}`,
        feedback_stats: { c: { n: 1, avg: 1 } },
      });
      if (!body.cursor) sendJson(res, 200, { runs: [run('1'), run('2')], cursors: { next: 'p2' } });
      else sendJson(res, 200, { runs: [run('3')], cursors: { next: null } });
    });
    const runs = await api.rootRuns(SESSION, 100);
    expect(runs.map((r) => r.id)).toEqual(['1', '2', '3']);
    expect(requests.map((r) => `${r.method} ${path(r.url)}`)).toEqual([
      'POST /api/v1/runs/query',
      'POST /api/v1/runs/query',
    ]);
    expect(JSON.parse(requests[0]!.body)).toMatchObject({ session: [SESSION], is_root: true });
  });

  it('reads the experiment’s feedback as a whole (include_stats)', async () => {
    const { api, requests } = await setup((req, res) =>
      sendJson(res, 200, { id: SESSION, feedback_stats: { correctness: { n: 3, avg: 0.5 } } }),
    );
    await expect(api.feedbackStats(SESSION)).resolves.toEqual({ correctness: { n: 3, avg: 0.5 } });
    expect(query(requests[0]!.url).get('include_stats')).toBe('true');
  });

  it('records a finished root run in the experiment with its example', async () => {
    const { api, requests } = await setup((req, res) => sendJson(res, 200, {}));
    await api.createRun({
      project_name: 'exp',
      name: 'agent',
      reference_example_id: 'ex-1',
      inputs: { q: 1 },
      outputs: { a: 2 },
      start_time: 1,
      end_time: 2,
    });
    expect(`${requests[0]!.method} ${path(requests[0]!.url)}`).toBe('POST /api/v1/runs');
    expect(JSON.parse(requests[0]!.body)).toMatchObject({
      session_name: 'exp',
      reference_example_id: 'ex-1',
      inputs: { q: 1 },
      outputs: { a: 2 },
      run_type: 'chain',
    });
  });

  it('stops on cancellation without retrying', async () => {
    const controller = new AbortController();
    const { api, requests } = await setup(
      (req, res) => {
        controller.abort(new CancelledError('cancelled'));
        setTimeout(() => sendJson(res, 200, []), 50);
      },
      { signal: controller.signal },
    );
    await expect(api.dataset('qa')).rejects.toBeInstanceOf(CancelledError);
    expect(requests).toHaveLength(1);
  });
});
