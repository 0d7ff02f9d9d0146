import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import {
  currentStatus,
  parseTimeline,
  scaleTimeline,
  statusHistory,
  type RevisionRecord,
} from '../../simulator/timeline.js';
import { call, githubCreate, pollUntil } from './helpers.js';

interface Rev {
  id: string;
  status: string;
  created_at: string;
  updated_at: string;
}
interface Dep {
  id: string;
  status: string;
  latest_revision_id: string;
  active_revision_id: string | null;
}

function record(steps: { status: string; durationMs: number }[], startAt = 1000): RevisionRecord {
  return {
    id: 'r',
    source: 'github',
    createdAt: startAt,
    startAt,
    steps,
    config: {
      repo_ref: 'main',
      langgraph_config_path: 'langgraph.json',
      image_uri: null,
      source_tarball_path: null,
      repo_commit_sha: null,
    },
  };
}

describe('timeline arithmetic', () => {
  const steps = [
    { status: 'QUEUED', durationMs: 100 },
    { status: 'BUILDING', durationMs: 200 },
    { status: 'DEPLOYED', durationMs: 5 },
  ];

  it('computes the status and when it began from the start time', () => {
    const rev = record(steps);
    expect(currentStatus(rev, 1000)).toEqual({ status: 'QUEUED', at: 1000 });
    expect(currentStatus(rev, 1099)).toEqual({ status: 'QUEUED', at: 1000 });
    expect(currentStatus(rev, 1100)).toEqual({ status: 'BUILDING', at: 1100 });
    expect(currentStatus(rev, 1299)).toEqual({ status: 'BUILDING', at: 1100 });
    expect(currentStatus(rev, 1300)).toEqual({ status: 'DEPLOYED', at: 1300 });
    // The last step's duration is ignored: it never ends.
    expect(currentStatus(rev, 99_999)).toEqual({ status: 'DEPLOYED', at: 1300 });
  });

  it('cuts the history at the moment a revision was skipped', () => {
    const rev = { ...record(steps), skippedAt: 1150 };
    expect(statusHistory(rev, 1120).map((h) => h.status)).toEqual(['QUEUED', 'BUILDING']);
    expect(statusHistory(rev, 5000)).toEqual([
      { status: 'QUEUED', at: 1000 },
      { status: 'BUILDING', at: 1100 },
      { status: 'SKIPPED', at: 1150 },
    ]);
  });

  it('parses and scales the CLI timeline', () => {
    expect(parseTimeline('QUEUED:1000, BUILDING:3000,DEPLOYED:0')).toEqual([
      { status: 'QUEUED', durationMs: 1000 },
      { status: 'BUILDING', durationMs: 3000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    expect(() => parseTimeline('QUEUED=5')).toThrow(/STATUS:MILLISECONDS/);
    expect(() => parseTimeline('')).toThrow(/at least one step/);
    expect(scaleTimeline([{ status: 'QUEUED', durationMs: 300 }], 10)).toEqual([
      { status: 'QUEUED', durationMs: 3000 },
    ]);
  });
});

describe('revisions over HTTP', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({
      timeline: [
        { status: 'QUEUED', durationMs: 30 },
        { status: 'BUILDING', durationMs: 30 },
        { status: 'DEPLOYING', durationMs: 30 },
        { status: 'DEPLOYED', durationMs: 0 },
      ],
    });
  });
  afterAll(() => sim.close());
  beforeEach(() => sim.reset());

  const getRev = async (dep: Dep, rev = dep.latest_revision_id) =>
    (await call(sim, 'GET', `/v2/deployments/${dep.id}/revisions/${rev}`)).body as Rev;
  const getDep = async (id: string) =>
    (await call(sim, 'GET', `/v2/deployments/${id}`)).body as Dep;

  it('moves a revision along the timeline in order and activates it once DEPLOYED', async () => {
    const dep = (await call(sim, 'POST', '/v2/deployments', { body: githubCreate('moving') }))
      .body as Dep;
    expect(dep.active_revision_id).toBeNull();
    const seen: string[] = [];
    const last = await pollUntil(
      () => getRev(dep),
      (rev) => {
        if (seen.at(-1) !== rev.status) seen.push(rev.status);
        return rev.status === 'DEPLOYED';
      },
    );
    const order = ['QUEUED', 'BUILDING', 'DEPLOYING', 'DEPLOYED'];
    expect(seen.map((s) => order.indexOf(s))).toEqual(
      [...seen.map((s) => order.indexOf(s))].sort(),
    );
    expect(seen.at(-1)).toBe('DEPLOYED');
    // updated_at is when the current status began: created_at + the earlier steps.
    expect(Date.parse(last.updated_at) - Date.parse(last.created_at)).toBe(90);
    expect((await getDep(dep.id)).active_revision_id).toBe(dep.latest_revision_id);
  });

  it('marks an unfinished older revision SKIPPED when a new one is created', async () => {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 60_000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const dep = (await call(sim, 'POST', '/v2/deployments', { body: githubCreate('superseded') }))
      .body as Dep;
    expect((await getRev(dep)).status).toBe('QUEUED');
    const patched = (
      await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
        body: { source_revision_config: { repo_ref: 'next' } },
      })
    ).body as Dep;
    expect((await getRev(dep)).status).toBe('SKIPPED');
    // The queued timeline was used once; the new revision follows the default again.
    const newest = await pollUntil(
      () => getRev(patched),
      (rev) => rev.status === 'DEPLOYED',
    );
    expect(newest.id).toBe(patched.latest_revision_id);
    expect((await getRev(dep)).status).toBe('SKIPPED');
    expect((await getDep(dep.id)).active_revision_id).toBe(patched.latest_revision_id);
  });

  it('leaves finished revisions alone and does not supersede when disabled', async () => {
    const keep = await startSimulator({
      supersede: false,
      timeline: [{ status: 'BUILDING', durationMs: 0 }],
    });
    try {
      const dep = (await call(keep, 'POST', '/v2/deployments', { body: githubCreate('keep') }))
        .body as Dep;
      await call(keep, 'PATCH', `/v2/deployments/${dep.id}`, { body: { secrets: [] } });
      expect(keep.revisions(dep.id).map((r) => r.status)).toEqual(['BUILDING', 'BUILDING']);
    } finally {
      await keep.close();
    }
    const done = sim.seedDeployment({ name: 'done', revisions: [{ status: 'DEPLOYED' }] });
    await call(sim, 'PATCH', `/v2/deployments/${done.id}`, { body: { secrets: [] } });
    expect(sim.revisions(done.id)[1]!.status).toBe('DEPLOYED');
  });

  it('ends in a failure, an unknown status, or never ends, as the timeline says', async () => {
    const cases = [
      [
        { status: 'QUEUED', durationMs: 20 },
        { status: 'BUILD_FAILED', durationMs: 0 },
      ],
      [
        { status: 'DEPLOYING', durationMs: 20 },
        { status: 'DEPLOY_FAILED', durationMs: 0 },
      ],
      [{ status: 'CREATE_FAILED', durationMs: 0 }],
      [
        { status: 'QUEUED', durationMs: 20 },
        { status: 'PAUSED', durationMs: 0 },
      ],
    ];
    for (const [i, steps] of cases.entries()) {
      sim.queueTimeline(steps);
      const dep = (await call(sim, 'POST', '/v2/deployments', { body: githubCreate(`end-${i}`) }))
        .body as Dep;
      const final = steps.at(-1)!.status;
      await pollUntil(
        () => getRev(dep),
        (rev) => rev.status === final,
      );
      expect((await getDep(dep.id)).active_revision_id).toBeNull();
    }
    sim.setTimeline([{ status: 'BUILDING', durationMs: 0 }]);
    const stuck = (await call(sim, 'POST', '/v2/deployments', { body: githubCreate('stuck') }))
      .body as Dep;
    expect((await getRev(stuck)).status).toBe('BUILDING');
  });

  it('lists a deleted deployment as AWAITING_DELETE until the delete delay passes', async () => {
    const slow = await startSimulator({ deleteDelayMs: 400 });
    try {
      const dep = (await call(slow, 'POST', '/v2/deployments', { body: githubCreate('leaving') }))
        .body as Dep;
      expect((await call(slow, 'DELETE', `/v2/deployments/${dep.id}`)).status).toBe(204);
      const during = await call(slow, 'GET', '/v2/deployments?name_contains=leaving');
      expect(during.body).toMatchObject({ resources: [{ id: dep.id, status: 'AWAITING_DELETE' }] });
      expect((await call(slow, 'GET', `/v2/deployments/${dep.id}`)).body).toMatchObject({
        status: 'AWAITING_DELETE',
      });
      const taken = await call(slow, 'POST', '/v2/deployments', { body: githubCreate('leaving') });
      expect(taken.status).toBe(409);
      const gone = await pollUntil(
        () => call(slow, 'GET', `/v2/deployments/${dep.id}`),
        (answer) => answer.status === 404,
      );
      expect(gone.status).toBe(404);
      expect((await call(slow, 'GET', '/v2/deployments')).body).toEqual({
        resources: [],
        offset: 0,
      });

      // A deployment seeded as AWAITING_DELETE also goes after the delay, counted from the
      // first request after the seeding (how long a client takes to start does not matter).
      const seeded = slow.seedDeployment({ name: 'seeded-leaving', status: 'AWAITING_DELETE' });
      expect(slow.deployments()[0]).toMatchObject({ id: seeded.id, status: 'AWAITING_DELETE' });
      const first = await call(slow, 'GET', `/v2/deployments/${seeded.id}`);
      expect(first.body).toMatchObject({ status: 'AWAITING_DELETE' });
      await pollUntil(
        () => call(slow, 'GET', `/v2/deployments/${seeded.id}`),
        (answer) => answer.status === 404,
      );
      expect(slow.deployments()).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it('reports the configured commit SHA on github revisions', async () => {
    const sha = 'a'.repeat(40);
    const withSha = await startSimulator({ commitSha: sha });
    try {
      const dep = (await call(withSha, 'POST', '/v2/deployments', { body: githubCreate('sha') }))
        .body as Dep & { source_revision_config: { repo_commit_sha: string } };
      expect(dep.source_revision_config.repo_commit_sha).toBe(sha);
    } finally {
      await withSha.close();
    }
  });
});
