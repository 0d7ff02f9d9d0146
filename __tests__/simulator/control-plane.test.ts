import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { call, dockerCreate, githubCreate, INTEGRATION_ID, pollUntil } from './helpers.js';

interface Dep {
  id: string;
  name: string;
  status: string;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  source_config: Record<string, unknown>;
  source_revision_config: Record<string, unknown>;
  secrets: { name: string; value: string }[];
  [key: string]: unknown;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LONG = [
  { status: 'QUEUED', durationMs: 60_000 },
  { status: 'DEPLOYED', durationMs: 0 },
];

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ apiKeys: ['key-a', 'key-b'], timeline: LONG });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function create(body: unknown): Promise<Dep> {
  const answer = await call(sim, 'POST', '/v2/deployments', { body });
  expect(answer.status).toBe(201);
  return answer.body as Dep;
}

describe('authentication', () => {
  it('answers 401 without a key or with an unknown key, before routing', async () => {
    for (const key of [null, 'wrong']) {
      const list = await call(sim, 'GET', '/v2/deployments', { key });
      expect(list).toMatchObject({ status: 401, body: { detail: 'Invalid API key' } });
      const missing = await call(sim, 'GET', '/v2/deployments/nope', { key });
      expect(missing.status).toBe(401);
      const agent = await call(sim, 'GET', '/agents/nope/ok', { key });
      expect(agent.status).toBe(401);
    }
    expect(sim.requests.map((r) => r.hasApiKey)).toEqual([false, false, false, true, true, true]);
  });

  it('accepts every configured key', async () => {
    expect((await call(sim, 'GET', '/v2/deployments', { key: 'key-b' })).status).toBe(200);
    expect(sim.apiKey).toBe('key-a');
  });

  it('answers 403 without X-Tenant-Id when the key requires a workspace', async () => {
    const strict = await startSimulator({ requireTenant: true });
    try {
      const without = await call(strict, 'GET', '/v2/deployments');
      expect(without).toMatchObject({
        status: 403,
        body: {
          detail: 'This API key requires workspace specification: set the X-Tenant-Id header.',
        },
      });
      const tenant = '11111111-2222-4333-8444-555555555555';
      const withTenant = await call(strict, 'GET', '/v2/deployments', { tenant });
      expect(withTenant.status).toBe(200);
      expect(strict.requests.map((r) => r.tenant)).toEqual([undefined, tenant]);
    } finally {
      await strict.close();
    }
  });
});

describe('GET /v2/deployments', () => {
  it('filters by name_contains and pages in creation order with the next offset', async () => {
    for (const name of ['alpha', 'beta', 'alpha-2', 'gamma-alpha'])
      await create(githubCreate(name));
    const all = await call(sim, 'GET', '/v2/deployments');
    expect((all.body as { resources: Dep[] }).resources.map((d) => d.name)).toEqual([
      'alpha',
      'beta',
      'alpha-2',
      'gamma-alpha',
    ]);
    const first = await call(sim, 'GET', '/v2/deployments?name_contains=alpha&limit=2');
    expect(first.body).toMatchObject({ offset: 2 });
    expect((first.body as { resources: Dep[] }).resources.map((d) => d.name)).toEqual([
      'alpha',
      'alpha-2',
    ]);
    const second = await call(sim, 'GET', '/v2/deployments?name_contains=alpha&limit=2&offset=2');
    expect(second.body).toMatchObject({ offset: 3 });
    expect((second.body as { resources: Dep[] }).resources.map((d) => d.name)).toEqual([
      'gamma-alpha',
    ]);
    const empty = await call(sim, 'GET', '/v2/deployments?name_contains=alpha&offset=3');
    expect(empty.body).toEqual({ resources: [], offset: 3 });
  });

  it('answers 422 for a limit out of range or not an integer, and a negative offset', async () => {
    for (const limit of ['0', '101', 'ten', '2.5']) {
      const answer = await call(sim, 'GET', `/v2/deployments?limit=${limit}`);
      expect(answer.status).toBe(422);
      const detail = (answer.body as { detail: { loc: unknown; msg: string; type: string }[] })
        .detail;
      expect(detail).toHaveLength(1);
      expect(detail[0]).toMatchObject({ loc: ['query', 'limit'] });
      expect(typeof detail[0]!.msg).toBe('string');
    }
    const offset = await call(sim, 'GET', '/v2/deployments?offset=-1');
    expect(offset.body).toMatchObject({ detail: [{ loc: ['query', 'offset'] }] });
    expect((await call(sim, 'GET', '/v2/deployments?limit=100')).status).toBe(200);
  });
});

