/**
 * What a run leaves on GitHub, against the fake GitHub API on loopback: the GitHub deployment
 * (its statuses, the ID its payload records, the environment marked inactive) and the one PR
 * comment (its marker, whose comment it is, created or updated in place).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  commentMarker,
  createGithubDeployment,
  deactivateEnvironment,
  isOwnComment,
  recordedDeploymentIds,
  startsWithMarker,
  upsertPrComment,
} from '../../src/github/side-effects.js';
import { renderComment } from '../../src/report/render.js';
import type { RunReport } from '../../src/report/record.js';
import { resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';
import { FakeGithub } from '../helpers/fake-github.js';
import {
  captureOutputForTests,
  githubContext,
  HEAD_SHA,
  PUSH_SHA,
  recordingLogger,
} from '../helpers/fakes.js';
import { splitFences } from '../report/support.js';

const RUN_URL = 'https://github.com/octo/app/actions/runs/42';
const DEPLOYMENTS = '/repos/octo/app/deployments';
const STATUSES = /^\/repos\/octo\/app\/deployments\/\d+\/statuses$/;

let fake: FakeGithub;
beforeEach(async () => {
  fake = await FakeGithub.start();
});
afterEach(async () => {
  await fake.close();
  resetSecretsForTests();
});

async function start(options: { pr?: boolean } = {}, logger = recordingLogger()) {
  const run = {
    config: { githubToken: 'ghs_test', github: githubContext(fake.url, options) },
    logger,
  };
  const deployment = await createGithubDeployment(run, 'pr-7', { name: 'pr-7-agent' });
  await deployment?.setStatus('in_progress');
  return { deployment, logger };
}

describe('GithubDeployment', () => {
  it("records the LangSmith deployment's ID in the payload, which prune reads back", async () => {
    const run = {
      config: { githubToken: 'ghs_test', github: githubContext(fake.url, {}) },
      logger: recordingLogger(),
    };
    await createGithubDeployment(run, 'preview-7', { deploymentId: 'dep-123' });
    const [create] = fake.requestsTo('POST', DEPLOYMENTS);
    expect((create!.body as { payload: unknown }).payload).toEqual({
      langsmith_deployment_id: 'dep-123',
    });
    fake.addDeployment('preview-7', { payload: '{"langsmith_deployment_id": "dep-from-json"}' });
    fake.addDeployment('preview-7', { payload: { other: 'dep-x' } });
    const read = await recordedDeploymentIds(run, 'preview-7');
    expect(read).toEqual(new Set(['dep-123', 'dep-from-json']));
  });

  it('creates a transient preview for the PR head commit, then in_progress → success', async () => {
    const { deployment, logger } = await start();
    expect(deployment).toBeDefined();
    const [create] = fake.requestsTo('POST', DEPLOYMENTS);
    expect(create!.body).toEqual({
      ref: HEAD_SHA,
      environment: 'pr-7',
      required_contexts: [],
      auto_merge: false,
      description: 'LangSmith deployment pr-7-agent',
      transient_environment: true,
      production_environment: false,
    });
    await deployment!.setStatus('success', {
      environmentUrl: 'https://pr-7-agent.example.com',
      description: 'Deployed revision rev-1',
    });
    const statuses = fake.requestsTo('POST', STATUSES).map((r) => r.body);
    expect(statuses).toEqual([
      { state: 'in_progress', log_url: RUN_URL },
      {
        state: 'success',
        log_url: RUN_URL,
        environment_url: 'https://pr-7-agent.example.com/',
        description: 'Deployed revision rev-1',
      },
    ]);
    expect(fake.deployments[0]!.statuses.map((s) => s.state)).toEqual(['in_progress', 'success']);
    expect(deployment!.id).toBe(fake.deployments[0]!.id);
    expect(logger.warnings()).toHaveLength(0);
  });

  it('outside pull requests deploys GITHUB_SHA and leaves the environment kind to GitHub', async () => {
    await start({ pr: false });
    const body = fake.requestsTo('POST', DEPLOYMENTS)[0]!.body as Record<string, unknown>;
    expect(body['ref']).toBe(PUSH_SHA);
    expect(body).not.toHaveProperty('transient_environment');
    expect(body).not.toHaveProperty('production_environment');
  });

  it('marks a superseded revision inactive and a failure failure', async () => {
    const { deployment } = await start();
    await deployment!.setStatus('inactive', { description: 'Superseded by a newer revision' });
    const other = (await start()).deployment!;
    await other.setStatus('failure', { description: 'BUILD_FAILED' });
    expect(fake.deployments.map((d) => d.statuses.map((s) => s.state))).toEqual([
      ['in_progress', 'inactive'],
      ['in_progress', 'failure'],
    ]);
  });

  it('sends no environment_url that is not http(s) and cuts long descriptions to 140', async () => {
    const { deployment } = await start();
    await deployment!.setStatus('success', {
      environmentUrl: 'javascript:alert(1)',
      description: 'x'.repeat(300),
    });
    const last = fake.requestsTo('POST', STATUSES).at(-1)!.body as Record<string, string>;
    expect(last).not.toHaveProperty('environment_url');
    expect(last['description']).toHaveLength(140);
  });

  it('turns a 403 on create into one warning naming deployments: write', async () => {
    fake.failOn('POST', DEPLOYMENTS, 403);
    const { deployment, logger } = await start();
    expect(deployment).toBeUndefined();
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('deployments: write');
    expect(logger.warnings()[0]!.message).toContain('environment "pr-7"');
    expect(logger.warnings()[0]!.properties?.title).toBe('GitHub deployment not updated');
    expect(fake.requestsTo('POST', STATUSES)).toHaveLength(0);
  });

  it('after a 403 on a status, warns once and stops calling GitHub', async () => {
    fake.failOn('POST', STATUSES, 403);
    const { deployment, logger } = await start();
    expect(deployment).toBeDefined();
    await deployment!.setStatus('success', { environmentUrl: 'https://x.example.com' });
    await deployment!.setStatus('inactive');
    expect(fake.requestsTo('POST', STATUSES)).toHaveLength(1);
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('deployments: write');
  });

  it('warns on a server error without throwing, and keeps trying later statuses', async () => {
    fake.failOn('POST', STATUSES, 500, { times: 1 });
    const { deployment, logger } = await start();
    await deployment!.setStatus('success');
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('HTTP 500');
    expect(fake.deployments[0]!.statuses.map((s) => s.state)).toEqual(['success']);
  });
});

describe('deactivateEnvironment', () => {
  it('marks every deployment of the environment inactive, across pages', async () => {
    const ours = Array.from({ length: 105 }, () => fake.addDeployment('pr-7'));
    const other = fake.addDeployment('production');
    const logger = recordingLogger();
    await deactivateEnvironment(
      { config: { githubToken: 'ghs_test', github: githubContext(fake.url) }, logger },
      'pr-7',
    );
    const lists = fake.requestsTo('GET', DEPLOYMENTS);
    expect(lists.map((r) => r.query['environment'])).toEqual(['pr-7', 'pr-7']);
    for (const d of ours) expect(d.statuses.map((s) => s.state)).toEqual(['inactive']);
    expect(ours[0]!.statuses[0]!.log_url).toBe(RUN_URL);
    expect(other.statuses).toEqual([]);
    expect(logger.warnings()).toHaveLength(0);
  });

  it('turns a 403 into one warning naming deployments: write', async () => {
    for (let i = 0; i < 3; i++) fake.addDeployment('pr-7');
    fake.failOn('POST', STATUSES, 403);
    const logger = recordingLogger();
    await expect(
      deactivateEnvironment(
        { config: { githubToken: 'ghs_test', github: githubContext(fake.url) }, logger },
        'pr-7',
      ),
    ).resolves.toBeUndefined();
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('deployments: write');
    expect(logger.warnings()[0]!.message).toContain('3 of 3 not marked');
    expect(fake.requestsTo('POST', STATUSES)).toHaveLength(1);
  });

  it('turns a failed listing into one warning', async () => {
    fake.failOn('GET', DEPLOYMENTS, 403);
    const logger = recordingLogger();
    await deactivateEnvironment(
      { config: { githubToken: 'ghs_test', github: githubContext(fake.url) }, logger },
      'pr-7',
    );
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('deployments: write');
  });
});

const COMMENTS = '/repos/octo/app/issues/7/comments';
const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);

function report(fields: Partial<RunReport> = {}): RunReport {
  return {
    command: 'deploy',
    outcome: 'success',
    name: 'pr-7-agent',
    deploymentId: 'dep-1',
    revisionId: 'rev-1',
    status: 'DEPLOYED',
    url: 'https://pr-7-agent.example.com',
    created: true,
    timeline: [
      { status: 'QUEUED', at: T0 },
      { status: 'DEPLOYED', at: T0 + 60_000 },
    ],
    finishedAt: T0 + 61_000,
    ...fields,
  };
}

/** The comment of `report`, as the reports write it (`commands/context.ts`). */
function commentFor(report: RunReport) {
  const render = (marker: string, url?: string) => renderComment(report, marker, url);
  return {
    key: report.name ?? report.deploymentId,
    updateOnly: report.command === 'delete',
    render,
  };
}

