import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { readBulkDeleteAnswer } from '../../src/api/bulk-delete.js';
import { ControlPlaneClient } from '../../src/api/client.js';
import { ApiError } from '../../src/lib/errors.js';
import type { HttpContext } from '../../src/api/http/request.js';
import { resetSecretsForTests } from '../../src/lib/untrusted.js';
import { Deadline } from '../../src/lib/time.js';
import { captureOutputForTests, FakeClock } from '../helpers/fakes.js';
import {
  captureLogger,
  sendJson,
  startServer,
  type LocalServer,
} from '../helpers/http-test-server.js';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';
const IDS = [A, B, C];

describe('readBulkDeleteAnswer', () => {
  it('200 (and 204) means every one was deleted', () => {
    expect(readBulkDeleteAnswer(IDS, 200, {})).toEqual({ deleted: IDS, failed: [], unknown: [] });
    expect(readBulkDeleteAnswer(IDS, 204, undefined).deleted).toEqual(IDS);
  });

  it.each([
    ['failed objects', { deleted: [A, C], failed: [{ deployment_id: B, detail: 'busy' }] }],
    ['failed objects without deleted', { failed: [{ id: B, error: 'busy' }] }],
    ['an errors map', { errors: { [B]: 'busy' } }],
    [
      'per-ID results with HTTP codes',
      {
        results: [
          { deployment_id: A, status: 204 },
          { deployment_id: B, status: 409, detail: 'busy' },
          { deployment_id: C, status: 204 },
        ],
      },
    ],
    [
      'per-ID results with success flags',
      [
        { deployment_id: A, success: true },
        { deployment_id: B, success: false, message: 'busy' },
        { deployment_id: C, success: true },
      ],
    ],
    ['a nested detail', { detail: { failed_deployments: [{ deployment_id: B, reason: 'busy' }] } }],
  ])('207 with %s: B failed, A and C deleted', (_label, body) => {
    const outcome = readBulkDeleteAnswer(IDS, 207, body);
    expect(outcome.failed).toEqual([{ id: B, reason: 'busy' }]);
    expect(outcome.deleted).toEqual([A, C]);
    expect(outcome.unknown).toEqual([]);
  });

  it('207 with failed IDs as plain strings gives a generic reason', () => {
    const outcome = readBulkDeleteAnswer(IDS, 207, { failed_deployment_ids: [B.toUpperCase()] });
    expect(outcome.failed.map((f) => f.id)).toEqual([B]);
    expect(outcome.failed[0]!.reason).toMatch(/without a reason/);
    expect(outcome.deleted).toEqual([A, C]);
  });

  it('a failure outranks a success said elsewhere in the same body', () => {
    const outcome = readBulkDeleteAnswer(IDS, 207, {
      deleted: IDS,
      failed: [{ id: B, detail: 'no' }],
    });
    expect(outcome.failed.map((f) => f.id)).toEqual([B]);
  });

  it('207 that names no failure: nothing unnamed counts as deleted', () => {
    expect(readBulkDeleteAnswer(IDS, 207, { message: 'partial success' })).toEqual({
      deleted: [],
      failed: [],
      unknown: IDS,
    });
    const onlySome = readBulkDeleteAnswer(IDS, 207, { deleted: [A] });
    expect(onlySome).toEqual({ deleted: [A], failed: [], unknown: [B, C] });
    expect(readBulkDeleteAnswer(IDS, 207, 'not json').unknown).toEqual(IDS);
  });

  it('IDs of other calls in the body are ignored', () => {
    const other = '00000000-0000-4000-8000-0000000000ff';
    const outcome = readBulkDeleteAnswer([A], 207, { failed: [other] });
    expect(outcome).toEqual({ deleted: [], failed: [], unknown: [A] });
  });
});

describe('ControlPlaneClient.deleteDeployments', () => {
  const servers: LocalServer[] = [];
  let restore: () => void = () => undefined;
  beforeAll(() => {
    restore = captureOutputForTests(() => undefined);
  });
  afterAll(() => restore());
  afterEach(async () => {
    resetSecretsForTests();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });

  async function clientFor(answer: (n: number) => [number, unknown]) {
    const server = await startServer((_req, res, n) => {
      const [status, body] = answer(n);
      sendJson(res, status, body);
    });
    servers.push(server);
    const clock = new FakeClock();
    const http: HttpContext = {
      clock,
      deadline: new Deadline(clock, clock.now() + 60_000),
      signal: new AbortController().signal,
      logger: captureLogger(),
      baseDelayMs: 1,
    };
    const client = new ControlPlaneClient({
      baseUrl: server.url,
      apiKey: 'k-123456',
      http,
      mask: () => {},
    });
    return { client, server };
  }

  it('sends the IDs as a repeated deployment_ids parameter on DELETE /v2/deployments', async () => {
    const { client, server } = await clientFor(() => [200, {}]);
    expect(await client.deleteDeployments(IDS)).toEqual({ deleted: IDS, failed: [], unknown: [] });
    expect(server.requests).toHaveLength(1);
    const sent = new URL(server.requests[0]!.url, 'http://x');
    expect(server.requests[0]!.method).toBe('DELETE');
    expect(sent.pathname).toBe('/v2/deployments');
    expect(sent.searchParams.getAll('deployment_ids')).toEqual(IDS);
    expect([...sent.searchParams.keys()].every((k) => k === 'deployment_ids')).toBe(true);
  });

  it('reads a 207 body; 404 is not_found; other statuses throw ApiError', async () => {
    const { client } = await clientFor((n) =>
      n === 1
        ? [207, { deleted: [A, C], failed: [{ deployment_id: B, detail: 'busy' }] }]
        : n === 2
          ? [404, { detail: `Deployment ID ${B} not found.` }]
          : [400, { detail: 'Bad request' }],
    );
    expect(await client.deleteDeployments(IDS)).toEqual({
      deleted: [A, C],
      failed: [{ id: B, reason: 'busy' }],
      unknown: [],
    });
    expect(await client.deleteDeployments(IDS)).toBe('not_found');
    await expect(client.deleteDeployments(IDS)).rejects.toBeInstanceOf(ApiError);
  });

  it('refuses more than 100 IDs before any request', async () => {
    const { client, server } = await clientFor(() => [200, {}]);
    const many = Array.from(
      { length: 101 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    await expect(client.deleteDeployments(many)).rejects.toThrow(/At most 100/);
    expect(server.requests).toHaveLength(0);
  });
});