describe('POST /v2/deployments', () => {
  it('creates a github deployment with every required field and its first revision', async () => {
    const dep = await create(githubCreate('my-agent'));
    expect(dep.id).toMatch(UUID);
    expect(dep.tenant_id).toMatch(UUID);
    expect(dep).toMatchObject({
      name: 'my-agent',
      source: 'github',
      status: 'READY',
      active_revision_id: null,
      secrets: [{ name: 'OPENAI_API_KEY', value: 'sk-test-value' }],
      source_config: {
        integration_id: INTEGRATION_ID,
        repo_url: 'https://github.com/acme/agent',
        // As on LangSmith Cloud: no custom_url, the URL is the top-level `url`.
        custom_url: null,
      },
      url: sim.agentUrl(dep.id as string),
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
    });
    expect(Number.isNaN(Date.parse(dep.created_at as string))).toBe(false);
    expect(Number.isNaN(Date.parse(dep.updated_at as string))).toBe(false);
    const revisions = sim.revisions(dep.id);
    expect(revisions).toHaveLength(1);
    expect(dep.latest_revision_id).toBe(revisions[0]!.id);
    expect(sim.deployments().map((d) => d.id)).toEqual([dep.id]);
  });

  it('keeps the custom_url an external_docker request gives, or null', async () => {
    const withUrl = await create(dockerCreate('docker-a'));
    expect(withUrl.source_config.custom_url).toBe('https://agent.example.com');
    expect(withUrl.source_revision_config.image_uri).toBe('registry.example.com/agent:1');
    const withoutUrl = await create(dockerCreate('docker-b', { source_config: {} }));
    expect(withoutUrl.source_config.custom_url).toBeNull();
  });

  it('reports every field error at once as HTTPValidationError', async () => {
    const answer = await call(sim, 'POST', '/v2/deployments', {
      body: { name: 'Bad_Name', source: 'github', source_config: {}, source_revision_config: {} },
    });
    expect(answer.status).toBe(422);
    const locs = (answer.body as { detail: { loc: string[]; type: string }[] }).detail.map((d) =>
      d.loc.join('.'),
    );
    expect(locs.sort()).toEqual(
      [
        'body.name',
        'body.secrets',
        'body.source_config.integration_id',
        'body.source_config.repo_url',
        'body.source_revision_config.langgraph_config_path',
        'body.source_revision_config.repo_ref',
      ].sort(),
    );
    const missing = (answer.body as { detail: { loc: string[]; type: string; msg: string }[] })
      .detail[1];
    expect(missing).toEqual({ loc: ['body', 'secrets'], msg: 'Field required', type: 'missing' });
    expect(sim.deployments()).toEqual([]);
  });

  it('refuses an unknown source, a missing image_uri and fields of the other source', async () => {
    const source = await call(sim, 'POST', '/v2/deployments', {
      body: { ...githubCreate('x'), source: 'bitbucket' },
    });
    expect(source.body).toMatchObject({ detail: [{ loc: ['body', 'source'], type: 'enum' }] });
    const image = await call(sim, 'POST', '/v2/deployments', {
      body: dockerCreate('x', { source_revision_config: {} }),
    });
    expect(image.body).toMatchObject({
      detail: [{ loc: ['body', 'source_revision_config', 'image_uri'], type: 'missing' }],
    });
    const foreign = await call(sim, 'POST', '/v2/deployments', {
      body: dockerCreate('x', {
        source_revision_config: { image_uri: 'i', langgraph_config_path: 'langgraph.json' },
      }),
    });
    expect(foreign.body).toMatchObject({
      detail: [{ loc: ['body', 'source_revision_config', 'langgraph_config_path'] }],
    });
    const notJson = await call(sim, 'POST', '/v2/deployments', { body: '{"name":' });
    expect(notJson.body).toMatchObject({ detail: [{ type: 'json_invalid' }] });
  });

  it('refuses build_on_push with a tag ref (400) and a taken name (409)', async () => {
    const tag = await call(sim, 'POST', '/v2/deployments', {
      body: githubCreate('tagged', {
        source_config: {
          integration_id: INTEGRATION_ID,
          repo_url: 'https://github.com/acme/agent',
          build_on_push: true,
        },
        source_revision_config: { repo_ref: 'refs/tags/v1', langgraph_config_path: 'l.json' },
      }),
    });
    expect(tag.status).toBe(400);
    expect(typeof (tag.body as { detail: unknown }).detail).toBe('string');
    await create(githubCreate('taken'));
    const again = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('taken') });
    expect(again).toMatchObject({
      status: 409,
      body: { detail: "Deployment with name 'taken' already exists." },
    });
    expect(sim.deployments()).toHaveLength(1);
  });
});

