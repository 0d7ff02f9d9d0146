/**
 * End to end: `command: rollback` and `rollback-on-failure`, running the bundle as the GitHub
 * runner does against the simulator (redeploy, per-revision agent health) and a fake GitHub
 * API (PR comment, deployment statuses).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { FakeGithub } from '../helpers/fake-github.js';
import {
  baseInputs,
  byRoute,
  errors,
  expectExit,
  HEALTH_PATH,
  INTEGRATION_ID,
  mark,
  PR_EVENT,
  SHORT_TIMELINE,
  tempWorkspaces,
  uniqueName,
  warnings,
} from './deploy-support.js';

const REDEPLOY_PATH = /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+\/redeploy$/;

const sim = useSimulator({ timeline: SHORT_TIMELINE });
let github: FakeGithub;
const workspaces = tempWorkspaces('e2e-rb-tests');

beforeAll(async () => {
  github = await FakeGithub.start();
});

afterAll(async () => {
  await github.close();
  workspaces.removeAll();
});

beforeEach(() => sim.reset());

/** Seeds `name` with revisions of these statuses (oldest first); returns their IDs. */
function seed(name: string, statuses: string[]): { id: string; revisions: string[] } {
  const dep = sim.seedDeployment({
    name,
    repoUrl: 'https://github.com/acme/agent',
    revisions: statuses.map((status) => ({ status })),
  });
  return {
    id: dep.id,
    revisions: sim
      .revisions(dep.id)
      .map((r) => r.id)
      .reverse(),
  };
}

const live = (id: string) => sim.deployments().find((d) => d.id === id)!.active_revision_id;

function rollback(inputs: Record<string, string>): Promise<RunResult> {
  return runAction({ inputs: baseInputs(sim, { command: 'rollback', ...inputs }) });
}

