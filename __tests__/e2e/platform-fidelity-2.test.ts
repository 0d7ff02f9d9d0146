/**
 * End to end on the bundle: the second round of platform facts (issue 27, INTERFACE.md v1.2
 * "Platform facts, second round"): new revisions through `POST /v2/deployments/{id}/revisions`
 * (and the PATCH of older installs, with a notice), the requests an update costs, the
 * `/interrupt` call only when asked for, a delete that waits for 404 also without `wait`,
 * `source: upload` onto a deployment made by `langgraph deploy`, and the inputs refused before
 * any request.
 */
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  errors,
  expectExit,
  INTEGRATION_ID,
  mark,
  REPO_URL,
  REVISION_PATH,
  SHORT_TIMELINE,
  tempWorkspaces,
  uniqueName,
} from './deploy-support.js';

const REVISIONS_PATH = /^\/v2\/deployments\/[^/]+\/revisions$/;
const sim = useSimulator({ timeline: SHORT_TIMELINE });
// An older self-hosted control plane: no POST …/revisions (405).
const old = useSimulator({ timeline: SHORT_TIMELINE, revisionsEndpoint: false });
const workspaces = tempWorkspaces('e2e-fidelity-2');

afterAll(() => {
  workspaces.removeAll();
});

beforeEach(() => {
  sim.reset();
  old.reset();
});

function inputs(target: Simulator, name: string, extra: Record<string, string> = {}) {
  return baseInputs(target, { name, 'integration-id': INTEGRATION_ID, ...extra });
}

/** The control-plane requests of one run (not the agent server's). */
function controlPlane<R extends { path: string }>(requests: R[]): R[] {
  return requests.filter((r) => r.path.startsWith('/v2/') || r.path.startsWith('/v1/'));
}