describe('GET, PATCH and DELETE /v2/deployments/{id}', () => {
  it('answers 404 with the platform detail for an unknown ID', async () => {
    const id = '00000000-0000-4000-8000-000000000404';
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const answer = await call(sim, method, `/v2/deployments/${id}`, {
        body: method === 'PATCH' ? {} : undefined,
      });
      expect(answer).toMatchObject({
        status: 404,
        body: { detail: `Deployment ID ${id} not found.` },
      });
    }
  });

  it('PATCH with a new ref creates a revision; without revision fields it does not', async () => {
    const dep = await create(githubCreate('patched'));
    const bump = await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
      body: { source_revision_config: { repo_ref: 'feature' } },
    });
    expect(bump.status).toBe(200);
    const after = bump.body as Dep;
    expect(after.latest_revision_id).not.toBe(dep.latest_revision_id);
    expect(after.source_revision_config).toMatchObject({
      repo_ref: 'feature',
      langgraph_config_path: 'langgraph.json',
    });
    expect(sim.revisions(dep.id).map((r) => r.id)).toEqual([
      after.latest_revision_id,
      dep.latest_revision_id,
    ]);
    const noop = await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
      body: { source_revision_config: { repo_ref: null } },
    });
    expect((noop.body as Dep).latest_revision_id).toBe(after.latest_revision_id);
    const secrets = await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
      body: { secrets: [{ name: 'NEW', value: 'v' }] },
    });
    expect((secrets.body as Dep).secrets).toEqual([{ name: 'NEW', value: 'v' }]);
    expect(sim.revisions(dep.id)).toHaveLength(3);
  });

  it('PATCH refuses fields that cannot change (400) and bad types (422)', async () => {
    const dep = await create(githubCreate('fixed'));
    for (const source_config of [
      { integration_id: INTEGRATION_ID },
      { repo_url: 'https://github.com/acme/other' },
      { deployment_type: 'prod' },
    ]) {
      const answer = await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
        body: { source_config },
      });
      expect(answer.status).toBe(400);
      expect((answer.body as { detail: string }).detail).toContain(Object.keys(source_config)[0]);
    }
    const docker = await create(dockerCreate('fixed-docker'));
    const listener = await call(sim, 'PATCH', `/v2/deployments/${docker.id}`, {
      body: { source_config: { listener_id: INTEGRATION_ID } },
    });
    expect(listener.status).toBe(400);
    const types = await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
      body: { secrets: 'A=b' },
    });
    expect(types.body).toMatchObject({ detail: [{ loc: ['body', 'secrets'], type: 'list_type' }] });
    expect(sim.revisions(dep.id)).toHaveLength(1);
  });

  it('PATCH of an external_docker deployment takes image_uri and resource_spec', async () => {
    const dep = await create(dockerCreate('docker-patch'));
    const answer = await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
      body: {
        source_config: { resource_spec: { min_scale: 2 } },
        source_revision_config: { image_uri: 'registry.example.com/agent:2' },
      },
    });
    expect(answer.body).toMatchObject({
      source_config: { resource_spec: { min_scale: 2 } },
      source_revision_config: { image_uri: 'registry.example.com/agent:2' },
    });
    expect(sim.revisions(dep.id)).toHaveLength(2);
  });

  it('DELETE answers 204, records the tracing-project flag, and the deployment is gone', async () => {
    const dep = await create(githubCreate('doomed'));
    const answer = await call(
      sim,
      'DELETE',
      `/v2/deployments/${dep.id}?delete_tracing_project=true`,
    );
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(sim.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: `/v2/deployments/${dep.id}`,
      query: { delete_tracing_project: 'true' },
      status: 204,
    });
    expect((await call(sim, 'GET', `/v2/deployments/${dep.id}`)).status).toBe(404);
    expect((await call(sim, 'DELETE', `/v2/deployments/${dep.id}`)).status).toBe(404);
  });
});