describe('command: rollback', () => {
  it('serves the newest earlier DEPLOYED revision again, follows it and checks it', async () => {
    const name = uniqueName('rb-default');
    // v1 DEPLOYED, v2 DEPLOYED (live), v3 BUILD_FAILED (never served).
    const { id, revisions } = seed(name, ['DEPLOYED', 'DEPLOYED', 'BUILD_FAILED']);
    const [v1, v2, v3] = revisions as [string, string, string];
    expect(live(id)).toBe(v2);
    const since = mark(sim);

    const r = await rollback({ name });

    expectExit(r, 0);
    expect(errors(r)).toEqual([]);
    const redeploys = byRoute(since.since(), 'POST', REDEPLOY_PATH);
    expect(redeploys.map((q) => q.path)).toEqual([
      `/v2/deployments/${id}/revisions/${v1}/redeploy`,
    ]);
    const replay = r.outputs['revision-id']!;
    expect([v1, v2, v3]).not.toContain(replay);
    expect(r.outputs).toMatchObject({
      'deployment-id': id,
      'rolled-back-to': v1,
      status: 'DEPLOYED',
      name,
      url: sim.agentUrl(id),
    });
    // The platform now serves the replay of v1, and the action checked it answers.
    expect(live(id)).toBe(replay);
    const replayed = sim.revisions(id).find((rev) => rev.id === replay)!;
    const original = sim.revisions(id).find((rev) => rev.id === v1)!;
    expect(replayed.source_revision_config).toEqual(original.source_revision_config);
    expect(byRoute(since.since(), 'GET', HEALTH_PATH).at(-1)?.status).toBe(200);
    expect(r.stdout).toContain(`serves revision ${v1} again (as revision ${replay})`);
    expect(r.summary).toContain(`### ↩️ \`${name}\` was rolled back to revision \`${v1}\``);
    expect(r.summary).toContain(`| Was live | \`${v2}\` |`);
    expect(r.summary).toContain('#### Status timeline');
  });

  it('serves rollback-to by deployment-id and marks the GitHub deployment', async () => {
    const name = uniqueName('rb-to');
    const { id, revisions } = seed(name, ['DEPLOYED', 'DEPLOYED', 'DEPLOYED']);
    const [v1, , v3] = revisions as [string, string, string];
    expect(live(id)).toBe(v3);
    const before = github.deployments.length;

    const r = await runAction({
      env: { GITHUB_API_URL: github.url },
      inputs: baseInputs(sim, {
        command: 'rollback',
        'deployment-id': id,
        'rollback-to': v1,
        environment: 'production',
        'github-token': 'ghs_test',
      }),
    });

    expectExit(r, 0);
    expect(r.outputs['rolled-back-to']).toBe(v1);
    expect(live(id)).toBe(r.outputs['revision-id']);
    const deployment = github.deployments[before]!;
    expect(deployment.environment).toBe('production');
    expect(deployment.statuses.map((s) => [s.state, s.description])).toEqual([
      ['in_progress', undefined],
      ['success', `Rolled back to revision ${v1}`],
    ]);
  });

  it('adopts the revision of a redeploy whose answer was lost instead of asking twice', async () => {
    const name = uniqueName('rb-lost');
    const { id, revisions } = seed(name, ['DEPLOYED', 'DEPLOYED']);
    const [v1] = revisions as [string, string];
    sim.inject({ kind: 'commit-then-reset', method: 'POST', path: REDEPLOY_PATH });
    const since = mark(sim);

    const r = await rollback({ 'deployment-id': id });

    expectExit(r, 0);
    // The platform processed the first request; the action read the deployment and followed
    // that revision: one replay, no second redeploy.
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH)).toHaveLength(1);
    expect(sim.revisions(id)).toHaveLength(3);
    expect(r.outputs['revision-id']).toBe(sim.revisions(id)[0]!.id);
    expect(live(id)).toBe(r.outputs['revision-id']);
    expect(r.outputs['rolled-back-to']).toBe(v1);
  });

  it('with wait false returns after the redeploy with the new revision and its status', async () => {
    const name = uniqueName('rb-nowait');
    sim.setTimeline([
      { status: 'QUEUED', durationMs: 60_000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const { id, revisions } = seed(name, ['DEPLOYED', 'DEPLOYED']);
    const [v1, v2] = revisions as [string, string];

    const r = await rollback({ name, wait: 'false' });

    expectExit(r, 0);
    expect(r.outputs).toMatchObject({ 'rolled-back-to': v1, status: 'QUEUED' });
    expect(r.outputs['revision-id']).toBe(sim.revisions(id)[0]!.id);
    expect(live(id)).toBe(v2);
    expect(r.summary).toContain(`Rollback of \`${name}\` started`);
  });

  it('fails without a redeploy when no earlier revision reached DEPLOYED', async () => {
    const name = uniqueName('rb-none');
    const { id } = seed(name, ['BUILD_FAILED', 'DEPLOYED', 'DEPLOY_FAILED']);
    const since = mark(sim);

    const r = await rollback({ name });

    expectExit(r, 1);
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH)).toEqual([]);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.props).toBe('title=Nothing to roll back to');
    expect(errors(r)[0]!.message).toMatch(
      /has no revision to roll back to.*Nothing was redeployed/,
    );
    expect(r.outputs['rolled-back-to']).toBeUndefined();
    expect(r.outputs['deployment-id']).toBe(id);
  });

  it('fails without a redeploy for an unknown rollback-to', async () => {
    const name = uniqueName('rb-unknown');
    seed(name, ['DEPLOYED', 'DEPLOYED']);
    const unknown = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
    const since = mark(sim);

    const r = await rollback({ name, 'rollback-to': unknown });

    expectExit(r, 1);
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH)).toEqual([]);
    expect(errors(r).map((e) => e.message)).toEqual([
      expect.stringContaining(
        `\`rollback-to\` names revision ${unknown}, which is not one of the 2`,
      ),
    ]);
  });

  it('reports input errors naming the input before any request', async () => {
    const since = mark(sim);
    const noTarget = await rollback({ 'rollback-to': 'v1.2.0' });
    const badFlag = await runAction({
      inputs: baseInputs(sim, { name: 'x', 'rollback-on-failure': 'maybe' }),
    });

    expectExit(noTarget, 1);
    expect(errors(noTarget).map((e) => e.message)).toEqual([
      expect.stringMatching(/Set `name` or `deployment-id`.*roll back/),
      expect.stringMatching(/`rollback-to` is "v1\.2\.0"/),
    ]);
    expectExit(badFlag, 1);
    expect(errors(badFlag).map((e) => e.message)).toEqual([
      expect.stringMatching(/`rollback-on-failure` is "maybe".*boolean/),
    ]);
    expect(since.since()).toEqual([]);
  });
});

