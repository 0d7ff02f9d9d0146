import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  createGithubDeployment,
  deactivateEnvironment,
  recordedDeploymentIds,
} from '../../src/github/github-deployment.js';
import { FakeGithub } from '../helpers/fake-github.js';
import { githubContext, HEAD_SHA, PUSH_SHA, recordingLogger } from '../helpers/fakes.js';

const RUN_URL = 'https://github.com/octo/app/actions/runs/42';
const DEPLOYMENTS = '/repos/octo/app/deployments';
const STATUSES = /^\/repos\/octo\/app\/deployments\/\d+\/statuses$/;

let fake: FakeGithub;
beforeEach(async () => {
  fake = await FakeGithub.start();
});
afterEach(async () => {
  await fake.close();
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
    expect(read).toEqual({ ok: true, ids: new Set(['dep-123', 'dep-from-json']) });
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