describe('revisions and logs', () => {
  it('lists revisions newest first with paging and 404s an unknown revision', async () => {
    const dep = await create(githubCreate('revs'));
    for (const ref of ['b', 'c']) {
      await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
        body: { source_revision_config: { repo_ref: ref } },
      });
    }
    const page = await call(sim, 'GET', `/v2/deployments/${dep.id}/revisions?limit=2`);
    const resources = (
      page.body as { resources: { source_revision_config: { repo_ref: string } }[] }
    ).resources;
    expect(resources.map((r) => r.source_revision_config.repo_ref)).toEqual(['c', 'b']);
    expect(page.body).toMatchObject({ offset: 2 });
    const rest = await call(sim, 'GET', `/v2/deployments/${dep.id}/revisions?limit=2&offset=2`);
    expect(rest.body).toMatchObject({ resources: [{ id: dep.latest_revision_id }], offset: 3 });
    const one = await call(
      sim,
      'GET',
      `/v2/deployments/${dep.id}/revisions/${dep.latest_revision_id}`,
    );
    expect(one.body).toMatchObject({ id: dep.latest_revision_id, source: 'github' });
    const unknown = '00000000-0000-4000-8000-0000000000ff';
    const missing = await call(sim, 'GET', `/v2/deployments/${dep.id}/revisions/${unknown}`);
    expect(missing).toMatchObject({
      status: 404,
      body: { detail: `Revision ID ${unknown} not found.` },
    });
    expect((await call(sim, 'GET', `/v2/deployments/${dep.id}/revisions?limit=0`)).status).toBe(
      422,
    );
  });

  const logsPath = (id: string, rev: string, kind: 'build' | 'deploy') =>
    `/v1/projects/${id}/revisions/${rev}/${kind}_logs`;
  type Entry = { id: string; message: string; level: string; timestamp: number | string };

  it('serves build logs by POST /v1/projects/…/build_logs, paged by cursor in either order', async () => {
    const seeded = sim.seedDeployment({ name: 'broken', revisions: [{ status: 'BUILD_FAILED' }] });
    const rev = sim.revisions(seeded.id)[0]!.id;
    const path = logsPath(seeded.id, rev, 'build');
    const all = await call(sim, 'POST', path, { body: { order: 'asc', limit: 1000 } });
    expect(all.status).toBe(200);
    const logs = (all.body as { logs: Entry[] }).logs;
    expect(logs.at(-1)).toMatchObject({ level: 'ERROR' });
    expect(logs.at(-1)!.message).toContain('failed to solve');
    // The CLI's shape: an id per entry, epoch-millisecond timestamps for build logs.
    expect(new Set(logs.map((l) => l.id)).size).toBe(logs.length);
    expect(logs.every((l) => typeof l.timestamp === 'number')).toBe(true);
    // Oldest first, the cursor says where to go on (the log of a build grows).
    expect(all.body).toMatchObject({ next_offset: String(logs.length) });
    const tail = await call(sim, 'POST', path, { body: { order: 'desc', limit: 2 } });
    const tailLogs = (tail.body as { logs: Entry[]; next_offset: string }).logs;
    expect(tailLogs.map((l) => l.message)).toEqual(
      logs
        .slice(-2)
        .reverse()
        .map((l) => l.message),
    );
    const next = (tail.body as { next_offset: string }).next_offset;
    expect(next).toBe('2');
    const more = await call(sim, 'POST', path, { body: { order: 'desc', limit: 2, offset: next } });
    expect((more.body as { logs: Entry[] }).logs[0]!.message).toBe(logs.at(-3)!.message);
    const deploy = await call(sim, 'POST', logsPath(seeded.id, rev, 'deploy'), {
      body: { order: 'desc', limit: 50 },
    });
    expect(deploy.body).toEqual({ logs: [], next_offset: null });
  });

  it('no longer serves the old GET /v2/…/logs?type= path', async () => {
    const seeded = sim.seedDeployment({
      name: 'old-path',
      revisions: [{ status: 'BUILD_FAILED' }],
    });
    const rev = sim.revisions(seeded.id)[0]!.id;
    const old = await call(
      sim,
      'GET',
      `/v2/deployments/${seeded.id}/revisions/${rev}/logs?type=build`,
    );
    expect(old.status).toBe(404);
    expect((await call(sim, 'GET', logsPath(seeded.id, rev, 'build'))).status).toBe(405);
  });

  it('names a deploy failure in the deploy logs, with string timestamps', async () => {
    const seeded = sim.seedDeployment({ name: 'crashy', revisions: [{ status: 'DEPLOY_FAILED' }] });
    const rev = sim.revisions(seeded.id)[0]!.id;
    const answer = await call(sim, 'POST', logsPath(seeded.id, rev, 'deploy'), {
      body: { order: 'asc', limit: 100 },
    });
    const logs = (answer.body as { logs: Entry[] }).logs;
    expect(logs.some((l) => l.message.startsWith('ERROR:'))).toBe(true);
    expect(logs.every((l) => typeof l.timestamp === 'string')).toBe(true);
  });

  it('the build log of a building revision grows, and the asc cursor picks up the new lines', async () => {
    sim.queueTimeline([
      { status: 'AWAITING_BUILD', durationMs: 0 },
      { status: 'BUILDING', durationMs: 150 },
      { status: 'AWAITING_DEPLOY', durationMs: 10_000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const dep = await create(githubCreate('growing'));
    const path = logsPath(dep.id as string, dep.latest_revision_id as string, 'build');
    const first = await call(sim, 'POST', path, { body: { order: 'asc', limit: 100 } });
    const { logs, next_offset } = first.body as { logs: Entry[]; next_offset: string };
    await pollUntil(
      async () => {
        const later = await call(sim, 'POST', path, {
          body: { order: 'asc', limit: 100, offset: next_offset },
        });
        return (later.body as { logs: Entry[] }).logs;
      },
      (added) => added.some((l) => l.message.startsWith('Successfully built')),
    );
    expect(logs.some((l) => l.message.startsWith('Successfully built'))).toBe(false);
  });

  it('validates the logs body', async () => {
    const seeded = sim.seedDeployment({ name: 'q' });
    const rev = sim.revisions(seeded.id)[0]!.id;
    const path = logsPath(seeded.id, rev, 'build');
    for (const body of [
      { order: 'up', limit: 10 },
      { order: 'asc', limit: 1001 },
      { order: 'asc', limit: 0 },
      { order: 'asc', limit: 10, offset: 'abc' },
      '{not json',
    ]) {
      expect((await call(sim, 'POST', path, { body })).status).toBe(422);
    }
    const other = sim.seedDeployment({ name: 'q2' });
    expect(
      (
        await call(sim, 'POST', logsPath(other.id, 'nope', 'build'), {
          body: { order: 'asc', limit: 1 },
        })
      ).status,
    ).toBe(404);
  });

  it('answers 404 Not Found on logs when the install has no logs endpoints', async () => {
    const bare = await startSimulator({ logsEndpoint: false });
    try {
      const seeded = bare.seedDeployment({
        name: 'nolog',
        revisions: [{ status: 'BUILD_FAILED' }],
      });
      const rev = bare.revisions(seeded.id)[0]!.id;
      for (const kind of ['build', 'deploy'] as const) {
        const answer = await call(bare, 'POST', logsPath(seeded.id, rev, kind), {
          body: { order: 'desc', limit: 50 },
        });
        expect(answer).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
      }
    } finally {
      await bare.close();
    }
  });

  it('gives failed and interrupted revisions a status_message (a timeline step may set its own)', async () => {
    const seeded = sim.seedDeployment({
      name: 'msgs',
      revisions: [{ status: 'DEPLOYED' }, { status: 'BUILD_FAILED' }, { status: 'INTERRUPTED' }],
    });
    const [interrupted, failed, deployed] = sim.revisions(seeded.id);
    expect(deployed!.status_message).toBeNull();
    expect(failed!.status_message).toMatch(/build failed/i);
    expect(interrupted!.status_message).toMatch(/interrupted/i);
    sim.queueTimeline([
      { status: 'BUILDING', durationMs: 10_000, statusMessage: 'Installing dependencies' },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const dep = await create(githubCreate('with-message'));
    const rev = await call(
      sim,
      'GET',
      `/v2/deployments/${dep.id}/revisions/${dep.latest_revision_id}`,
    );
    expect(rev.body).toMatchObject({
      status: 'BUILDING',
      status_message: 'Installing dependencies',
    });
  });

  it('INTERRUPTED is final: a newer revision does not turn it into SKIPPED', async () => {
    sim.queueTimeline([
      { status: 'BUILDING', durationMs: 0 },
      { status: 'INTERRUPTED', durationMs: 0 },
    ]);
    const dep = await create(githubCreate('stopped'));
    await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
      body: { source_revision_config: { repo_ref: 'b' } },
    });
    const statuses = sim.revisions(dep.id as string).map((r) => r.status);
    expect(statuses[1]).toBe('INTERRUPTED');
  });
});

describe('tracing projects', () => {
  it('a name whose deployment was deleted without delete_tracing_project answers 409', async () => {
    const first = await create(githubCreate('reopened'));
    expect((await call(sim, 'DELETE', `/v2/deployments/${first.id}`)).status).toBe(204);
    const again = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('reopened') });
    expect(again).toMatchObject({
      status: 409,
      body: { detail: 'There already exists a project in LangSmith named: reopened' },
    });
    expect(sim.deployments().map((d) => d.name)).not.toContain('reopened');
  });

  it('with delete_tracing_project=true the name can be created again', async () => {
    const first = await create(githubCreate('cleaned'));
    await call(sim, 'DELETE', `/v2/deployments/${first.id}?delete_tracing_project=true`);
    expect(
      (await call(sim, 'POST', '/v2/deployments', { body: githubCreate('cleaned') })).status,
    ).toBe(201);
  });
});

