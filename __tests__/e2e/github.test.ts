/**
 * End to end: the GitHub side effects of a run on a pull request (the sticky PR comment and
 * the GitHub deployment of `environment`) against a fake GitHub API, reached through
 * `GITHUB_API_URL` as on a GitHub Enterprise runner, plus the step summary.
 */
import { HEAD_SHA, PR_EVENT } from './deploy-support.js';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { ACTIONS_BOT, FakeGithub } from '../helpers/fake-github.js';

const RUN_URL = 'https://github.com/acme/agent/actions/runs/4242';

let github: FakeGithub;

const sim = useSimulator({
  timeline: [
    { status: 'QUEUED', durationMs: 30 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
});

beforeEach(async () => {
  sim.reset();
  github = await FakeGithub.start();
});

afterEach(async () => {
  await github.close();
});

function run(name: string, inputs: Record<string, string> = {}): Promise<RunResult> {
  return runAction({
    event: PR_EVENT,
    ref: 'refs/pull/7/merge',
    sha: 'abcdefabcdefabcdefabcdefabcdefabcdefabcd',
    env: { GITHUB_API_URL: github.url },
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      name,
      'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
      'github-token': 'ghs_test',
      'poll-interval': '0.2',
      timeout: '20',
      ...inputs,
    },
  });
}

const marker = (name: string) => `<!-- langgraph-deploy:${name} -->`;
const errors = (r: RunResult) => r.annotations.filter((a) => a.kind === 'error');
const warnings = (r: RunResult) => r.annotations.filter((a) => a.kind === 'warning');

function expectNoToken(r: RunResult): void {
  expect(r.stdout).toContain('::add-mask::ghs_test');
  expect(r.stdout.replace(/^::add-mask::.*$/gm, '')).not.toContain('ghs_test');
  expect(r.stderr).not.toContain('ghs_test');
  expect(r.summary).not.toContain('ghs_test');
}

describe('pull-request comment', () => {
  it('creates one comment, then updates it on the next run', async () => {
    const first = await run('gh-sticky');

    expect(first.code).toBe(0);
    expect(warnings(first)).toEqual([]);
    // GITHUB_API_URL was honoured: the calls reached the fake, with the token.
    expect(github.requests.length).toBeGreaterThan(0);
    expect(github.requests.every((q) => q.authorized)).toBe(true);
    expect(github.requestsTo('POST', '/repos/acme/agent/issues/7/comments')).toHaveLength(1);
    expect(github.comments).toHaveLength(1);
    const comment = github.comments[0]!;
    expect(comment.user.login).toBe(ACTIONS_BOT.login);
    expect(comment.body).toContain(marker('gh-sticky'));
    expect(comment.body).toContain('`gh-sticky` is deployed');
    expect(comment.body).toContain(first.outputs['url']);
    expect(comment.body).toContain(first.outputs['revision-id']);
    // It leads with the LangSmith page, then the API URL with a curl that sends the key
    // from the reader's environment (never the key).
    const lead = comment.body.indexOf(`(${first.outputs['ui-url']})`);
    expect(lead).toBeGreaterThan(-1);
    expect(lead).toBeLessThan(comment.body.indexOf(first.outputs['url']!));
    expect(lead).toBeLessThan(comment.body.indexOf('| Deployment |'));
    expect(comment.body).toContain(
      `curl -H "X-Api-Key: $LANGSMITH_API_KEY" '${first.outputs['url']}/ok'`,
    );
    expect(comment.body).not.toContain(sim.apiKey);
    expect(first.stdout).toContain('Commented on pull request #7.');
    // The platform builds the PR's head branch.
    expect(sim.requests.find((q) => q.method === 'POST')!.body).toMatchObject({
      source_revision_config: { repo_ref: 'feature/preview' },
    });

    const second = await run('gh-sticky');

    expect(second.code).toBe(0);
    expect(second.outputs['created']).toBe('false');
    expect(github.requestsTo('POST', '/repos/acme/agent/issues/7/comments')).toHaveLength(1);
    expect(
      github.requestsTo('PATCH', `/repos/acme/agent/issues/comments/${comment.id}`),
    ).toHaveLength(1);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain(second.outputs['revision-id']);
    expect(github.comments[0]!.body).not.toContain(first.outputs['revision-id']);
    expect(second.stdout).toContain('Updated the comment on pull request #7.');
    expectNoToken(second);
  });

  it("never touches another author's comment that carries the same marker", async () => {
    const foreign = github.addComment(
      7,
      `${marker('gh-foreign')}\n### ✅ \`gh-foreign\` is deployed (copied by hand)`,
      { login: 'mallory', type: 'User' },
    );
    const before = { ...foreign };

    const r = await run('gh-foreign');

    expect(r.code).toBe(0);
    expect(github.requestsTo('PATCH', /\/issues\/comments\//)).toEqual([]);
    expect(github.comments.find((c) => c.id === foreign.id)).toEqual(before);
    expect(github.comments).toHaveLength(2);
    const ours = github.comments.find((c) => c.id !== foreign.id)!;
    expect(ours.user.login).toBe(ACTIONS_BOT.login);
    expect(ours.body).toContain(marker('gh-foreign'));
  });

  it.each([
    { refused: 'creating the comment', method: 'POST' },
    { refused: 'listing the comments', method: 'GET' },
  ])(
    'a 403 on $refused is a warning naming pull-requests: write; the run succeeds',
    async ({ method }) => {
      github.failOn(method, '/repos/acme/agent/issues/7/comments', 403);

      const r = await run('gh-forbidden');

      expect(r.code).toBe(0);
      expect(errors(r)).toEqual([]);
      expect(github.requestsTo(method, '/repos/acme/agent/issues/7/comments')).toHaveLength(1);
      expect(warnings(r)).toHaveLength(1);
      expect(warnings(r)[0]!.props).toBe('title=PR comment not updated');
      expect(warnings(r)[0]!.message).toContain('pull request #7');
      expect(warnings(r)[0]!.message).toContain('`permissions: pull-requests: write`');
      expect(github.comments).toEqual([]);
      expect(r.outputs['status']).toBe('DEPLOYED');
      expectNoToken(r);
    },
  );
});

describe('GitHub deployment of `environment`', () => {
  it('marks the preview in progress, then success with the agent and run URLs', async () => {
    // Statuses long enough (vs. poll-interval 0.2 s) to be seen, for the summary's timeline,
    // also on a loaded machine (the GitHub deployment is created before the first check).
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 2000 },
      { status: 'BUILDING', durationMs: 800 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const r = await run('gh-env-ok', { environment: 'preview-pr-7' });

    expect(r.code).toBe(0);
    expect(warnings(r)).toEqual([]);
    expect(github.deployments).toHaveLength(1);
    const deployment = github.deployments[0]!;
    expect(github.requestsTo('POST', '/repos/acme/agent/deployments')[0]!.body).toMatchObject({
      ref: HEAD_SHA,
      environment: 'preview-pr-7',
      required_contexts: [],
      auto_merge: false,
      transient_environment: true,
      production_environment: false,
    });
    expect(deployment.sha).toBe(HEAD_SHA);
    expect(deployment.statuses.map((s) => s.state)).toEqual(['in_progress', 'success']);
    // The page a reviewer can open (the agent server's API URL answers 401 in a browser).
    expect(r.outputs['ui-url']).toMatch(/\/host\/deployments\//);
    expect(deployment.statuses[1]).toMatchObject({
      environment_url: r.outputs['ui-url'],
      log_url: RUN_URL,
    });
    expect(deployment.statuses[1]!.environment_url).not.toBe(r.outputs['url']);
    expect(deployment.statuses[0]!.log_url).toBe(RUN_URL);

    // The step summary: name, status, URL and the timeline.
    expect(r.summary).toContain('`gh-env-ok` is deployed');
    expect(r.summary).toMatch(/\| Status \| \*\*`DEPLOYED`\*\* \|/);
    expect(r.summary).toContain(`[${r.outputs['url']}](${r.outputs['url']})`);
    expect(r.summary).toContain('#### Status timeline');
    const timeline = r.summary.split('#### Status timeline')[1]!;
    expect(timeline.indexOf('`QUEUED`')).toBeGreaterThan(-1);
    expect(timeline.indexOf('`BUILDING`')).toBeGreaterThan(timeline.indexOf('`QUEUED`'));
    expect(timeline.indexOf('`DEPLOYED`')).toBeGreaterThan(timeline.indexOf('`BUILDING`'));
    expectNoToken(r);
  });

  it('a 403 on creating the deployment is a warning naming deployments: write', async () => {
    github.failOn('POST', '/repos/acme/agent/deployments', 403);

    const r = await run('gh-env-forbidden', { environment: 'preview-pr-7' });

    expect(r.code).toBe(0);
    expect(warnings(r)).toHaveLength(1);
    expect(warnings(r)[0]!.props).toBe('title=GitHub deployment not updated');
    expect(warnings(r)[0]!.message).toContain('preview-pr-7');
    expect(warnings(r)[0]!.message).toContain('`permissions: deployments: write`');
    expect(github.requestsTo('POST', /\/statuses$/)).toEqual([]);
    // The warning is repeated in the PR comment and the summary.
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain('Could not create a GitHub deployment');
    expect(r.summary).toContain('Could not create a GitHub deployment');
  });

  it('marks it failure when the build fails', async () => {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);

    const r = await run('gh-env-fail', { environment: 'preview-pr-7' });

    expect(r.code).toBe(1);
    expect(r.outputs['status']).toBe('BUILD_FAILED');
    expect(github.deployments).toHaveLength(1);
    expect(github.deployments[0]!.statuses.map((s) => s.state)).toEqual(['in_progress', 'failure']);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]!.body).toContain('The build of `gh-env-fail` failed');
    expect(github.comments[0]!.body).toContain('BUILD_FAILED');
    expect(r.summary).toContain('The build of `gh-env-fail` failed');
  });

  it('on delete marks the environment inactive and says so in the PR comment', async () => {
    const deployed = await run('gh-env-gone', { environment: 'preview-pr-7' });
    expect(deployed.code).toBe(0);
    const commentId = github.comments[0]!.id;

    const r = await run('gh-env-gone', { command: 'delete', environment: 'preview-pr-7' });

    expect(r.code).toBe(0);
    expect(warnings(r)).toEqual([]);
    expect(r.outputs['status']).toBe('DELETED');
    expect(sim.deployments().map((d) => d.name)).not.toContain('gh-env-gone');
    expect(github.deployments).toHaveLength(1);
    expect(github.deployments[0]!.statuses.map((s) => s.state)).toEqual([
      'in_progress',
      'success',
      'inactive',
    ]);
    expect(github.comments).toHaveLength(1);
    expect(
      github.requestsTo('PATCH', `/repos/acme/agent/issues/comments/${commentId}`),
    ).toHaveLength(1);
    expect(github.comments[0]!.body).toContain(marker('gh-env-gone'));
    expect(github.comments[0]!.body).toContain('The preview deployment was removed.');
    expect(r.summary).toContain('`gh-env-gone` was deleted');
  });
});
