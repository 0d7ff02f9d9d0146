/** The simulator routes `command: prune` uses: the bulk delete and GitHub's pull requests. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { call } from './helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(async () => {
  await sim.close();
});
beforeEach(() => sim.reset());

const query = (ids: string[]) =>
  `/v2/deployments?${ids.map((id) => `deployment_ids=${id}`).join('&')}`;
const names = () =>
  sim
    .deployments()
    .map((d) => d.name)
    .sort();

describe('DELETE /v2/deployments (bulk)', () => {
  it('deletes every listed deployment: 200 with the deleted IDs', async () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => sim.seedDeployment({ name }));
    const answer = await call(sim, 'DELETE', query([a!.id, b!.id]));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ deleted: [a!.id, b!.id], failed: [] });
    expect(names()).toEqual([c!.name]);
  });

  it('refused deletions: 207 naming them, the others deleted; alone a refusal is 409', async () => {
    const [a, b] = ['a', 'b'].map((name) => sim.seedDeployment({ name }));
    sim.refuseDeletion(b!.id, 'locked');
    const answer = await call(sim, 'DELETE', query([a!.id, b!.id]));
    expect(answer.status).toBe(207);
    expect(answer.body).toEqual({
      deleted: [a!.id],
      failed: [{ deployment_id: b!.id, detail: 'locked' }],
    });
    expect(names()).toEqual(['b']);
    expect((await call(sim, 'DELETE', `/v2/deployments/${b!.id}`)).status).toBe(409);
  });

  it('an unknown ID refuses the whole call with 404; nothing is deleted', async () => {
    const a = sim.seedDeployment({ name: 'a' });
    const unknown = '00000000-0000-4000-8000-0000000000ff';
    const answer = await call(sim, 'DELETE', query([a.id, unknown]));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ detail: `Deployment ID ${unknown} not found.` });
    expect(names()).toEqual(['a']);
  });

  it('422 without IDs, with more than 100, or with a comma-separated list (not a UUID)', async () => {
    const [a, b] = ['a', 'b'].map((name) => sim.seedDeployment({ name }));
    expect((await call(sim, 'DELETE', '/v2/deployments')).status).toBe(422);
    const many = Array.from(
      { length: 101 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const tooMany = await call(sim, 'DELETE', query(many));
    expect(tooMany.status).toBe(422);
    expect(tooMany.text).toContain('too_long');
    const commas = await call(sim, 'DELETE', `/v2/deployments?deployment_ids=${a!.id},${b!.id}`);
    expect(commas.status).toBe(422);
    expect(commas.text).toContain('uuid_parsing');
    expect(names()).toEqual(['a', 'b']);
  });
});

describe('GitHub pull requests under /github', () => {
  const github = (path: string, auth = true) =>
    fetch(`${sim.url}/github${path}`, { headers: auth ? { authorization: 'token ghs_x' } : {} });

  it('answers the state, merged flag and title of a pull request; 404 for others', async () => {
    sim.github.setPullRequest('acme/agent', 12, {
      state: 'closed',
      merged: true,
      title: 'Ship it',
    });
    sim.github.setPullRequest('acme/agent', 13, { state: 'open' });
    const merged = await github('/repos/acme/agent/pulls/12');
    expect(merged.status).toBe(200);
    expect(await merged.json()).toMatchObject({
      number: 12,
      state: 'closed',
      merged: true,
      title: 'Ship it',
    });
    expect(await (await github('/repos/acme/agent/pulls/13')).json()).toMatchObject({
      state: 'open',
      merged: false,
      merged_at: null,
    });
    expect((await github('/repos/acme/agent/pulls/14')).status).toBe(404);
    expect((await github('/repos/acme/agent')).status).toBe(200);
    expect((await github('/repos/acme/other')).status).toBe(404);
    expect((await github('/repos/acme/other/pulls/12')).status).toBe(404);
  });

  it('needs an Authorization header, not the LangSmith key, and is logged and faultable', async () => {
    sim.github.setPullRequest('acme/agent', 1, { state: 'open' });
    expect((await github('/repos/acme/agent/pulls/1', false)).status).toBe(401);
    sim.inject({ kind: 'status', path: '/github/repos/acme/agent/pulls/1', status: 500 });
    expect((await github('/repos/acme/agent/pulls/1')).status).toBe(500);
    expect((await github('/repos/acme/agent/pulls/1')).status).toBe(200);
    expect(
      sim.requests
        .filter((r) => r.path === '/github/repos/acme/agent/pulls/1')
        .map((r) => r.status),
    ).toEqual([401, 500, 200]);
    sim.reset();
    expect((await github('/repos/acme/agent/pulls/1')).status).toBe(404);
  });
});