describe('the /api-host prefix and the request log', () => {
  it('serves the same API under /api-host and logs the path without prefix and query', async () => {
    const created = await call(sim, 'POST', '/v2/deployments', {
      body: githubCreate('prefixed'),
      base: `${sim.url}/api-host`,
    });
    expect(created.status).toBe(201);
    const id = (created.body as Dep).id;
    const got = await call(sim, 'GET', `/v2/deployments/${id}?x=1`, {
      base: `${sim.url}/api-host`,
    });
    expect(got.body).toMatchObject({ id, name: 'prefixed' });
    expect(sim.requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/v2/deployments', 201],
      ['GET', `/v2/deployments/${id}`, 200],
    ]);
    expect(sim.requests[0]!.body).toMatchObject({ name: 'prefixed' });
    expect(sim.requests[1]!.query).toEqual({ x: '1' });
    expect(sim.requests[0]!.at).toBeLessThanOrEqual(sim.requests[1]!.at);
  });

  it('answers 404 for unknown paths and 405 for unknown methods', async () => {
    expect((await call(sim, 'GET', '/v1/nothing')).status).toBe(404);
    expect((await call(sim, 'PUT', '/v2/deployments')).status).toBe(405);
  });

  it('seeds deployments without logging a request; reset drops everything', async () => {
    const seeded = sim.seedDeployment({
      name: 'seeded',
      secrets: [{ name: 'A', value: 'b' }],
      revisions: [{ status: 'DEPLOYED' }, { status: 'BUILDING' }],
    });
    expect(sim.requests).toEqual([]);
    const revisions = sim.revisions(seeded.id);
    expect(revisions.map((r) => r.status)).toEqual(['BUILDING', 'DEPLOYED']);
    expect(seeded).toMatchObject({
      latest_revision_id: revisions[0]!.id,
      active_revision_id: revisions[1]!.id,
      secrets: [{ name: 'A', value: 'b' }],
    });
    const listed = await call(sim, 'GET', '/v2/deployments?name_contains=seeded');
    expect(listed.body).toMatchObject({ resources: [{ id: seeded.id }] });
    sim.reset();
    expect(sim.deployments()).toEqual([]);
    expect(sim.requests).toEqual([]);
  });

  it('seeds revisions with the given dates and refuses bad seeds', () => {
    const seeded = sim.seedDeployment({
      name: 'dated',
      source: 'external_docker',
      customUrl: 'https://agent.example.com',
      revisions: [
        {
          status: 'DEPLOYED',
          createdAt: '2024-01-01T00:00:00.000Z',
          updatedAt: '2024-01-01T00:05:00.000Z',
        },
      ],
    });
    expect(seeded).toMatchObject({
      source: 'external_docker',
      created_at: '2024-01-01T00:00:00.000Z',
      source_config: { custom_url: 'https://agent.example.com', integration_id: null },
    });
    expect(sim.revisions(seeded.id)[0]).toMatchObject({
      created_at: '2024-01-01T00:00:00.000Z',
      updated_at: '2024-01-01T00:05:00.000Z',
    });
    expect(() => sim.seedDeployment({ name: 'dated' })).toThrow(/already exists/);
    expect(() =>
      sim.seedDeployment({ name: 'bad-date', revisions: [{ status: 'DEPLOYED', createdAt: 'x' }] }),
    ).toThrow(/ISO 8601/);
    expect(() => sim.revisions('missing')).toThrow(/no deployment/);
  });
});

