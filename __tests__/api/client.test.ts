import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { ControlPlaneClient, USER_AGENT } from '../../src/api/client.js';
import { INPUT_NAMES } from '../../src/inputs/spec.js';
import { OutcomeUnknownError, type HttpContext } from '../../src/api/http/request.js';
import { ApiError } from '../../src/lib/errors.js';
import { resetSecretsForTests } from '../../src/lib/untrusted.js';
import { Deadline } from '../../src/lib/time.js';
import { captureOutputForTests, FakeClock } from '../helpers/fakes.js';
import {
  captureLogger,
  sendJson,
  startServer,
  type Handler,
  type LocalServer,
} from '../helpers/http-test-server.js';

const API_KEY = 'lsv2_sk_client_test_key_fedcba9876543210';
const SECRET_A = 'sk-openai-secret-value-AAAA';
const SECRET_B = 'tavily-secret-value-BBBB';

function deployment(over: Record<string, unknown> = {}) {
  return {
    id: 'd-1',
    name: 'app',
    source: 'github',
    source_config: { integration_id: 'i-1', repo_url: 'https://github.com/o/r' },
    source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
    secrets: [
      { name: 'OPENAI_API_KEY', value: SECRET_A },
      { name: 'TAVILY_API_KEY', value: SECRET_B },
    ],
    tenant_id: 't-1',
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
    status: 'READY',
    latest_revision_id: 'r-1',
    ...over,
  };
}

const revision = {
  id: 'r-1',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
  status: 'BUILDING',
  source: 'github',
  source_revision_config: { repo_ref: 'main' },
};

// Every log line of every test, checked for the key at the end.
const allLogLines: string[] = [];
const allMessages: string[] = [];
const servers: LocalServer[] = [];
let restoreOutput: () => void = () => undefined;

