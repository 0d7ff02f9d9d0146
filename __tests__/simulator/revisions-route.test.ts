/**
 * The simulator speaks the second round of platform facts: `POST /v2/deployments/{id}/revisions`
 * (the API reference's create-revision call, answered with the revision), `…/interrupt` beside
 * `…/interruption`, deployments made by `langgraph deploy` (`internal_docker`) that a PATCH
 * with `revision_source: internal_source` turns into remote builds, the five deployment types,
 * and installs without the revisions endpoint (405).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { call, githubCreate } from './helpers.js';

interface Dep {
  id: string;
  source: string;
  latest_revision_id: string | null;
  secrets: { name: string; value: string }[];
}
const LONG = [
  { status: 'QUEUED', durationMs: 60_000 },
  { status: 'DEPLOYED', durationMs: 0 },
];

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ timeline: LONG });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function create(body: unknown): Promise<Dep> {
  const answer = await call(sim, 'POST', '/v2/deployments', { body });
  expect(answer.status).toBe(201);
  return answer.body as Dep;
}

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
  it.each(['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'])('accepts %s', async (type) => {
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
});