async function upsert(r: RunReport, logger = recordingLogger(), options: { pr?: boolean } = {}) {
  await upsertPrComment(
    { config: { githubToken: 'ghs_test', github: githubContext(fake.url, options) }, logger },
    commentFor(r),
  );
  return logger;
}

describe('renderComment: how a reviewer reaches the deployment', () => {
  const UI = 'https://smith.langchain.com/o/t-1/host/deployments/dep-1';

  it('leads with the LangSmith page, then the API URL with a curl that sends X-Api-Key', () => {
    const body = renderComment(report({ uiUrl: UI }), commentMarker('pr-7-agent'));
    const lines = body.split('\n');
    expect(lines[0]).toBe('<!-- langgraph-deploy:pr-7-agent -->');
    expect(lines[2]).toMatch(/^### /);
    expect(lines[4]).toBe(`**[Open the deployment in LangSmith](${UI})**`);
    expect(body.indexOf(UI)).toBeLessThan(body.indexOf('https://pr-7-agent.example.com'));
    const { fenced } = splitFences(body);
    expect(fenced).toContainEqual([
      `curl -H "X-Api-Key: $LANGSMITH_API_KEY" 'https://pr-7-agent.example.com/ok'`,
    ]);
  });

  it('never puts the key itself in the comment', async () => {
    const key = 'lsv2_pt_0123456789abcdef0123456789abcdef_0123456789';
    setSecret(key);
    await upsert(report({ uiUrl: UI }));
    const body = fake.comments[0]?.body ?? '';
    expect(body).toContain('X-Api-Key: $LANGSMITH_API_KEY');
    expect(body).not.toContain(key);
  });

  it('quotes the URL for the shell (a quote in it is percent-encoded)', () => {
    const body = renderComment(report({ url: "https://a.example.com/x'y" }), 'm');
    expect(body).toContain(`'https://a.example.com/x%27y/ok'`);
  });

  it('shows only what is known: no URL, no curl; a delete shows neither', () => {
    const noUrl = renderComment(report({ uiUrl: UI, url: undefined }), 'm');
    expect(noUrl).toContain('Open the deployment in LangSmith');
    expect(noUrl).not.toContain('curl');
    const deleted = renderComment(
      report({ command: 'delete', outcome: 'deleted', uiUrl: UI }),
      'm',
    );
    expect(deleted).not.toContain('Open the deployment in LangSmith');
    expect(deleted).not.toContain('curl');
  });
});

describe('renderComment', () => {
  it('starts with the marker and shows status, URL and the run link', () => {
    const marker = commentMarker('pr-7-agent');
    expect(marker).toBe('<!-- langgraph-deploy:pr-7-agent -->');
    const body = renderComment(report(), marker, 'https://github.com/octo/app/actions/runs/42');
    expect(body.startsWith(`${marker}\n\n### ✅ \`pr-7-agent\` is deployed`)).toBe(true);
    expect(body).toContain('| Status | **`DEPLOYED`** |');
    expect(body).toContain(`'https://pr-7-agent.example.com/ok'`);
    expect(body).toContain('[workflow run](https://github.com/octo/app/actions/runs/42)');
    expect(body).toContain('| `QUEUED` | 2024-05-01 12:00:00 UTC | 2024-05-01 12:00:00 UTC |');
  });

  it('keeps hostile error text and log lines inert', () => {
    const tail = ['</details><script>alert(1)</script>', '`````'];
    const body = renderComment(
      report({ outcome: 'failure', error: 'x </details><script>', logTail: tail }),
      commentMarker('a'),
    );
    const { outside, fenced } = splitFences(body);
    expect(fenced).toContainEqual(tail);
    expect(outside).not.toContain('<script');
    expect(outside.match(/<\/details>/g)?.length).toBe(outside.match(/<details>/g)?.length);
  });

  it('encodes a marker key that could end the HTML comment', () => {
    expect(commentMarker('a-->b')).toBe('<!-- langgraph-deploy:a--%3Eb -->');
  });
});

describe('isOwnComment', () => {
  const bot = { login: 'github-actions[bot]', type: 'Bot' };
  it('with the workflow token: github-actions[bot] or an app bot acting via its app', () => {
    expect(isOwnComment({ id: 1, user: bot }, undefined)).toBe(true);
    expect(
      isOwnComment(
        {
          id: 1,
          user: { login: 'my-app[bot]', type: 'Bot' },
          performed_via_github_app: { slug: 'my-app' },
        },
        undefined,
      ),
    ).toBe(true);
    expect(isOwnComment({ id: 1, user: { login: 'my-app[bot]', type: 'Bot' } }, undefined)).toBe(
      false,
    );
    expect(isOwnComment({ id: 1, user: { login: 'alice', type: 'User' } }, undefined)).toBe(false);
  });
  it('with a token that may read GET /user: exactly that login', () => {
    expect(isOwnComment({ id: 1, user: { login: 'deployer', type: 'User' } }, 'deployer')).toBe(
      true,
    );
    expect(isOwnComment({ id: 1, user: bot }, 'deployer')).toBe(false);
  });
});

describe('upsertPrComment', () => {
  it('creates one comment, then updates it in place', async () => {
    const logger = await upsert(report({ status: 'BUILDING', outcome: 'started' }));
    expect(fake.requestsTo('POST', COMMENTS)).toHaveLength(1);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]!.body).toContain('<!-- langgraph-deploy:pr-7-agent -->');
    expect(fake.comments[0]!.body).toContain('`BUILDING`');
    expect(fake.requests.every((r) => r.authorized)).toBe(true);

    await upsert(report(), logger);
    expect(fake.requestsTo('POST', COMMENTS)).toHaveLength(1);
    expect(
      fake.requestsTo('PATCH', `/repos/octo/app/issues/comments/${fake.comments[0]!.id}`),
    ).toHaveLength(1);
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]!.body).toContain('**`DEPLOYED`**');
    expect(fake.comments[0]!.body).not.toContain('`BUILDING`');
    expect(logger.warnings()).toHaveLength(0);
  });

  it('keeps one comment per deployment name', async () => {
    await upsert(report());
    await upsert(report({ name: 'pr-7-other' }));
    expect(fake.comments.map((c) => c.body.split('\n')[0])).toEqual([
      '<!-- langgraph-deploy:pr-7-agent -->',
      '<!-- langgraph-deploy:pr-7-other -->',
    ]);
  });

  it('leaves a comment by another author alone, even with the same marker', async () => {
    const foreign = fake.addComment(7, '<!-- langgraph-deploy:pr-7-agent -->\nfake status', {
      login: 'mallory',
      type: 'User',
    });
    await upsert(report());
    expect(fake.requestsTo('PATCH', /\/issues\/comments\//)).toHaveLength(0);
    expect(foreign.body).toBe('<!-- langgraph-deploy:pr-7-agent -->\nfake status');
    expect(fake.comments).toHaveLength(2);
    expect(fake.comments[1]!.user.login).toBe('github-actions[bot]');
  });

  it('leaves its own identity’s comment alone when the marker is not its exact first line', async () => {
    const quoted = [
      'See the bot: <!-- langgraph-deploy:pr-7-agent -->',
      ' <!-- langgraph-deploy:pr-7-agent -->\nindented',
      '<!-- langgraph-deploy:pr-7-agent -->-old\nanother deployment',
      '> <!-- langgraph-deploy:pr-7-agent -->\nquoted',
    ].map((body) => fake.addComment(7, body));
    await upsert(report());
    expect(fake.requestsTo('PATCH', /\/issues\/comments\//)).toHaveLength(0);
    expect(fake.comments).toHaveLength(quoted.length + 1);
    expect(startsWithMarker(fake.comments.at(-1)!.body, commentMarker('pr-7-agent'))).toBe(true);
  });

  it('with a token that may read GET /user, updates only that user’s comment', async () => {
    fake.viewer = 'deployer';
    const botComment = fake.addComment(7, '<!-- langgraph-deploy:pr-7-agent -->\nold');
    const mine = fake.addComment(7, '<!-- langgraph-deploy:pr-7-agent -->\nold', {
      login: 'deployer',
      type: 'User',
    });
    await upsert(report());
    expect(botComment.body).toContain('old');
    expect(mine.body).toContain('**`DEPLOYED`**');
    expect(fake.requestsTo('POST', COMMENTS)).toHaveLength(0);
  });

  it('finds its comment on a later page', async () => {
    for (let i = 0; i < 130; i++) {
      fake.addComment(7, `chatter ${i}`, { login: `user${i % 3}`, type: 'User' });
    }
    const ours = fake.addComment(7, '<!-- langgraph-deploy:pr-7-agent -->\nold');
    fake.addComment(7, 'later chatter', { login: 'user1', type: 'User' });
    await upsert(report());
    const lists = fake.requestsTo('GET', COMMENTS);
    expect(lists.map((r) => [r.query['per_page'], r.query['page'] ?? '1'])).toEqual([
      ['100', '1'],
      ['100', '2'],
    ]);
    expect(fake.requestsTo('POST', COMMENTS)).toHaveLength(0);
    expect(ours.body).toContain('**`DEPLOYED`**');
  });

  it('turns a 403 into exactly one warning naming pull-requests: write, without throwing', async () => {
    fake.failOn('POST', COMMENTS, 403);
    const logger = recordingLogger();
    await expect(upsert(report(), logger)).resolves.toBe(logger);
    expect(logger.warnings()).toHaveLength(1);
    const [warning] = logger.warnings();
    expect(warning!.message).toContain('pull-requests: write');
    expect(warning!.message).toContain('Resource not accessible by integration');
    expect(warning!.message).toContain('pull request #7');
    expect(warning!.properties?.title).toBe('PR comment not updated');
    expect(logger.entries.filter((e) => e.level === 'error')).toHaveLength(0);
  });

  it('turns a 403 on listing into one warning as well', async () => {
    fake.failOn('GET', COMMENTS, 403);
    const logger = await upsert(report());
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('pull-requests: write');
  });

  it('warns (once) on a server error and on a timeout', async () => {
    fake.failOn('PATCH', /\/issues\/comments\//, 502, { message: 'Bad Gateway' });
    fake.addComment(7, '<!-- langgraph-deploy:pr-7-agent -->\nold');
    const logger = await upsert(report());
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]!.message).toContain('HTTP 502');

    fake.hangOn('GET', COMMENTS);
    const slow = recordingLogger();
    await upsertPrComment(
      {
        config: { githubToken: 'ghs_test', github: githubContext(fake.url) },
        logger: slow,
        githubTimeoutMs: 200,
      },
      commentFor(report()),
    );
    expect(slow.warnings()).toHaveLength(1);
    expect(slow.warnings()[0]!.message).toContain('did not answer within 0.2 s');
  });

  it('does nothing outside pull-request events', async () => {
    const logger = await upsert(report(), recordingLogger(), { pr: false });
    expect(fake.requests).toHaveLength(0);
    expect(logger.warnings()).toHaveLength(0);
  });

  it('on delete, updates the comment to say the preview was removed, and creates none', async () => {
    await upsert(report());
    await upsert({
      command: 'delete',
      outcome: 'deleted',
      name: 'pr-7-agent',
      deploymentId: 'dep-1',
      status: 'DELETED',
      timeline: [],
    });
    expect(fake.comments).toHaveLength(1);
    expect(fake.comments[0]!.body).toContain('The preview deployment was removed.');
    expect(fake.comments[0]!.body).not.toContain('is deployed');

    await upsert({ command: 'delete', outcome: 'not_found', name: 'never-deployed', timeline: [] });
    expect(fake.comments).toHaveLength(1);
    expect(fake.requestsTo('POST', COMMENTS)).toHaveLength(1);
  });

  it('redacts registered secrets from the comment', async () => {
    const restore = captureOutputForTests(() => {});
    try {
      setSecret('hunter2-secret');
    } finally {
      restore();
    }
    await upsert(
      report({ outcome: 'failure', error: 'boom hunter2-secret', logTail: ['hunter2-secret'] }),
    );
    const sent = fake.requestsTo('POST', COMMENTS)[0]!.body as { body: string };
    expect(sent.body).not.toContain('hunter2-secret');
    expect(sent.body).toContain('boom ***');
  });

  it('asks GitHub nothing without a token (the callers skip the comment then)', async () => {
    const logger = recordingLogger();
    await upsertPrComment(
      { config: { github: githubContext(fake.url) }, logger },
      commentFor(report()),
    );
    expect(logger.warnings()).toHaveLength(0);
    expect(fake.requests).toHaveLength(0);
  });
});