describe('a new revision of an existing deployment', () => {
  it('is requested with POST …/revisions and followed by its id: no PATCH, no first read', async () => {
    const name = uniqueName('rev');
    const seeded = sim.seedDeployment({ name, repoUrl: REPO_URL });
    const log = mark(sim);
    const result = await runAction({ inputs: inputs(sim, name, { 'health-check': 'false' }) });
    expectExit(result, 0);
    const requests = log.since();
    const [posted] = byRoute(requests, 'POST', REVISIONS_PATH);
    expect(posted).toMatchObject({ path: `/v2/deployments/${seeded.id}/revisions`, status: 201 });
    expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toEqual([]);
    const revisionId = result.outputs['revision-id']!;
    expect(sim.deployments()[0]!.latest_revision_id).toBe(revisionId);
    // The wait starts from the POST's answer: every GET of the revision comes after some time.
    const reads = byRoute(requests, 'GET', REVISION_PATH).filter((r) =>
      r.path.endsWith(revisionId),
    );
    expect(reads.length).toBeGreaterThan(0);
    expect(reads[0]!.at).toBeGreaterThan(posted!.at);
  });

  it('costs two control-plane requests fewer than on an install that only offers the PATCH', async () => {
    const name = uniqueName('count');
    const run = async (target: Simulator) => {
      target.seedDeployment({ name, repoUrl: REPO_URL });
      // The same timing on both: one status check sees QUEUED, the next DEPLOYED.
      target.setTimeline([
        { status: 'QUEUED', durationMs: 150 },
        { status: 'DEPLOYED', durationMs: 0 },
      ]);
      const log = mark(target);
      const result = await runAction({
        inputs: inputs(target, name, { 'health-check': 'false', 'poll-interval': '0.5' }),
      });
      expectExit(result, 0);
      return { result, requests: controlPlane(log.since()) };
    };
    const now = await run(sim);
    const before = await run(old);
    const routes = (rs: { method: string; path: string }[]) =>
      rs.map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/g, ':id')}`);
    const counted =
      `Control-plane requests of a plain update: ${now.requests.length} with POST …/revisions ` +
      `(${routes(now.requests).join(', ')}); ${before.requests.length} on an install with ` +
      `only the PATCH (${routes(before.requests).join(', ')}).`;
    // The older install: the 405, the PATCH, and a first read of the revision.
    expect(byRoute(before.requests, 'POST', REVISIONS_PATH)).toMatchObject([{ status: 405 }]);
    expect(byRoute(before.requests, 'PATCH', DEPLOYMENT_PATH)).toHaveLength(1);
    const notice = before.result.stdout.split('\n').find((l) => l.includes('with PATCH'));
    expect(notice).toMatch(
      /^::notice title=Revision requested with PATCH::.*HTTP 405.*PATCH instead/,
    );
    expect({ requests: now.requests.length, counted }).toEqual({
      requests: before.requests.length - 2,
      counted,
    });
  });
});

describe('interrupt-previous', () => {
  const BUSY = [
    { status: 'BUILDING', durationMs: 60_000 },
    { status: 'DEPLOYED', durationMs: 0 },
  ];

  it('is off by default: no interrupt call, even with a revision in progress', async () => {
    const name = uniqueName('noint');
    sim.seedDeployment({ name, repoUrl: REPO_URL, revisions: [{ status: 'BUILDING' }] });
    sim.queueTimeline(SHORT_TIMELINE);
    const log = mark(sim);
    const result = await runAction({ inputs: inputs(sim, name, { 'health-check': 'false' }) });
    expectExit(result, 0);
    expect(log.since().filter((r) => /\/interrupt(ion)?$/.test(r.path))).toEqual([]);
  });

  it('when on, calls …/interrupt (the API reference’s path)', async () => {
    const name = uniqueName('int');
    const seeded = sim.seedDeployment({ name, repoUrl: REPO_URL, revisions: [] });
    sim.queueTimeline(BUSY);
    // A revision in progress, made through the API.
    const busy = await fetch(`${sim.url}/v2/deployments/${seeded.id}/revisions`, {
      method: 'POST',
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ source_revision_config: { repo_ref: 'main' } }),
    });
    const busyId = ((await busy.json()) as { id: string }).id;
    const log = mark(sim);
    const result = await runAction({
      inputs: inputs(sim, name, { 'interrupt-previous': 'true', 'health-check': 'false' }),
    });
    expectExit(result, 0);
    const calls = log.since().filter((r) => /\/interrupt(ion)?$/.test(r.path));
    expect(calls.map((c) => [c.path, c.status])).toEqual([
      [`/v2/deployments/${seeded.id}/revisions/${busyId}/interrupt`, 200],
    ]);
  });
});

describe('delete', () => {
  it('waits until the deployment answers 404, also with wait: false', async () => {
    const slow = await startSimulator({ timeline: SHORT_TIMELINE, deleteDelayMs: 400 });
    try {
      const seeded = slow.seedDeployment({ name: uniqueName('del'), repoUrl: REPO_URL });
      const result = await runAction({
        inputs: baseInputs(slow, { command: 'delete', name: seeded.name, wait: 'false' }),
      });
      expectExit(result, 0);
      expect(result.outputs['status']).toBe('DELETED');
      const [deleted] = byRoute(slow.requests, 'DELETE', DEPLOYMENT_PATH);
      const reads = byRoute(slow.requests, 'GET', `/v2/deployments/${seeded.id}`);
      expect(reads.at(-1)?.status).toBe(404);
      expect(reads.at(-1)!.at - deleted!.at).toBeGreaterThanOrEqual(350);
    } finally {
      await slow.close();
    }
  });
});

describe('command: delete when the deployment outlives the timeout', () => {
  it('reports DELETED with a warning (the platform accepted it), not a failed cleanup', async () => {
    const slow = await startSimulator({ timeline: SHORT_TIMELINE, deleteDelayMs: 60_000 });
    try {
      const seeded = slow.seedDeployment({ name: uniqueName('del'), repoUrl: REPO_URL });
      const result = await runAction({
        inputs: baseInputs(slow, { command: 'delete', name: seeded.name, timeout: '1' }),
      });
      expectExit(result, 0);
      expect(result.outputs['status']).toBe('DELETED');
      expect(result.stdout).toMatch(/::warning title=Deletion still in progress::/);
      expect(result.stdout).toContain('was still being deleted when `timeout` ran out');
      expect(byRoute(slow.requests, 'DELETE', DEPLOYMENT_PATH)).toHaveLength(1);
    } finally {
      await slow.close();
    }
  });
});

describe('source: upload onto a deployment made by langgraph deploy (internal_docker)', () => {
  const PYTHON_AGENT = {
    'langgraph.json': JSON.stringify({
      dependencies: ['.'],
      graphs: { agent: './agent.py:graph' },
    }),
    'agent.py': 'graph = None\n',
    'requirements.txt': 'langgraph\n',
  };

  it('updates it with the CLI’s PATCH and a notice that its source changes', async () => {
    const name = uniqueName('cli');
    const seeded = sim.seedDeployment({ name, source: 'internal_docker' });
    const workspace = workspaces.make(PYTHON_AGENT, { git: false });
    const log = mark(sim);
    const result = await runAction({
      workspace,
      inputs: baseInputs(sim, { name, source: 'upload', 'health-check': 'false' }),
    });
    expectExit(result, 0);
    const notice = result.stdout.split('\n').find((l) => l.includes('source changes'));
    expect(notice).toMatch(
      /^::notice title=Deployment source changes::.*internal_docker.*internal_source/,
    );
    const [patch] = byRoute(log.since(), 'PATCH', DEPLOYMENT_PATH);
    expect(patch).toMatchObject({ path: `/v2/deployments/${seeded.id}`, status: 200 });
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toEqual([]);
    expect(sim.deployments()[0]).toMatchObject({ source: 'internal_source' });
  });

  it('an external_docker deployment keeps the usual error, before any write', async () => {
    const name = uniqueName('img');
    sim.seedDeployment({ name, source: 'external_docker' });
    const workspace = workspaces.make(PYTHON_AGENT, { git: false });
    const log = mark(sim);
    const result = await runAction({
      workspace,
      inputs: baseInputs(sim, { name, source: 'upload' }),
    });
    expectExit(result, 1);
    expect(errors(result)[0]!.message).toMatch(/has source 'external_docker'/);
    expect(log.since().filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('inputs refused before any request', () => {
  it.each([
    [{ secrets: '{}' }, 'secrets', /holds no secret.*changes nothing on the platform/],
    [{ secrets: '# nothing yet' }, 'secrets', /leave the input out/],
    [{ secrets: 'LANGGRAPH_HOST_API_KEY=x' }, 'secrets', /LANGGRAPH_HOST_API_KEY is reserved/],
    [{ 'deployment-type': 'huge' }, 'deployment-type', /dev_zero.*dev_free_zero/],
    [{ name: '-my-agent-' }, 'name', /e\.g\. `my-agent`/],
  ])('%j', async (extra, input, message) => {
    const log = mark(sim);
    const result = await runAction({ inputs: inputs(sim, 'my-agent', extra) });
    expectExit(result, 1);
    const found = errors(result).find((e) => e.props.includes(`Invalid input: ${input}`));
    expect(found?.message).toMatch(message);
    expect(log.since()).toEqual([]);
  });
});