// The simulator speaks the second round of platform facts: `POST /v2/deployments/{id}/revisions`
// (the API reference's create-revision call, answered with the revision), `…/interrupt` beside
// `…/interruption`, deployments made by `langgraph deploy` (`internal_docker`) that a PATCH
// with `revision_source: internal_source` turns into remote builds, the five deployment types,
// and installs without the revisions endpoint (405).
describe('POST /v2/deployments/{id}/revisions', () => {
  it('always makes a revision and answers it (201), which becomes latest_revision_id', async () => {
    const dep = await create(githubCreate('revs'));
    const answer = await call(sim, 'POST', `/v2/deployments/${dep.id}/revisions`, {
      body: { source_revision_config: {} },
    });
    expect(answer.status).toBe(201);
    const revision = answer.body as { id: string; status: string };
    expect(revision).toMatchObject({ status: 'QUEUED', source: 'github' });
    expect(revision.id).not.toBe(dep.latest_revision_id);
    const now = (await call(sim, 'GET', `/v2/deployments/${dep.id}`)).body as Dep;
    expect(now.latest_revision_id).toBe(revision.id);
  });

  it('replaces secrets only when sent, and refuses revision_source and immutable fields', async () => {
    const dep = await create({ ...githubCreate('sec'), secrets: [{ name: 'A', value: '1' }] });
    const path = `/v2/deployments/${dep.id}/revisions`;
    await call(sim, 'POST', path, { body: { source_revision_config: { repo_ref: 'b' } } });
    expect(sim.deployments()[0]!.secrets).toEqual([{ name: 'A', value: '1' }]);
    await call(sim, 'POST', path, {
      body: { source_revision_config: {}, secrets: [{ name: 'B', value: '2' }] },
    });
    expect(sim.deployments()[0]!.secrets).toEqual([{ name: 'B', value: '2' }]);
    const withSource = await call(sim, 'POST', path, {
      body: { revision_source: 'internal_source', source_revision_config: {} },
    });
    expect(withSource.status).toBe(422);
    const immutable = await call(sim, 'POST', path, {
      body: { source_config: { deployment_type: 'prod' }, source_revision_config: {} },
    });
    expect(immutable.status).toBe(400);
  });

  it('answers 405 on an install without it (revisionsEndpoint: false)', async () => {
    const old = await startSimulator({ timeline: LONG, revisionsEndpoint: false });
    try {
      const dep = (await call(old, 'POST', '/v2/deployments', { body: githubCreate('old') }))
        .body as Dep;
      const answer = await call(old, 'POST', `/v2/deployments/${dep.id}/revisions`, {
        body: { source_revision_config: {} },
      });
      expect(answer.status).toBe(405);
    } finally {
      await old.close();
    }
  });
});