describe('rollback-on-failure', () => {
  function deploy(name: string, inputs: Record<string, string> = {}): Promise<RunResult> {
    return runAction({
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        'rollback-on-failure': 'true',
        ...inputs,
      }),
    });
  }

  it('serves the previous revision again when the new one fails its health check', async () => {
    const name = uniqueName('rb-auto');
    const { id, revisions } = seed(name, ['DEPLOYED']);
    const [v1] = revisions as [string];
    // This run's revision refuses the health check at once, with most of `timeout` left.
    sim.inject({ method: 'GET', path: HEALTH_PATH, kind: 'status', status: 401, times: 1 });
    const before = github.deployments.length;
    const since = mark(sim);

    const r = await runAction({
      event: PR_EVENT,
      ref: 'refs/pull/7/merge',
      env: { GITHUB_API_URL: github.url },
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        'rollback-on-failure': 'true',
        environment: 'preview-pr-7',
        'github-token': 'ghs_test',
      }),
    });

    expectExit(r, 1);
    const bad = r.outputs['revision-id']!;
    expect(bad).not.toBe(v1);
    const redeploys = byRoute(since.since(), 'POST', REDEPLOY_PATH);
    expect(redeploys.map((q) => q.path)).toEqual([
      `/v2/deployments/${id}/revisions/${v1}/redeploy`,
    ]);
    const replay = live(id)!;
    expect([v1, bad]).not.toContain(replay);
    expect(byRoute(since.since(), 'GET', HEALTH_PATH).at(-1)?.status).toBe(200);
    expect(r.outputs).toMatchObject({ 'rolled-back-to': v1, status: 'DEPLOYED' });

    // One error naming both revisions and why.
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.props).toBe('title=Rolled back after failed checks');
    const message = errors(r)[0]!.message;
    expect(message).toContain(
      `Revision ${bad} of '${name}' reached DEPLOYED but failed its checks`,
    );
    expect(message).toMatch(/\/ok failed: the agent server refused the API key \(HTTP 401\)/);
    expect(message).toContain(`revision ${v1}, which was live before this run, serves again`);
    expect(message).toContain(`as new revision ${replay}, DEPLOYED, health check passed`);
    expect(warnings(r).map((w) => w.props)).toContain('title=Rolling back');

    // Summary, PR comment and GitHub deployment statuses show the rollback.
    expect(r.summary).toContain(`rolled back to revision \`${v1}\``);
    expect(r.summary).toContain(`| Failed revision | \`${bad}\` |`);
    expect(r.summary).toContain(`Status timeline of revision \`${replay}\``);
    const comment = github.comments.find((c) => c.body.includes(`langgraph-deploy:${name}`));
    expect(comment?.body).toContain(`| Restored revision | \`${v1}\` |`);
    const statuses = github.deployments[before]!.statuses;
    expect(statuses.map((s) => [s.state, s.description])).toEqual([
      ['in_progress', undefined],
      ['in_progress', `Checks failed; rolling back to revision ${v1}`],
      ['failure', `Checks failed; rolled back to revision ${v1}`],
    ]);
  });

  it('does not roll back when another run has requested a newer revision meanwhile', async () => {
    const name = uniqueName('rb-newer');
    const { id, revisions } = seed(name, ['DEPLOYED']);
    const [v1] = revisions as [string];
    sim.queueRevisionAgent({ healthy: false }); // the revision this run creates
    sim.queueRevisionAgent({ healthy: false }); // the other run's, failing too
    // While this run's health check fails (at once: 401), another run asks for a newer revision.
    let other: Promise<number> | undefined;
    let answered = false;
    sim.inject({
      method: 'GET',
      path: HEALTH_PATH,
      kind: 'rewrite',
      times: 1000,
      // 503 until the other run's PATCH is answered, then 401: the check fails at once.
      rewrite: (response) => {
        other ??= fetch(`${sim.url}/v2/deployments/${id}`, {
          method: 'PATCH',
          headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ source_revision_config: { repo_ref: 'main' } }),
        }).then((r) => ((answered = true), r.status));
        return answered ? { ...response, status: 401 } : response;
      },
    });
    const since = mark(sim);
    const r = await deploy(name);
    expectExit(r, 1);
    expect(await other).toBe(200);
    const mine = r.outputs['revision-id']!;
    const newest = sim.deployments().find((d) => d.id === id)!.latest_revision_id;
    expect([v1, mine]).not.toContain(newest);
    // No redeploy of the old revision, and the error names the failed check and the takeover.
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH)).toHaveLength(0);
    expect(r.outputs['rolled-back-to']).toBeUndefined();
    expect(errors(r)).toHaveLength(1);
    const message = errors(r)[0]!.message;
    expect(message).toMatch(/\/ok failed: the agent server refused the API key/);
    expect(message).toContain(
      `No rollback (\`rollback-on-failure\`): a newer revision (${newest}) has taken over the deployment since this run requested revision ${mine}`,
    );
    expect(message).toContain(`Revision ${v1} of '${name}' was not redeployed`);
  });

  it('rolls back after a failed smoke run too', async () => {
    const name = uniqueName('rb-smoke');
    const { id, revisions } = seed(name, ['DEPLOYED']);
    const [v1] = revisions as [string];
    sim.queueRevisionAgent({ run: 'error', errorMessage: 'Graph raised: broken tool' });
    const since = mark(sim);

    const r = await deploy(name, { 'smoke-test': '{"messages": []}' });

    expectExit(r, 1);
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH).map((q) => q.path)).toEqual([
      `/v2/deployments/${id}/revisions/${v1}/redeploy`,
    ]);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.message).toMatch(/failed its checks: .*broken tool/);
    expect(errors(r)[0]!.message).toContain(`Rolled back: revision ${v1}`);
    expect(live(id)).not.toBe(r.outputs['revision-id']);
  });

  it('rolls back after a failed conversation test too', async () => {
    const name = uniqueName('rb-tests');
    const { id, revisions } = seed(name, ['DEPLOYED']);
    const [v1] = revisions as [string];
    const workspace = workspaces.make({
      'langgraph.json': JSON.stringify({
        dependencies: ['.'],
        graphs: { agent: './agent.py:graph' },
      }),
      'agent.py': 'graph = None\n',
      'agent-tests.yaml':
        'cases:\n  - name: answers in French\n    turns:\n' +
        '      - input: {messages: [{role: user, content: "Salut"}]}\n' +
        '        expect: {contains: "Bonjour"}\n',
    });
    const since = mark(sim);
    const r = await runAction({
      workspace,
      inputs: baseInputs(sim, {
        name,
        'integration-id': INTEGRATION_ID,
        'rollback-on-failure': 'true',
        tests: 'agent-tests.yaml',
        'tests-feedback-key': '',
      }),
    });

    expectExit(r, 1);
    expect(r.outputs).toMatchObject({ 'tests-passed': '0', 'tests-failed': '1' });
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH).map((q) => q.path)).toEqual([
      `/v2/deployments/${id}/revisions/${v1}/redeploy`,
    ]);
    expect(r.outputs['rolled-back-to']).toBe(v1);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.message).toContain('answers in French');
    expect(errors(r)[0]!.message).toContain(`Rolled back: revision ${v1}`);
    expect(live(id)).not.toBe(r.outputs['revision-id']);
  });

  it('says so in one error when the rollback fails too', async () => {
    const name = uniqueName('rb-fails');
    const { revisions } = seed(name, ['DEPLOYED']);
    const [v1] = revisions as [string];
    sim.inject({ method: 'GET', path: HEALTH_PATH, kind: 'status', status: 401, times: 1 });
    sim.queueTimeline(SHORT_TIMELINE); // this run's revision
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'DEPLOY_FAILED', durationMs: 0 },
    ]); // the replay of v1

    const r = await deploy(name);

    expectExit(r, 1);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.props).toBe('title=Rollback failed');
    expect(errors(r)[0]!.message).toMatch(
      new RegExp(
        `rollback to revision ${v1}, .*failed too: its new revision \\S+ ended in DEPLOY_FAILED`,
      ),
    );
    expect(r.summary).toContain('| Rollback | **failed** |');
  });

  it('starts no rollback when the failed check used the timeout up, naming command: rollback', async () => {
    const name = uniqueName('rb-late');
    const { id, revisions } = seed(name, ['DEPLOYED']);
    const [v1] = revisions as [string];
    sim.queueRevisionAgent({ healthy: false }); // its health check retries until `timeout`
    const since = mark(sim);

    const r = await deploy(name, { timeout: '3' });

    expectExit(r, 1);
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH)).toEqual([]);
    expect(r.outputs['rolled-back-to']).toBeUndefined();
    expect(errors(r)).toHaveLength(1);
    const message = errors(r)[0]!.message;
    expect(message).toMatch(/\/ok did not answer \{"ok": true\}/);
    expect(message).toMatch(
      /No rollback \(`rollback-on-failure`\): only \S+ s of `timeout` \(3 s\) were left, too little/,
    );
    expect(message).toContain(`roll back with \`command: rollback\``);
    expect(live(id)).not.toBe(v1);
  });

  it('does not roll back a revision that fails to build: the old one still serves', async () => {
    const name = uniqueName('rb-build');
    const { id, revisions } = seed(name, ['DEPLOYED']);
    const [v1] = revisions as [string];
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);
    const since = mark(sim);

    const r = await deploy(name);

    expectExit(r, 1);
    expect(r.outputs['status']).toBe('BUILD_FAILED');
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH)).toEqual([]);
    expect(r.outputs['rolled-back-to']).toBeUndefined();
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.message).toContain(
      `No rollback needed: revision ${v1}, live before this run, still serves.`,
    );
    expect(live(id)).toBe(v1);
  });

  it('on a create says there is nothing to roll back to', async () => {
    const name = uniqueName('rb-create');
    sim.queueRevisionAgent({ healthy: false });
    const since = mark(sim);

    const r = await deploy(name, { timeout: '2' });

    expectExit(r, 1);
    expect(r.outputs['created']).toBe('true');
    expect(byRoute(since.since(), 'POST', REDEPLOY_PATH)).toEqual([]);
    expect(r.annotations.filter((a) => a.kind === 'notice').map((a) => a.message)).toContain(
      '`rollback-on-failure`: this run created the deployment, so there is no earlier revision to roll back to if its checks fail.',
    );
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.message).toMatch(
      /No rollback \(`rollback-on-failure`\): this run created the deployment/,
    );
  });
});
