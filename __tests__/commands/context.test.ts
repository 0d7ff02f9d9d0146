/**
 * What the commands share (src/commands/context.ts), with fakes: the deployment's outputs and
 * its record, the agent server URL without its credentials, the failure as one error, the log
 * tail (or the hint when the install offers no logs), and a best-effort wait that is bounded.
 */
import { describe, expect, it } from '@jest/globals';
import {
  agentUrlOf,
  bestEffortWithin,
  fail,
  setDeploymentOutputs,
  showLogTail,
} from '../../src/commands/context.js';
import { ActionError } from '../../src/lib/errors.js';
import { deploymentFixture, FakeClock } from '../helpers/fakes.js';
import { FakePlane, makeConfig } from '../deployment/upsert-plane.js';
import { fakeRun, quietly } from './run-context.js';

class LogPlane extends FakePlane {
  logs: string[] | undefined = undefined;
  override async getRevisionLogs() {
    return this.logs && { logs: this.logs.map((message) => ({ message })), next_offset: null };
  }
  redeployRevision(): never {
    throw new Error('not used');
  }
  deleteDeployments(): never {
    throw new Error('not used');
  }
}

function run() {
  const clock = new FakeClock();
  const plane = new LogPlane(clock);
  return { ...fakeRun(makeConfig(), plane, clock), plane };
}

describe('the shared steps of the commands', () => {
  it('sets the IDs, name, UI page and URL as outputs and in the record', async () => {
    const { ctx, outputs, report } = run();
    const deployment = deploymentFixture({ url: 'https://agent.example.com/', tenant_id: 't-9' });
    await quietly(async () =>
      setDeploymentOutputs(ctx, deployment, { revisionId: 'rev-3', created: true }),
    );
    const uiUrl = 'https://smith.langchain.com/o/t-9/host/deployments/dep-1';
    expect(outputs).toEqual({
      'deployment-id': 'dep-1',
      'revision-id': 'rev-3',
      name: 'my-agent',
      created: true,
      'ui-url': uiUrl,
      url: 'https://agent.example.com',
    });
    expect(report).toMatchObject({ deploymentId: 'dep-1', revisionId: 'rev-3', uiUrl });
  });

  it('leaves the credentials of the agent URL out of the outputs and the record, with one warning', async () => {
    const { ctx, outputs, report, logger } = run();
    const deployment = deploymentFixture({ url: 'https://user:s3cret-pw@agent.example.com' });
    await quietly(async () => setDeploymentOutputs(ctx, deployment));
    expect(outputs['url']).toBe('https://agent.example.com');
    expect(report.url).toBe('https://agent.example.com');
    expect(logger.warnings().map((w) => w.properties?.title)).toEqual(['Credentials in the URL']);
    expect(logger.text()).not.toContain('s3cret-pw');
  });

  it('reads the agent URL from custom_url first, then url', () => {
    const both = {
      url: 'https://cloud.example',
      source_config: { custom_url: 'https://own.example/' },
    };
    expect(agentUrlOf(deploymentFixture(both))).toBe('https://own.example');
    expect(agentUrlOf(deploymentFixture({ url: 'https://cloud.example' }))).toBe(
      'https://cloud.example',
    );
    expect(agentUrlOf(deploymentFixture())).toBeUndefined();
  });

  it('reports a failure as one error with its title, and records it', () => {
    const { ctx, report, logger } = run();
    fail(ctx, new ActionError('The build broke.', 'Deployment BUILD_FAILED'));
    expect(report).toMatchObject({ outcome: 'failure', error: 'The build broke.' });
    expect(logger.lines).toEqual([
      {
        level: 'error',
        message: 'The build broke.',
        properties: { title: 'Deployment BUILD_FAILED' },
      },
    ]);
  });

  it('keeps the log tail of a failed build for the reports, or says where the logs are', async () => {
    const withLogs = run();
    withLogs.plane.logs = ['step 1', 'error: no module named agent'];
    await quietly(() => showLogTail(withLogs.ctx, 'dep-1', 'rev-2', 'BUILD_FAILED', true));
    expect(withLogs.report).toMatchObject({ logKind: 'build' });
    expect(withLogs.report.logTail).toContain('error: no module named agent');

    const without = run();
    without.report.uiUrl = 'https://smith.langchain.com/o/t/host/deployments/dep-1';
    await quietly(() => showLogTail(without.ctx, 'dep-1', 'rev-2', 'BUILD_FAILED', false));
    expect(without.report.logTail).toBeUndefined();
    expect(without.report.logsUnavailableHint).toMatch(
      /does not offer revision logs through the API; see the build and deploy logs at https:\/\/smith/,
    );
  });

  it('waits for a best-effort promise at most the given time, and never throws', async () => {
    // A promise that never settles would hold the test until jest's timeout.
    await expect(bestEffortWithin(new Promise<void>(() => undefined), 20)).resolves.toBeUndefined();
    await expect(
      bestEffortWithin(Promise.reject(new Error('GitHub down')), 1000),
    ).resolves.toBeUndefined();
  });
});