describe('interrupt', () => {
  it('answers on …/interrupt (the API reference) and on …/interruption', async () => {
    const dep = await create(githubCreate('int'));
    const first = dep.latest_revision_id!;
    const a = await call(sim, 'POST', `/v2/deployments/${dep.id}/revisions/${first}/interrupt`);
    expect(a).toMatchObject({ status: 200, body: { status: 'INTERRUPTED' } });
    const again = await call(
      sim,
      'POST',
      `/v2/deployments/${dep.id}/revisions/${first}/interruption`,
    );
    expect(again.status).toBe(409);
  });

  it('has only …/interrupt with interruptionPath: false', async () => {
    const current = await startSimulator({ timeline: LONG, interruptionPath: false });
    try {
      const dep = (await call(current, 'POST', '/v2/deployments', { body: githubCreate('cur') }))
        .body as Dep;
      const rev = dep.latest_revision_id!;
      const old = `/v2/deployments/${dep.id}/revisions/${rev}/interruption`;
      expect((await call(current, 'POST', old)).status).toBe(404);
      const now = `/v2/deployments/${dep.id}/revisions/${rev}/interrupt`;
      expect((await call(current, 'POST', now)).status).toBe(200);
    } finally {
      await current.close();
    }
  });
});

describe('deployments made by langgraph deploy (internal_docker)', () => {
  it('a PATCH with revision_source internal_source turns one into a remote build', async () => {
    const seeded = sim.seedDeployment({ name: 'from-cli', source: 'internal_docker' });
    expect(seeded).toMatchObject({ source: 'internal_docker' });
    // As `langgraph deploy` does: an upload URL first, the PATCH after the upload.
    const upload = await call(sim, 'POST', `/v2/deployments/${seeded.id}/upload-url`);
    expect(upload.status).toBe(200);
    // The revisions endpoint cannot change the source.
    const asRevision = await call(sim, 'POST', `/v2/deployments/${seeded.id}/revisions`, {
      body: { source_revision_config: { source_tarball_path: 'uploads/x.tar.gz' } },
    });
    expect(asRevision.status).toBe(400);
    const patched = await call(sim, 'PATCH', `/v2/deployments/${seeded.id}`, {
      body: {
        revision_source: 'internal_source',
        source_revision_config: {
          source_tarball_path: 'uploads/not-uploaded.tar.gz',
          langgraph_config_path: 'langgraph.json',
        },
      },
    });
    expect(patched.status).toBe(400); // the object must have been uploaded first
    expect(sim.deployments()[0]).toMatchObject({ source: 'internal_docker' });
  });
});

