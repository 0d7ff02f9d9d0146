/**
 * End to end: the bundle against the control-plane simulator, for the upsert of INTERFACE.md
 * (create, update by exact name across pages, `secrets`, `wait: false`, `workspace-id`, a
 * self-hosted `/api-host` URL, the derivation of `repo-ref`).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { DEFAULT_TENANT_ID, startSimulator, type Simulator } from '../../simulator/index.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  REVISIONS_PATH,
  errors,
  expectExit,
  HEALTH_PATH,
  idOf,
  INTEGRATION_ID,
  mark,
  REPO_URL,
  REVISION_PATH,
  SHORT_TIMELINE,
  uiUrlOf,
  uniqueName,
  ORIGIN_ENTRY,
  sentSecrets,
} from './deploy-support.js';

/** Every line of the action's stdout, stderr and summary that holds `value` is its mask. */
function expectOnlyMasked(result: Awaited<ReturnType<typeof runAction>>, value: string): void {
  const stdout = result.stdout.split('\n').filter((l) => l.includes(value));
  expect(stdout).toContain(`::add-mask::${value}`);
  for (const line of stdout) expect(line.startsWith('::add-mask::')).toBe(true);
  expect(result.stderr).not.toContain(value);
  expect(result.summary).not.toContain(value);
  for (const output of Object.values(result.outputs)) expect(output).not.toContain(value);
}

const sim = useSimulator({ timeline: SHORT_TIMELINE });

describe('create', () => {
  it('POSTs exactly the github fields and sets every output', async () => {
    const name = uniqueName('create');
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        'deployment-type': 'prod',
        'config-path': 'apps/agent/langgraph.json',
      }),
    });
    expectExit(result, 0);
    const id = idOf(sim, name)!;
    expect(id).toBeDefined();
    const [revision] = sim.revisions(id);

    expect(result.outputs).toMatchObject({
      'deployment-id': id,
      'revision-id': revision!.id,
      name,
      created: 'true',
      status: 'DEPLOYED',
      url: sim.agentUrl(id),
      'ui-url': uiUrlOf(sim, id, DEFAULT_TENANT_ID),
    });

    const requests = log.since();
    const posts = byRoute(requests, 'POST', '/v2/deployments');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({
      name,
      source: 'github',
      source_config: {
        integration_id: INTEGRATION_ID,
        repo_url: REPO_URL,
        deployment_type: 'prod',
        build_on_push: false,
      },
      source_revision_config: {
        repo_ref: 'main',
        langgraph_config_path: 'apps/agent/langgraph.json',
      },
      secrets: [ORIGIN_ENTRY],
    });
    expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
    expect(byRoute(requests, 'POST', REVISIONS_PATH)).toHaveLength(0);
    // The revision it followed is its own; the agent server was checked after DEPLOYED.
    expect(
      byRoute(requests, 'GET', REVISION_PATH).every((r) => r.path.endsWith(revision!.id)),
    ).toBe(true);
    expect(byRoute(requests, 'GET', HEALTH_PATH).length).toBeGreaterThanOrEqual(1);
    expect(result.summary).toContain(name);
    expect(result.summary).toContain('DEPLOYED');
    expectOnlyMasked(result, sim.apiKey);
  });
});

