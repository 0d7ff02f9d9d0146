/**
 * The simulator's model of a rollback: `POST …/revisions/{rev}/redeploy` replays a revision
 * through the normal timeline, `active_revision_id` moves once it is DEPLOYED, and the agent
 * server answers as the live revision does (per-revision health).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { call, githubCreate, pollUntil } from './helpers.js';

interface Dep {
  id: string;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  source_revision_config: Record<string, unknown>;
}

const FAST = [
  { status: 'QUEUED', durationMs: 20 },
  { status: 'DEPLOYING', durationMs: 20 },
  { status: 'DEPLOYED', durationMs: 0 },
];

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ timeline: FAST, commitSha: 'a'.repeat(40) });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const getDep = async (id: string) => (await call(sim, 'GET', `/v2/deployments/${id}`)).body as Dep;
const deployedAs = (id: string, revision: string | null) =>
  pollUntil(
    () => getDep(id),
    (d) => d.active_revision_id === revision,
  );
const health = async (id: string) =>
  (await call(sim, 'GET', `/agents/${id}/ok`, { base: sim.url })).status;

/** A deployment with two DEPLOYED revisions: v1 (ref main), then v2 (ref feature, live). */
async function twoRevisions(): Promise<{ id: string; v1: string; v2: string }> {
  const created = (await call(sim, 'POST', '/v2/deployments', { body: githubCreate('rb') }))
    .body as Dep;
  const v1 = created.latest_revision_id!;
  await deployedAs(created.id, v1);
  const patched = await call(sim, 'PATCH', `/v2/deployments/${created.id}`, {
    body: { source_revision_config: { repo_ref: 'feature' } },
  });
  const v2 = (patched.body as Dep).latest_revision_id!;
  await deployedAs(created.id, v2);
  return { id: created.id, v1, v2 };
}

describe('POST /v2/deployments/{id}/revisions/{rev}/redeploy', () => {
  it('creates a revision replaying the old source, following the normal timeline', async () => {
    const { id, v1, v2 } = await twoRevisions();
    // The replay's own timeline: long enough to see it before it is live.
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 60_000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const answer = await call(sim, 'POST', `/v2/deployments/${id}/revisions/${v1}/redeploy`);
    expect(answer.status).toBe(200);
    const dep = answer.body as Dep;
    const v3 = dep.latest_revision_id!;
    expect([v1, v2]).not.toContain(v3);
    // Not live yet: the new revision goes through the normal timeline first.
    expect(dep.active_revision_id).toBe(v2);
    const [newest, , oldest] = sim.revisions(id);
    expect(newest!.id).toBe(v3);
    expect(newest!.status).toBe('QUEUED');
    expect(newest!.source_revision_config).toEqual(oldest!.source_revision_config);
    expect(newest!.source_revision_config.repo_ref).toBe('main');
    expect((await getDep(id)).active_revision_id).toBe(v2);
  });

  it('answers 404 for an unknown revision, 400 for one that never deployed, 405 for GET', async () => {
    const { id } = await twoRevisions();
    const unknown = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    const missing = await call(sim, 'POST', `/v2/deployments/${id}/revisions/${unknown}/redeploy`);
    expect(missing).toMatchObject({
      status: 404,
      body: { detail: expect.stringContaining(unknown) },
    });

    sim.queueTimeline([{ status: 'BUILD_FAILED', durationMs: 0 }]);
    const failed = (
      await call(sim, 'PATCH', `/v2/deployments/${id}`, {
        body: { source_revision_config: { repo_ref: 'broken' } },
      })
    ).body as Dep;
    const refused = await call(
      sim,
      'POST',
      `/v2/deployments/${id}/revisions/${failed.latest_revision_id}/redeploy`,
    );
    expect(refused).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining('BUILD_FAILED') },
    });
    expect(sim.revisions(id)).toHaveLength(3);

    const get = await call(sim, 'GET', `/v2/deployments/${id}/revisions/${unknown}/redeploy`);
    expect(get.status).toBe(405);
  });
});

describe('per-revision agent health', () => {
  it('answers as the live revision does; a redeploy inherits the replayed revision', async () => {
    sim.queueRevisionAgent({}); // v1: as the deployment (healthy)
    sim.queueRevisionAgent({ healthy: false }); // v2: unhealthy
    const { id, v1 } = await twoRevisions();
    expect(await health(id)).toBe(503);

    await call(sim, 'POST', `/v2/deployments/${id}/revisions/${v1}/redeploy`);
    const v3 = (await getDep(id)).latest_revision_id;
    await deployedAs(id, v3);
    expect(await health(id)).toBe(200);

    // Set directly on a revision: the live one answers 503 again.
    sim.revisionAgent(id, v3!).healthy = false;
    expect(await health(id)).toBe(503);
    // The deployment-wide count of 503s still applies when the revision says nothing.
    sim.revisionAgent(id, v3!).healthy = undefined;
    sim.agent(id).unhealthyCount = 1;
    expect([await health(id), await health(id)]).toEqual([503, 200]);
  });
});