beforeAll(() => {
  restoreOutput = captureOutputForTests(() => undefined); // swallow ::add-mask::
});
afterEach(async () => {
  resetSecretsForTests();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => {
  restoreOutput();
  for (const line of [...allLogLines, ...allMessages]) {
    expect(line).not.toContain(API_KEY);
    expect(line).not.toContain(SECRET_A);
    expect(line).not.toContain(SECRET_B);
  }
});

async function setup(
  handler: Handler,
  options: { workspaceId?: string; pageLimit?: number; defaultMask?: boolean } = {},
) {
  const s = await startServer(handler);
  servers.push(s);
  const clock = new FakeClock();
  const logger = captureLogger();
  const http: HttpContext = {
    clock,
    deadline: new Deadline(clock, clock.now() + 1800 * 1000),
    logger,
    random: () => 0.5,
  };
  const masked: string[] = [];
  const client = new ControlPlaneClient({
    baseUrl: `${s.url}/api-host/`,
    apiKey: API_KEY,
    http,
    inputs: INPUT_NAMES,
    ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    ...(options.pageLimit ? { pageLimit: options.pageLimit } : {}),
    ...(options.defaultMask ? {} : { mask: (v: string) => masked.push(v) }),
  });
  return {
    server: s,
    client,
    masked,
    clock,
    logger,
    /** Runs fn, expects it to reject, records the message for the global secret check. */
    async failure(fn: () => Promise<unknown>): Promise<Error> {
      const err = await fn().then(
        () => {
          throw new Error('expected a rejection');
        },
        (e: unknown) => e as Error,
      );
      allMessages.push(err.message);
      allLogLines.push(...logger.lines);
      return err;
    },
    done() {
      allLogLines.push(...logger.lines);
    },
  };
}

function pathOf(url: string) {
  return new URL(url, 'http://x').pathname;
}
function queryOf(url: string) {
  return Object.fromEntries(new URL(url, 'http://x').searchParams);
}

describe('requests', () => {
  it('sends the key, tenant, JSON and user-agent headers under the base path', async () => {
    const t = await setup((_req, res) => sendJson(res, 201, deployment()), {
      workspaceId: 'ws-9',
    });
    await t.client.createDeployment({
      name: 'app',
      source: 'github',
      source_config: { integration_id: 'i-1' },
      source_revision_config: { repo_ref: 'main' },
      secrets: [],
    });
    const r = t.server.requests[0]!;
    expect(r.method).toBe('POST');
    expect(pathOf(r.url)).toBe('/api-host/v2/deployments');
    expect(r.headers['x-api-key']).toBe(API_KEY);
    expect(r.headers['x-tenant-id']).toBe('ws-9');
    expect(r.headers['accept']).toBe('application/json');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['user-agent']).toBe(USER_AGENT);
    expect(JSON.parse(r.body)).toMatchObject({ name: 'app', secrets: [] });
    t.done();
  });

  it('sends no X-Tenant-Id without workspace-id', async () => {
    const t = await setup((_req, res) => sendJson(res, 200, deployment()));
    await t.client.getDeployment('d-1');
    expect(t.server.requests[0]!.headers['x-tenant-id']).toBeUndefined();
    expect(pathOf(t.server.requests[0]!.url)).toBe('/api-host/v2/deployments/d-1');
    t.done();
  });

  it('never sends the API key to a plain-http control plane that is not loopback', async () => {
    const clock = new FakeClock();
    const sent: Headers[] = [];
    const client = new ControlPlaneClient({
      baseUrl: 'http://cp.example.com',
      apiKey: API_KEY,
      mask: () => undefined,
      http: {
        clock,
        deadline: new Deadline(clock, clock.now() + 10 * 1000),
        logger: captureLogger(),
        fetchImpl: async (_url, init) => {
          sent.push(new Headers(init?.headers));
          return new Response('{"detail": "Not authenticated"}', { status: 401 });
        },
      },
    });
    await expect(client.getDeployment('d-1')).rejects.toThrow(/HTTP 401/);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.has('x-api-key')).toBe(false);
  });

  it('queries revisions with the given parameters, and logs by POST to the CLI endpoints', async () => {
    const t = await setup((req, res) => {
      if (pathOf(req.url!).endsWith('_logs')) {
        return sendJson(res, 200, {
          logs: [{ id: 'l1', timestamp: 1767225600000, level: 'INFO', message: 'step 1' }],
          next_offset: 'cursor-2',
        });
      }
      return sendJson(res, 200, { resources: [revision], offset: 1 });
    });
    const list = await t.client.listRevisions('d-1', { limit: 5, offset: 0 });
    expect(list.resources[0]?.id).toBe('r-1');
    const logs = await t.client.getRevisionLogs('d-1', 'r-1', 'build', {
      order: 'asc',
      limit: 50,
      offset: 'cursor-1',
    });
    expect(logs?.logs).toHaveLength(1);
    expect(logs?.next_offset).toBe('cursor-2');
    await t.client.getRevisionLogs('d-1', 'r-1', 'deploy', { order: 'desc', limit: 30 });
    expect(queryOf(t.server.requests[0]!.url)).toEqual({ limit: '5', offset: '0' });
    const [, build, deploy] = t.server.requests;
    expect(build!.method).toBe('POST');
    expect(pathOf(build!.url)).toBe('/api-host/v1/projects/d-1/revisions/r-1/build_logs');
    expect(queryOf(build!.url)).toEqual({});
    expect(JSON.parse(build!.body)).toEqual({ order: 'asc', limit: 50, offset: 'cursor-1' });
    expect(build!.headers['x-api-key']).toBe(API_KEY);
    expect(deploy!.method).toBe('POST');
    expect(pathOf(deploy!.url)).toBe('/api-host/v1/projects/d-1/revisions/r-1/deploy_logs');
    expect(JSON.parse(deploy!.body)).toEqual({ order: 'desc', limit: 30 });
    t.done();
  });

  it.each([404, 405])('getRevisionLogs answers undefined on %i', async (status) => {
    const t = await setup((_req, res) => sendJson(res, status, { detail: 'Not Found' }));
    await expect(
      t.client.getRevisionLogs('d-1', 'r-1', 'deploy', { order: 'desc', limit: 50 }),
    ).resolves.toBe(undefined);
    expect(t.server.requests).toHaveLength(1);
    t.done();
  });
});