describe('update by exact name', () => {
  it('asks for a new revision of only the deployment of exactly that name, not its near-name neighbours', async () => {
    const base = uniqueName('app-pr');
    const target = `${base}-1`;
    // Neighbours first, so that a "first match of name_contains" would pick one of them.
    const neighbours = [`${base}-12`, `${base}-1-old`, `x${base}-1`].map((n) =>
      sim.seedDeployment({ name: n, repoUrl: REPO_URL }),
    );
    const seeded = sim.seedDeployment({ name: target, repoUrl: REPO_URL });
    const log = mark(sim);

    const result = await runAction({ inputs: baseInputs(sim, { name: target }) });
    expectExit(result, 0);

    const requests = log.since();
    const patches = byRoute(requests, 'POST', REVISIONS_PATH);
    expect(patches.map((p) => p.path)).toEqual([`/v2/deployments/${seeded.id}/revisions`]);
    expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
    expect(byRoute(requests, 'POST', '/v2/deployments')).toHaveLength(0);
    // Empty `secrets` input: the new revision leaves the environment alone.
    expect(patches[0]!.body).toEqual({
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
    });
    for (const n of neighbours) expect(sim.revisions(n.id)).toHaveLength(1);

    const [latest, previous] = sim.revisions(seeded.id);
    expect(previous!.id).toBe(seeded.latest_revision_id);
    expect(result.outputs).toMatchObject({
      'deployment-id': seeded.id,
      'revision-id': latest!.id,
      name: target,
      created: 'false',
      status: 'DEPLOYED',
    });
  });

  it('finds the exact name on a later page of the list (limit 100)', async () => {
    const target = uniqueName('paged');
    // 150 deployments whose names contain the target's, listed before it: it is on page 2.
    for (let i = 0; i < 150; i++) sim.seedDeployment({ name: `${target}-${i}`, repoUrl: REPO_URL });
    const seeded = sim.seedDeployment({ name: target, repoUrl: REPO_URL });
    const log = mark(sim);

    const result = await runAction({ inputs: baseInputs(sim, { name: target, wait: 'false' }) });
    expectExit(result, 0);

    const requests = log.since();
    const lists = byRoute(requests, 'GET', '/v2/deployments');
    expect(lists.map((l) => l.query)).toEqual([
      { name_contains: target, limit: '100', offset: '0' },
      { name_contains: target, limit: '100', offset: '100' },
    ]);
    expect(byRoute(requests, 'POST', REVISIONS_PATH).map((p) => p.path)).toEqual([
      `/v2/deployments/${seeded.id}/revisions`,
    ]);
    expect(byRoute(requests, 'POST', '/v2/deployments')).toHaveLength(0);
    expect(result.outputs['deployment-id']).toBe(seeded.id);
    expect(result.outputs['created']).toBe('false');
  });
});

describe('secrets', () => {
  it('sends the lines form as given on create, and masks every value (debug on)', async () => {
    const name = uniqueName('sec-lines');
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        secrets: [
          '# a comment',
          'OPENAI_API_KEY=sk-lines-4f8a9c2d',
          '',
          'DSN=postgres://u:pw-7d1e@db/x?a=b',
        ].join('\n'),
      }),
      env: { RUNNER_DEBUG: '1' },
    });
    expectExit(result, 0);
    const [post] = byRoute(log.since(), 'POST', '/v2/deployments');
    expect((post!.body as { secrets: unknown }).secrets).toEqual(
      sentSecrets(
        [
          { name: 'OPENAI_API_KEY', value: 'sk-lines-4f8a9c2d' },
          { name: 'DSN', value: 'postgres://u:pw-7d1e@db/x?a=b' },
        ],
        { created: true },
      ),
    );
    expectOnlyMasked(result, 'sk-lines-4f8a9c2d');
    expectOnlyMasked(result, 'postgres://u:pw-7d1e@db/x?a=b');
  });

  it('sends the JSON form as strings on create, and masks every value and line', async () => {
    const name = uniqueName('sec-json');
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        secrets: JSON.stringify({
          TOKEN: 'tok-json-91b3e7',
          CERT: 'cert-line-one-aa11\ncert-line-two-bb22',
          MAX_TOKENS: 8123,
          BETA: true,
        }),
      }),
    });
    expectExit(result, 0);
    const [post] = byRoute(log.since(), 'POST', '/v2/deployments');
    expect((post!.body as { secrets: unknown }).secrets).toEqual(
      sentSecrets(
        [
          { name: 'TOKEN', value: 'tok-json-91b3e7' },
          { name: 'CERT', value: 'cert-line-one-aa11\ncert-line-two-bb22' },
          { name: 'MAX_TOKENS', value: '8123' },
          { name: 'BETA', value: 'true' },
        ],
        { created: true },
      ),
    );
    expectOnlyMasked(result, 'tok-json-91b3e7');
    // Each line of a multi-line value is masked on its own (the runner masks line by line).
    expectOnlyMasked(result, 'cert-line-one-aa11');
    expectOnlyMasked(result, 'cert-line-two-bb22');
  });

  it('sends secrets on update only when the input is set; masks the values the API returns', async () => {
    const name = uniqueName('sec-upd');
    const seeded = sim.seedDeployment({
      name,
      repoUrl: REPO_URL,
      secrets: [{ name: 'OLD_TOKEN', value: 'seeded-secret-c0ffee' }],
    });
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, { name, secrets: 'NEW_TOKEN=new-secret-b16b00b5' }),
      env: { RUNNER_DEBUG: '1' },
    });
    expectExit(result, 0);
    const patches = byRoute(log.since(), 'POST', REVISIONS_PATH);
    expect(patches.map((p) => p.path)).toEqual([`/v2/deployments/${seeded.id}/revisions`]);
    expect((patches[0]!.body as { secrets: unknown }).secrets).toEqual(
      sentSecrets([{ name: 'NEW_TOKEN', value: 'new-secret-b16b00b5' }]),
    );
    expectOnlyMasked(result, 'new-secret-b16b00b5');
    // Deployment.secrets of the lookup carry values: masked as soon as they arrive.
    expectOnlyMasked(result, 'seeded-secret-c0ffee');
  });
});