describe('deployment types', () => {
  const TYPES = ['serverless', 'dedicated', 'dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'];
  it.each(TYPES)('accepts %s', async (type) => {
    const body = githubCreate(`t-${type.replace(/_/g, '-')}`);
    const answer = await call(sim, 'POST', '/v2/deployments', {
      body: { ...body, source_config: { ...body.source_config, deployment_type: type } },
    });
    expect(answer.status).toBe(201);
  });

  it('refuses another one with a 422', async () => {
    const body = githubCreate('t-huge');
    const answer = await call(sim, 'POST', '/v2/deployments', {
      body: { ...body, source_config: { ...body.source_config, deployment_type: 'huge' } },
    });
    expect(answer.status).toBe(422);
  });

  it.each([
    ['previous', 'dev', "'serverless' or 'dedicated'"],
    ['usage-based', 'serverless', "'dev_free' or 'dev' or 'prod' or 'dev_zero' or 'dev_free_zero'"],
  ] as const)(
    'told to refuse the %s family, refuses %s naming the other',
    async (family, type, msg) => {
      const strict = await startSimulator({ refuseDeploymentTypes: family });
      try {
        const body = githubCreate('t-family');
        const config = { ...body.source_config, deployment_type: type };
        const answer = await call(strict, 'POST', '/v2/deployments', {
          body: { ...body, source_config: config },
        });
        expect(answer).toMatchObject({
          status: 422,
          body: {
            detail: [
              { loc: ['body', 'source_config', 'deployment_type'], msg: `Input should be ${msg}` },
            ],
          },
        });
        const other = family === 'previous' ? 'dedicated' : 'prod';
        const accepted = await call(strict, 'POST', '/v2/deployments', {
          body: { ...body, source_config: { ...config, deployment_type: other } },
        });
        expect(accepted.status).toBe(201);
      } finally {
        await strict.close();
      }
    },
  );
});

describe('GitHub integrations (v1)', () => {
  it('lists the integrations and the repositories of each, in the spec snapshot’s shapes', async () => {
    const id = '11111111-2222-4333-8444-555555555555';
    sim.setGithubIntegrations([{ id, name: 'acme', repos: ['acme/agent'] }]);
    const install = await call(sim, 'GET', '/v1/integrations/github/install');
    expect(install).toMatchObject({ status: 200, body: [{ id, name: 'acme' }] });
    const repos = await call(sim, 'GET', `/v1/integrations/github/${id}/repos`);
    expect(repos).toMatchObject({
      status: 200,
      body: [
        {
          host_integration_id: id,
          owner: 'acme',
          name: 'agent',
          url: 'https://github.com/acme/agent',
        },
      ],
    });
    expect((await call(sim, 'GET', '/v1/integrations/github/nope/repos')).status).toBe(404);
    sim.reset();
    expect((await call(sim, 'GET', '/v1/integrations/github/install')).body).toEqual([]);
  });
});