describe('secrets in responses', () => {
  it('masks every secret value of a fetched deployment before returning it', async () => {
    const t = await setup((_req, res) => sendJson(res, 200, deployment()));
    const d = await t.client.getDeployment('d-1');
    expect(d.secrets.map((s) => s.value)).toEqual([SECRET_A, SECRET_B]);
    expect(t.masked).toEqual(expect.arrayContaining([SECRET_A, SECRET_B]));
    t.done();
  });

  it('masks an issued push token or upload URL at once, and retries asking for one like a read', async () => {
    const token = 'push-token-value-0123456789';
    const t = await setup((req, res, n) => {
      if (n === 1) return sendJson(res, 503, { detail: 'busy' });
      if (req.url?.endsWith('/push-token')) {
        return sendJson(res, 200, { token, registry_url: 'reg.io/x/tenant' });
      }
      sendJson(res, 200, { upload_url: 'https://storage/x?sig=1', object_path: 'o/x.tgz' });
    });
    expect(await t.client.requestPushToken('d-1')).toEqual({
      token,
      registry_url: 'reg.io/x/tenant',
    });
    await t.client.requestUploadUrl('d-1');
    expect(t.masked).toEqual([API_KEY, token, 'https://storage/x?sig=1']);
    expect(t.server.requests.map((r) => [r.method, pathOf(r.url)])).toEqual([
      ['POST', '/api-host/v2/deployments/d-1/push-token'],
      ['POST', '/api-host/v2/deployments/d-1/push-token'],
      ['POST', '/api-host/v2/deployments/d-1/upload-url'],
    ]);
    t.done();
  });

  it.each(['--username=evil/x', '/tenant', 'https:///tenant', '-p/x', 'https://', ''])(
    'refuses a push token whose registry_url %p names no registry host (docker login would take it as a flag, or log in to Docker Hub with the token)',
    async (registryUrl) => {
      const t = await setup((_req, res) =>
        sendJson(res, 200, { token: 'push-token-value-1', registry_url: registryUrl }),
      );
      await expect(t.client.requestPushToken('d-1')).rejects.toThrow(/registry_url/);
      t.done();
    },
  );

  it('masks the credentials of URLs in a deployment as soon as it arrives', async () => {
    const t = await setup((_req, res) =>
      sendJson(
        res,
        200,
        deployment({
          source_config: {
            repo_url: 'https://x-token:ghp_repoToken123@github.com/o/r',
            custom_url: 'https://agent:Agent-Pass-9@agent.example',
          },
        }),
      ),
    );
    await t.client.getDeployment('d-1');
    expect(t.masked).toEqual(
      expect.arrayContaining(['ghp_repoToken123', 'Agent-Pass-9', 'agent:Agent-Pass-9']),
    );
    t.done();
  });

  it('masks the secrets of every listed, created and patched deployment', async () => {
    const t = await setup((req, res) => {
      if (req.method === 'GET') {
        return sendJson(res, 200, {
          resources: [
            deployment({ id: 'd-1', name: 'other', secrets: [{ name: 'A', value: 'list-one' }] }),
            deployment({ id: 'd-2', name: 'app', secrets: [{ name: 'B', value: 'list-two' }] }),
          ],
          offset: 2,
        });
      }
      if (req.method === 'POST') {
        return sendJson(res, 201, deployment({ secrets: [{ name: 'C', value: 'created' }] }));
      }
      return sendJson(res, 200, deployment({ secrets: [{ name: 'D', value: 'patched' }] }));
    });
    await t.client.listDeployments({ nameContains: 'app' });
    await t.client.createDeployment({
      name: 'app',
      source: 'github',
      source_config: {},
      source_revision_config: {},
      secrets: [],
    });
    await t.client.patchDeployment('d-2', { secrets: [] });
    expect(t.masked).toEqual(
      expect.arrayContaining(['list-one', 'list-two', 'created', 'patched']),
    );
    t.done();
  });

  it('masks secrets even when the response fails validation, and the error shows no values', async () => {
    const t = await setup((_req, res) =>
      sendJson(res, 200, { ...deployment(), name: undefined, latest_revision_id: 42 }),
    );
    const err = await t.failure(() => t.client.getDeployment('d-1'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toContain('Unexpected response from GET deployment d-1');
    expect(err.message).toContain('name: missing (expected string)');
    expect(err.message).toContain('latest_revision_id: expected');
    expect(err.message).not.toContain(SECRET_A);
    expect(err.message).not.toContain('OPENAI_API_KEY'); // no body dump
    expect(t.masked).toEqual(expect.arrayContaining([SECRET_A, SECRET_B]));
  });

  it('with the default mask, a value echoed later in an error detail is redacted', async () => {
    const t = await setup(
      (req, res) =>
        req.method === 'GET'
          ? sendJson(res, 200, deployment())
          : sendJson(res, 400, { detail: `secret ${SECRET_A} is invalid; key ${API_KEY}` }),
      { defaultMask: true },
    );
    await t.client.getDeployment('d-1');
    const err = await t.failure(() => t.client.patchDeployment('d-1', {}));
    expect(err.message).toContain('secret *** is invalid');
    expect(err.message).not.toContain(SECRET_A);
    expect(err.message).not.toContain(API_KEY);
  });
});

describe('error advice', () => {
  it('401 points at the api-key secret', async () => {
    const t = await setup((_req, res) => sendJson(res, 401, { detail: 'Invalid token' }));
    const err = (await t.failure(() => t.client.getDeployment('d-1'))) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(401);
    expect(err.message).toContain('`api-key`');
    expect(err.message).toContain('LangSmith API key');
    expect(t.server.requests).toHaveLength(1);
  });

  it('403 without workspace-id suggests it, with the server detail', async () => {
    const t = await setup((_req, res) => sendJson(res, 403, { detail: 'Tenant required' }));
    const err = await t.failure(() => t.client.listDeployments({}));
    expect(err.message).toContain('Tenant required');
    expect(err.message).toContain('`workspace-id`');
    expect(err.message).toContain('X-Tenant-Id');
  });

  it('403 with workspace-id names the workspace and the permission', async () => {
    const t = await setup((_req, res) => sendJson(res, 403, { detail: 'Forbidden' }), {
      workspaceId: 'ws-42',
    });
    const err = await t.failure(() => t.client.listDeployments({}));
    expect(err.message).toContain('ws-42');
    expect(err.message).toContain('permission');
  });

  it('403 "not enabled" says LangSmith Deployment needs the Plus plan or an admin (v1.3)', async () => {
    const detail = 'LangSmith Deployment is not enabled for this organization.';
    const t = await setup((_req, res) => sendJson(res, 403, { detail }));
    const err = (await t.failure(() => t.client.listDeployments({}))) as ApiError;
    expect(err.title).toBe('LangSmith Deployment not enabled');
    expect(err.message).toContain(detail.replace(/\.$/, ''));
    expect(err.message).toMatch(/Plus plan or above/);
    expect(err.message).toMatch(/admin/);
    expect(err.message).not.toContain('X-Tenant-Id');
  });

  it.each([undefined, '3fa85f64-5717-4562-b3fc-2c963f66afa6'])(
    '403 asking for a workspace names workspace-id (workspace-id %s)',
    async (workspaceId) => {
      const detail = 'This API key requires workspace specification: set the X-Tenant-Id header.';
      const t = await setup(
        (_req, res) => sendJson(res, 403, { detail }),
        workspaceId ? { workspaceId } : {},
      );
      const err = (await t.failure(() => t.client.listDeployments({}))) as ApiError;
      expect(err.title).toBe('Workspace needed');
      expect(err.message).toMatch(/organization-scoped/);
      expect(err.message).toMatch(/input `workspace-id`/);
      expect(err.message).toContain('Settings → Workspaces');
      if (workspaceId) expect(err.message).toContain(workspaceId);
    },
  );

  it('404 names the deployment or revision that does not exist', async () => {
    const t = await setup((_req, res) => sendJson(res, 404, { detail: 'Not Found' }));
    const a = (await t.failure(() => t.client.getDeployment('d-404'))) as ApiError;
    expect(a.status).toBe(404);
    expect(a.message).toContain('Deployment d-404 does not exist');
    expect(a.message).toContain('`deployment-id`');
    const b = await t.failure(() => t.client.patchDeployment('d-405', {}));
    expect(b.message).toContain('Deployment d-405 does not exist');
    const c = await t.failure(() => t.client.getRevision('d-1', 'r-404'));
    expect(c.message).toContain('Revision r-404 of deployment d-1 does not exist');
  });

  it('400 and 409 carry the server detail', async () => {
    const t = await setup((_req, res, n) =>
      sendJson(res, n === 1 ? 400 : 409, { detail: `name conflict #${n}` }),
    );
    const body = {
      name: 'app',
      source: 'github' as const,
      source_config: {},
      source_revision_config: {},
      secrets: [],
    };
    const a = (await t.failure(() => t.client.createDeployment(body))) as ApiError;
    expect(a.status).toBe(400);
    expect(a.message).toContain('name conflict #1');
    const b = (await t.failure(() => t.client.createDeployment(body))) as ApiError;
    expect(b.status).toBe(409);
    expect(b.message).toContain('name conflict #2');
  });

  it('422 is rendered field by field, without the echoed input', async () => {
    const t = await setup((_req, res) =>
      sendJson(res, 422, {
        detail: [
          {
            loc: ['body', 'source_config', 'integration_id'],
            msg: 'Field required',
            type: 'missing',
            input: { repo_url: 'x', token: 'input-echo-one' },
          },
          {
            loc: ['body', 'secrets', 0, 'value'],
            msg: 'String should have at most 10 characters',
            type: 'string_too_long',
            input: 'input-echo-two',
            ctx: { max_length: 10 },
          },
          { loc: ['query', 'limit'], msg: 'Input should be less than 101', type: 'x', input: 500 },
          { loc: ['body', 'source_config', 'install_command'], msg: 'Too long', type: 'x' },
          {
            loc: ['body', 'source_revision_config', 'langgraph_config_path'],
            msg: 'Bad',
            type: 'x',
          },
        ],
      }),
    );
    const err = (await t.failure(() =>
      t.client.createDeployment({
        name: 'app',
        source: 'github',
        source_config: {},
        source_revision_config: {},
        secrets: [],
      }),
    )) as ApiError;
    expect(err.status).toBe(422);
    expect(err.message).toContain('source_config.integration_id: Field required');
    expect(err.message).toContain('`integration-id`');
    expect(err.message).toContain('secrets.0.value: String should have at most 10 characters');
    expect(err.message).toContain('limit: Input should be less than 101\n');
    expect(err.message).toContain(
      'source_config.install_command: Too long (input `install-command`)',
    );
    expect(err.message).toContain(': Bad (input `config-path`)');
    expect(err.message).not.toContain('body.');
    expect(err.message).not.toContain('input-echo');
    expect(err.message).not.toContain('500');
  });

  it('429 after the retries gives rate-limit advice', async () => {
    const t = await setup((_req, res) => sendJson(res, 429, {}, { 'retry-after': '1' }));
    const err = (await t.failure(() => t.client.getDeployment('d-1'))) as ApiError;
    expect(t.server.requests).toHaveLength(5);
    expect(err.status).toBe(429);
    expect(err.message).toMatch(/rate limit/);
    expect(err.message).toContain('5 attempts');
  });

  it('5xx after the retries names the status and the platform', async () => {
    const t = await setup((_req, res) => sendJson(res, 503, { detail: 'upstream down' }));
    const err = (await t.failure(() => t.client.getDeployment('d-1'))) as ApiError;
    expect(t.server.requests).toHaveLength(5);
    expect(err.status).toBe(503);
    expect(err.message).toContain('HTTP 503');
    expect(err.message).toMatch(/platform may be having trouble/);
    expect(err.message).toContain('status.smith.langchain.com');
  });

  it.each([
    ['application/json', '{"id": "d-1", '],
    ['text/html', '<html>sign in</html>'],
  ])(
    'malformed JSON (%s) is an invalid-response ApiError, not a SyntaxError',
    async (type, body) => {
      const t = await setup((_req, res) => {
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      });
      const err = await t.failure(() => t.client.getDeployment('d-1'));
      expect(err).toBeInstanceOf(ApiError);
      expect(err).not.toBeInstanceOf(SyntaxError);
      expect(err.message).toMatch(/invalid response/i);
      expect(err.message).toContain('GET deployment d-1');
      expect(err.message).not.toContain(body);
    },
  );
});

describe('create and patch with unknown outcome', () => {
  const body = {
    name: 'app',
    source: 'github' as const,
    source_config: {},
    source_revision_config: {},
    secrets: [],
  };

  it('a 503 answer to the create is OutcomeUnknownError, sent once', async () => {
    const t = await setup((_req, res) => sendJson(res, 503, {}));
    const err = await t.failure(() => t.client.createDeployment(body));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(t.server.requests).toHaveLength(1);
  });

  it('a reset during the patch is OutcomeUnknownError, sent once', async () => {
    const t = await setup((req) => req.socket.destroy());
    const err = await t.failure(() => t.client.patchDeployment('d-1', { secrets: [] }));
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(t.server.requests).toHaveLength(1);
  });
});

describe('deleteDeployment', () => {
  it('204 → deleted, with delete_tracing_project in the query', async () => {
    const t = await setup((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    await expect(t.client.deleteDeployment('d-1', { deleteTracingProject: true })).resolves.toBe(
      'deleted',
    );
    const r = t.server.requests[0]!;
    expect(r.method).toBe('DELETE');
    expect(pathOf(r.url)).toBe('/api-host/v2/deployments/d-1');
    expect(queryOf(r.url)).toEqual({ delete_tracing_project: 'true' });
    t.done();
  });

  it('404 on the first attempt → not_found', async () => {
    const t = await setup((_req, res) => sendJson(res, 404, { detail: 'Not Found' }));
    await expect(t.client.deleteDeployment('d-1', { deleteTracingProject: false })).resolves.toBe(
      'not_found',
    );
    expect(t.server.requests).toHaveLength(1);
    t.done();
  });

  it('404 after a reset attempt → deleted', async () => {
    const t = await setup((req, res, n) =>
      n === 1 ? req.socket.destroy() : sendJson(res, 404, { detail: 'Not Found' }),
    );
    await expect(t.client.deleteDeployment('d-1', { deleteTracingProject: false })).resolves.toBe(
      'deleted',
    );
    expect(t.server.requests).toHaveLength(2);
    t.done();
  });

  it('404 after a 502 attempt → deleted; after a 429 → not_found', async () => {
    const a = await setup((_req, res, n) =>
      n === 1 ? sendJson(res, 502, {}) : sendJson(res, 404, {}),
    );
    await expect(a.client.deleteDeployment('d-1', { deleteTracingProject: false })).resolves.toBe(
      'deleted',
    );
    const b = await setup((_req, res, n) =>
      n === 1 ? sendJson(res, 429, {}) : sendJson(res, 404, {}),
    );
    await expect(b.client.deleteDeployment('d-1', { deleteTracingProject: false })).resolves.toBe(
      'not_found',
    );
    a.done();
    b.done();
  });

  it('other statuses are errors', async () => {
    const t = await setup((_req, res) => sendJson(res, 403, { detail: 'nope' }));
    const err = await t.failure(() =>
      t.client.deleteDeployment('d-1', { deleteTracingProject: false }),
    );
    expect((err as ApiError).status).toBe(403);
  });
});

describe('findDeploymentByName', () => {
  /** Serves `names` in pages, answering offset + count as the next offset. */
  function pager(names: string[], nextOffset?: (offset: number, count: number) => number): Handler {
    return (req, res) => {
      const q = queryOf(req.url!);
      const limit = Number(q['limit']);
      const offset = Number(q['offset'] ?? 0);
      const page = names.slice(offset, offset + limit);
      sendJson(res, 200, {
        resources: page.map((name, i) => deployment({ id: `id-${name}-${offset + i}`, name })),
        offset: nextOffset ? nextOffset(offset, page.length) : offset + page.length,
      });
    };
  }

  it('matches the whole name only, among near-name neighbours', async () => {
    const t = await setup(pager(['app-pr-12', 'app-pr-10', 'app-pr-1', 'app-pr-100']));
    const d = await t.client.findDeploymentByName('app-pr-1');
    expect(d?.name).toBe('app-pr-1');
    expect(d?.id).toBe('id-app-pr-1-2');
    expect(queryOf(t.server.requests[0]!.url)).toEqual({
      name_contains: 'app-pr-1',
      limit: '100',
      offset: '0',
    });
    const none = await t.client.findDeploymentByName('app-pr');
    expect(none).toBeUndefined();
    t.done();
  });

  it('follows pages to a match on page 3, and reads to the end (a twin may come later)', async () => {
    const t = await setup(pager(['x-a', 'x-b', 'x-c', 'x-d', 'x', 'x-e']), { pageLimit: 2 });
    const d = await t.client.findDeploymentByName('x');
    expect(d?.name).toBe('x');
    expect(t.server.requests.map((r) => queryOf(r.url)['offset'])).toEqual(['0', '2', '4', '6']);
    t.done();
  });

  it('two deployments with the exact name: an error naming both IDs', async () => {
    const t = await setup(pager(['x', 'x-a', 'x']), { pageLimit: 2 });
    const error = await t.client.findDeploymentByName('x').then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/2 deployments are named 'x'/);
    expect(error?.message).toContain('id-x-0');
    expect(error?.message).toContain('id-x-2');
    t.done();
  });

  it('stops at a short page', async () => {
    const t = await setup(pager(['x-a', 'x-b', 'x-c']), { pageLimit: 2 });
    await expect(t.client.findDeploymentByName('x')).resolves.toBeUndefined();
    expect(t.server.requests).toHaveLength(2);
    t.done();
  });

  it('stops at an empty page', async () => {
    const t = await setup(pager(['x-a', 'x-b']), { pageLimit: 2 });
    await expect(t.client.findDeploymentByName('x')).resolves.toBeUndefined();
    expect(t.server.requests).toHaveLength(2);
    t.done();
  });

  it('stops when the returned offset does not advance', async () => {
    const t = await setup(
      pager(['x-a', 'x-b', 'x-c', 'x'], (offset) => offset),
      { pageLimit: 2 },
    );
    await expect(t.client.findDeploymentByName('x')).resolves.toBeUndefined();
    expect(t.server.requests).toHaveLength(1);
    t.done();
  });

  it('fails after 50 full pages without an end', async () => {
    const names = Array.from({ length: 200 }, (_v, i) => `x-${i}`);
    const t = await setup(pager(names), { pageLimit: 2 });
    const err = await t.failure(() => t.client.findDeploymentByName('x'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.message).toContain('50 pages');
    expect(err.message).toContain('"x"');
    expect(t.server.requests).toHaveLength(50);
  });
});

describe('logs', () => {
  it('never contain the API key, even across retries and failures', async () => {
    const t = await setup((req, res, n) => {
      if (n === 1) return req.socket.destroy();
      if (n === 2) return sendJson(res, 503, { detail: API_KEY });
      return sendJson(res, 200, deployment());
    });
    await t.client.getDeployment('d-1');
    expect(t.logger.lines.length).toBeGreaterThan(0);
    for (const line of t.logger.lines) expect(line).not.toContain(API_KEY);
    t.done();
  });
});

describe('createRevision (POST /v2/deployments/{id}/revisions)', () => {
  const revision = {
    id: 'r-9',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    status: 'QUEUED',
    source: 'github',
    source_revision_config: { repo_ref: 'main' },
  };

  it('posts the body and answers the created revision', async () => {
    const t = await setup((_req, res) => sendJson(res, 201, revision));
    const body = { source_revision_config: { repo_ref: 'main' } };
    await expect(t.client.createRevision('d-1', body)).resolves.toMatchObject({ id: 'r-9' });
    const r = t.server.requests[0]!;
    expect([r.method, pathOf(r.url), JSON.parse(r.body)]).toEqual([
      'POST',
      '/api-host/v2/deployments/d-1/revisions',
      body,
    ]);
    t.done();
  });

  it.each([404, 405])('gives back %i (no such endpoint: the caller PATCHes)', async (status) => {
    const t = await setup((_req, res) => sendJson(res, status, { detail: 'Not Found' }));
    await expect(t.client.createRevision('d-1', { source_revision_config: {} })).resolves.toBe(
      status,
    );
    t.done();
  });

  it('a 503 answer is OutcomeUnknownError, sent once (the caller looks it up)', async () => {
    const t = await setup((_req, res) => sendJson(res, 503, {}));
    const err = await t.failure(() =>
      t.client.createRevision('d-1', { source_revision_config: {} }),
    );
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(t.server.requests).toHaveLength(1);
  });
});

describe('interruptRevision', () => {
  it('calls …/interrupt (the API reference’s path) and stops there when it answers', async () => {
    const t = await setup((_req, res) => sendJson(res, 200, {}));
    await expect(t.client.interruptRevision('d-1', 'r-1')).resolves.toBe('interrupted');
    expect(t.server.requests.map((r) => pathOf(r.url))).toEqual([
      '/api-host/v2/deployments/d-1/revisions/r-1/interrupt',
    ]);
    t.done();
  });

  it('asks …/interruption once when …/interrupt answers 404', async () => {
    const t = await setup((req, res) =>
      req.url!.endsWith('/interrupt') ? sendJson(res, 404, {}) : sendJson(res, 409, {}),
    );
    await expect(t.client.interruptRevision('d-1', 'r-1')).resolves.toBe(409);
    expect(t.server.requests.map((r) => pathOf(r.url).split('/').at(-1))).toEqual([
      'interrupt',
      'interruption',
    ]);
    t.done();
  });

  it('404 on both: 404, after two calls', async () => {
    const t = await setup((_req, res) => sendJson(res, 404, {}));
    await expect(t.client.interruptRevision('d-1', 'r-1')).resolves.toBe(404);
    expect(t.server.requests).toHaveLength(2);
    t.done();
  });
});