describe('wait: false', () => {
  it('returns right after the call with the revision status, without polling', async () => {
    const name = uniqueName('nowait');
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 60_000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const log = mark(sim);
    const result = await runAction({
      inputs: baseInputs(sim, { name, 'integration-id': INTEGRATION_ID, wait: 'false' }),
    });
    expectExit(result, 0);
    const id = idOf(sim, name)!;
    expect(result.outputs).toMatchObject({
      'deployment-id': id,
      'revision-id': sim.revisions(id)[0]!.id,
      name,
      created: 'true',
      status: 'QUEUED',
    });
    const requests = log.since();
    expect(byRoute(requests, 'GET', REVISION_PATH)).toHaveLength(1);
    expect(byRoute(requests, 'GET', HEALTH_PATH)).toHaveLength(0);
    expect(result.elapsedMs).toBeLessThan(10_000);
  });
});

describe('workspace-id', () => {
  let tenantSim: Simulator;
  const workspace = '11111111-2222-4333-8444-555555555555';

  beforeAll(async () => {
    tenantSim = await startSimulator({
      timeline: SHORT_TIMELINE,
      requireTenant: true,
      tenantId: workspace,
    });
  });

  afterAll(async () => {
    await tenantSim.close();
  });

  it('a workspace-id that is not a UUID is an input error before any request', async () => {
    const log = mark(tenantSim);
    const result = await runAction({
      inputs: baseInputs(tenantSim, {
        name: uniqueName('tenant-bad'),
        'integration-id': INTEGRATION_ID,
        'workspace-id': 'my-workspace',
      }),
    });
    expectExit(result, 1);
    expect(
      errors(result)
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/Input `workspace-id` is "my-workspace", which is not a workspace ID/);
    expect(log.since()).toHaveLength(0);
  });

  it('without it, a 403 fails with advice to set workspace-id, before any change', async () => {
    const name = uniqueName('tenant-no');
    const result = await runAction({
      inputs: baseInputs(tenantSim, { name, 'integration-id': INTEGRATION_ID }),
    });
    expectExit(result, 1);
    const [error] = errors(result);
    expect(error?.message).toMatch(/403/);
    expect(error?.message).toContain('`workspace-id`');
    expect(tenantSim.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('with it, every control-plane request carries X-Tenant-Id and the deploy succeeds', async () => {
    const name = uniqueName('tenant-yes');
    const log = mark(tenantSim);
    const result = await runAction({
      inputs: baseInputs(tenantSim, {
        name,
        'integration-id': INTEGRATION_ID,
        'workspace-id': workspace,
      }),
    });
    expectExit(result, 0);
    expect(result.outputs['status']).toBe('DEPLOYED');
    const controlPlane = log.since().filter((r) => r.path.startsWith('/v2/'));
    expect(controlPlane.length).toBeGreaterThan(2);
    for (const r of controlPlane)
      expect([r.method, r.path, r.tenant]).toEqual([r.method, r.path, workspace]);
    const id = idOf(tenantSim, name)!;
    expect(result.outputs['ui-url']).toBe(uiUrlOf(tenantSim, id, workspace));
  });
});

describe('self-hosted control plane', () => {
  it('works with a control-plane-url ending in /api-host/ and strips it for ui-url', async () => {
    const name = uniqueName('apihost');
    const result = await runAction({
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        'control-plane-url': `${sim.url}/api-host/`,
      }),
    });
    expectExit(result, 0);
    const id = idOf(sim, name)!;
    expect(result.outputs['status']).toBe('DEPLOYED');
    expect(result.outputs['ui-url']).toBe(uiUrlOf(sim, id, DEFAULT_TENANT_ID));
  });
});

describe('repo-ref derivation', () => {
  async function derivedRef(
    options: Omit<Parameters<typeof runAction>[0], 'inputs'>,
    inputs: Record<string, string> = {},
  ) {
    const name = uniqueName('ref');
    const log = mark(sim);
    const result = await runAction({
      ...options,
      inputs: baseInputs(sim, { name, 'integration-id': INTEGRATION_ID, wait: 'false', ...inputs }),
    });
    const posts = byRoute(log.since(), 'POST', '/v2/deployments');
    const body = posts[0]?.body as { source_revision_config?: { repo_ref?: string } } | undefined;
    return { result, requests: log.since(), repoRef: body?.source_revision_config?.repo_ref };
  }

  const pullRequest = (headRepo: string) => ({
    name: 'pull_request',
    payload: {
      action: 'synchronize',
      number: 7,
      pull_request: {
        number: 7,
        head: {
          ref: 'feature/x',
          sha: 'abcdefabcdefabcdefabcdefabcdefabcdefabcd',
          repo: { full_name: headRepo },
        },
        base: { ref: 'main', repo: { full_name: 'acme/agent' } },
      },
    },
  });

  it('pull_request: the head branch from the event payload', async () => {
    const { result, repoRef } = await derivedRef({
      event: pullRequest('acme/agent'),
      ref: 'refs/pull/7/merge',
    });
    expectExit(result, 0);
    expect(repoRef).toBe('feature/x');
  });

  it('pull_request from a fork: an input error, zero requests', async () => {
    const { result, requests } = await derivedRef({
      event: pullRequest('someone/agent'),
      ref: 'refs/pull/7/merge',
    });
    expectExit(result, 1);
    const [error] = errors(result);
    expect(error?.props).toContain('repo-ref');
    expect(error?.message).toMatch(/someone\/agent/);
    expect(error?.message).toMatch(/external_docker/);
    expect(requests).toHaveLength(0);
  });

  it('tag push: refs/tags/<tag>', async () => {
    const { result, repoRef } = await derivedRef({ ref: 'refs/tags/v1.2.3' });
    expectExit(result, 0);
    expect(repoRef).toBe('refs/tags/v1.2.3');
  });

  it('branch push: the branch name', async () => {
    const { result, repoRef } = await derivedRef({ ref: 'refs/heads/release/2.x' });
    expectExit(result, 0);
    expect(repoRef).toBe('release/2.x');
  });

  it('build-on-push true on a tag: an input error, zero requests', async () => {
    const { result, requests } = await derivedRef(
      { ref: 'refs/tags/v1.2.3' },
      { 'build-on-push': 'true' },
    );
    expectExit(result, 1);
    const [error] = errors(result);
    expect(error?.props).toContain('build-on-push');
    expect(error?.message).toContain('refs/tags/v1.2.3');
    expect(requests).toHaveLength(0);
  });

  it('an explicit repo-ref wins over the event', async () => {
    const { result, repoRef } = await derivedRef(
      { ref: 'refs/tags/v1.2.3' },
      { 'repo-ref': 'hotfix' },
    );
    expectExit(result, 0);
    expect(repoRef).toBe('hotfix');
  });
});
