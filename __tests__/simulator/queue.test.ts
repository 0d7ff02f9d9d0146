/** The simulator's queue of revisions (`queueBehind`) and its interruption endpoint. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import {
  currentStatus,
  endTime,
  statusHistory,
  type RevisionRecord,
} from '../../simulator/timeline.js';
import { call, githubCreate } from './helpers.js';

function record(steps: [string, number][], startAt = 1000): RevisionRecord {
  return {
    id: `r-${startAt}`,
    source: 'github',
    createdAt: startAt,
    startAt,
    steps: steps.map(([status, durationMs]) => ({ status, durationMs })),
    config: {
      repo_ref: 'main',
      langgraph_config_path: 'langgraph.json',
      image_uri: null,
      source_tarball_path: null,
      repo_commit_sha: null,
    },
  };
}

describe('timeline of a revision queued behind another', () => {
  const long: [string, number][] = [
    ['BUILDING', 500],
    ['DEPLOYED', 0],
  ];

  it('stays QUEUED until the one ahead ends, then follows its own timeline from there', () => {
    const ahead = record(long, 1000);
    const queued = { ...record(long, 1200), blockedBy: ahead };
    expect(endTime(ahead)).toBe(1500);
    expect(currentStatus(queued, 1400).status).toBe('QUEUED');
    expect(statusHistory(queued, 1600)).toEqual([
      { status: 'QUEUED', at: 1200 },
      { status: 'BUILDING', at: 1500 },
    ]);
    expect(currentStatus(queued, 2000).status).toBe('DEPLOYED');
  });

  it('starts at once when the one ahead is interrupted', () => {
    const ahead = { ...record(long, 1000), interruptedAt: 1250 };
    const queued = { ...record(long, 1200), blockedBy: ahead };
    expect(currentStatus(ahead, 1300)).toEqual({ status: 'INTERRUPTED', at: 1250 });
    expect(statusHistory(queued, 1300)).toEqual([
      { status: 'QUEUED', at: 1200 },
      { status: 'BUILDING', at: 1250 },
    ]);
    expect(currentStatus(queued, 1750).status).toBe('DEPLOYED');
  });

  it('waits for ever behind a revision that never ends', () => {
    const ahead = record([['BUILDING', 0]], 1000);
    const queued = { ...record(long, 1100), blockedBy: ahead };
    expect(endTime(ahead)).toBe(Infinity);
    expect(currentStatus(queued, 1e12).status).toBe('QUEUED');
  });
});

describe('queueBehind over HTTP', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({
      queueBehind: true,
      timeline: [
        { status: 'BUILDING', durationMs: 60_000 },
        { status: 'DEPLOYED', durationMs: 0 },
      ],
    });
  });
  afterAll(async () => sim.close());

  type Dep = { id: string; latest_revision_id: string };
  const patch = async (id: string, ref: string) =>
    (
      await call(sim, 'PATCH', `/v2/deployments/${id}`, {
        body: { source_revision_config: { repo_ref: ref } },
      })
    ).body as Dep;
  const statuses = (id: string) => sim.revisions(id).map((r) => r.status);

  it('queues a new revision behind the one in progress; interrupting that one lets it start', async () => {
    const dep = (await call(sim, 'POST', '/v2/deployments', { body: githubCreate('queued') }))
      .body as Dep;
    const first = dep.latest_revision_id;
    const second = (await patch(dep.id, 'a')).latest_revision_id;
    expect(statuses(dep.id)).toEqual(['QUEUED', 'BUILDING']); // newest first
    // A third push: the second, still waiting, is superseded; the third waits.
    const third = (await patch(dep.id, 'b')).latest_revision_id;
    expect(statuses(dep.id)).toEqual(['QUEUED', 'SKIPPED', 'BUILDING']);

    const answer = await call(
      sim,
      'POST',
      `/v2/deployments/${dep.id}/revisions/${first}/interruption`,
    );
    expect(answer.status).toBe(200);
    expect((answer.body as { status: string }).status).toBe('INTERRUPTED');
    const now = sim.revisions(dep.id);
    expect(now.find((r) => r.id === first)?.status).toBe('INTERRUPTED');
    expect(now.find((r) => r.id === second)?.status).toBe('SKIPPED');
    expect(now.find((r) => r.id === third)?.status).toBe('BUILDING');
  });

  it('answers 409 for a revision that has ended, 404 for an unknown one, 405 for GET', async () => {
    const dep = (await call(sim, 'POST', '/v2/deployments', { body: githubCreate('ended') }))
      .body as Dep;
    const rev = dep.latest_revision_id;
    const path = `/v2/deployments/${dep.id}/revisions/${rev}/interruption`;
    expect((await call(sim, 'POST', path)).status).toBe(200);
    expect((await call(sim, 'POST', path)).status).toBe(409);
    expect((await call(sim, 'GET', path)).status).toBe(405);
    const unknown = `/v2/deployments/${dep.id}/revisions/00000000-0000-4000-8000-000000000000/interruption`;
    expect((await call(sim, 'POST', unknown)).status).toBe(404);
  });
});
