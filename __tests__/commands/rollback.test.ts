/**
 * Rollback, unit level: its inputs, how the reports show a rollback, and the race
 * `rollback-on-failure` must lose (a newer revision has taken over: nothing is redeployed),
 * against the simulator on loopback (the choice of the revision to serve again, and the paging of
 * the revisions list: `__tests__/deployment/target.test.ts`).
 */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { rollBackAfterFailedChecks } from '../../src/commands/rollback.js';
import { ControlPlaneClient } from '../../src/api/client.js';
import type { RunContext } from '../../src/commands/context.js';
import type { DeployConfig } from '../../src/inputs/config.js';
import type { Deployment } from '../../src/api/schemas.js';
import { ActionError } from '../../src/lib/errors.js';
import { Deadline, systemClock } from '../../src/lib/time.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { captureOutputForTests, recordingLogger } from '../helpers/fakes.js';
import { readConfig } from '../../src/inputs/read.js';
import { unusedInputs } from '../../src/inputs/spec.js';
import { actionEnv } from '../helpers/fakes.js';
import {
  headline,
  renderComment,
  renderSummary,
  rollbackSection,
} from '../../src/report/render.js';
import type { RunReport } from '../../src/report/record.js';

const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

function read(inputs: Record<string, string>) {
  return readConfig(actionEnv({ 'api-key': 'key', ...inputs }), { mask: jest.fn() });
}

function problems(inputs: Record<string, string>) {
  const result = read(inputs);
  if (result.ok) throw new Error('expected input problems, got a config');
  return result.problems;
}

describe('rollback inputs', () => {
  it('accepts command rollback by name or deployment-id, with an optional rollback-to', () => {
    const byName = read({ command: 'rollback', name: 'my-agent' });
    expect(byName.ok && byName.config).toMatchObject({ command: 'rollback', name: 'my-agent' });
    expect(byName.ok && byName.config).not.toHaveProperty('rollbackTo');
    const byId = read({ command: 'rollback', 'deployment-id': UUID, 'rollback-to': UUID });
    expect(byId.ok && byId.config).toMatchObject({ deploymentId: UUID, rollbackTo: UUID });
  });

  it('needs name or deployment-id with command rollback', () => {
    const found = problems({ command: 'rollback' });
    expect(found).toEqual([
      { input: 'name', message: expect.stringMatching(/`name` or `deployment-id`.*roll back/) },
    ]);
  });

  it('refuses a rollback-to that is not a revision ID, naming the input', () => {
    const found = problems({ command: 'rollback', name: 'my-agent', 'rollback-to': 'v1.2.0' });
    expect(found.map((p) => p.input)).toEqual(['rollback-to']);
    expect(found[0]!.message).toMatch(/`rollback-to` is "v1\.2\.0".*revision ID/);
  });

  it('refuses a rollback-on-failure that is not a boolean, naming the input', () => {
    const found = problems({ name: 'my-agent', 'rollback-on-failure': 'yes please' });
    expect(found.map((p) => p.input)).toEqual(['rollback-on-failure']);
    expect(found[0]!.message).toMatch(/`rollback-on-failure` is "yes please".*boolean/);
    const on = read({ name: 'my-agent', 'rollback-on-failure': 'TRUE' });
    expect(on.ok && on.config).toMatchObject({ rollbackOnFailure: true });
    const off = read({ name: 'my-agent' });
    expect(off.ok && off.config).toMatchObject({ rollbackOnFailure: false });
  });

  it('notes that rollback-on-failure does nothing without wait', () => {
    const result = read({ name: 'my-agent', 'rollback-on-failure': 'true', wait: 'false' });
    expect(result.ok && result.notes).toEqual([
      expect.stringMatching(/`rollback-on-failure` is true but `wait` is false/),
    ]);
  });

  it('notes that rollback-to does nothing on a deploy', () => {
    const env = actionEnv({ 'api-key': 'key', name: 'my-agent', 'rollback-to': UUID });
    const result = readConfig(env, { mask: jest.fn() });
    expect(result.ok && unusedInputs(env, result.config)).toEqual([
      expect.stringMatching(/^Input `rollback-to` is set, but `command: deploy` does not use it/),
    ]);
  });
});

describe('reports of a rollback', () => {
  const base: RunReport = {
    command: 'deploy',
    outcome: 'failure',
    name: 'my-agent',
    timeline: [{ status: 'DEPLOYED', at: 1_700_000_000_000 }],
    finishedAt: 1_700_000_100_000,
    error: 'Revision bad failed its checks.',
  };
  const rolledBack: RunReport = {
    ...base,
    rollback: {
      from: 'bad-rev',
      to: 'good-rev',
      revisionId: 'replay-rev',
      reason: 'Health check failed: <url>/ok answered 503',
      outcome: 'restored',
      status: 'DEPLOYED',
      health: 'passed',
      timeline: [
        { status: 'QUEUED', at: 1_700_000_050_000, lastSeenAt: 1_700_000_065_000 },
        { status: 'DEPLOYED', at: 1_700_000_080_000, lastSeenAt: 1_700_000_080_000 },
      ],
    },
  };

  it('names the failed and the restored revision, the reason and the timeline', () => {
    const section = rollbackSection(rolledBack);
    expect(section).toContain('#### Rollback');
    expect(section).toContain('| Failed revision | `bad-rev` |');
    expect(section).toContain('| Restored revision | `good-rev` |');
    expect(section).toContain('| Serving as revision | `replay-rev` |');
    expect(section).toContain('| Its health check | passed |');
    // The reason is untrusted text: escaped.
    expect(section).toContain('&#60;url&#62;/ok answered 503');
    expect(section).not.toContain('<url>');
    // The rollback's timeline: what its checks observed, first and last sighting.
    expect(section).toContain('| `QUEUED` | 2023-11-14 22:14:10 UTC | 2023-11-14 22:14:25 UTC |');
    expect(section).toContain('| `DEPLOYED` | 2023-11-14 22:14:40 UTC | 2023-11-14 22:14:40 UTC |');
    expect(headline(rolledBack)).toBe(
      '❌ Deployment of `my-agent` failed; rolled back to revision `good-rev`',
    );
    expect(renderSummary(rolledBack)).toContain('| Restored revision | `good-rev` |');
    expect(renderComment(rolledBack, '<!-- m -->')).toContain('| Restored revision | `good-rev` |');
    expect(rollbackSection(base)).toBe('');
  });

  it('says when the rollback failed', () => {
    const failed: RunReport = {
      ...rolledBack,
      rollback: { ...rolledBack.rollback!, outcome: 'failed', health: 'failed' },
    };
    expect(rollbackSection(failed)).toContain('| Rollback | **failed** |');
    expect(headline(failed)).toBe('❌ Deployment of `my-agent` failed');
  });

  it('has its own headline for command rollback, without repeating the timeline', () => {
    const command: RunReport = {
      ...rolledBack,
      command: 'rollback',
      outcome: 'success',
      rollback: { ...rolledBack.rollback!, from: 'live-rev' },
    };
    expect(headline(command)).toBe('↩️ `my-agent` was rolled back to revision `good-rev`');
    expect(rollbackSection(command)).toContain('| Was live | `live-rev` |');
    expect(rollbackSection(command)).not.toContain('Status timeline');
    expect(headline({ ...command, outcome: 'failure' })).toBe('❌ Rollback of `my-agent` failed');
  });
});

describe('rollBackAfterFailedChecks: the race with a newer revision', () => {
  let sim: Simulator;
  let restore = () => {};
  beforeAll(async () => {
    const timeline = [
      { status: 'QUEUED', durationMs: 20 },
      { status: 'DEPLOYED', durationMs: 0 },
    ];
    sim = await startSimulator({ timeline });
    restore = captureOutputForTests(() => undefined);
  });
  afterAll(async () => {
    restore();
    await sim.close();
  });

  /** A run whose revision `failed` of a deployment with two revisions reached DEPLOYED and failed its checks. */
  function run() {
    const seeded = sim.seedDeployment({
      name: `race-${Math.random().toString(36).slice(2, 8)}`,
      revisions: [{ status: 'DEPLOYED' }, { status: 'DEPLOYED' }],
    });
    const [failed, previous] = sim.revisions(seeded.id).map((r) => r.id);
    const deployment = seeded as unknown as Deployment;
    const read = readConfig(
      actionEnv({ 'api-key': sim.apiKey, 'control-plane-url': sim.url, name: seeded.name }),
      { mask: jest.fn() },
    );
    if (!read.ok || read.config.command !== 'deploy') throw new Error('a deploy config');
    const config: DeployConfig = {
      ...read.config,
      timeoutSeconds: 30,
      pollIntervalSeconds: 0.05,
      rollbackOnFailure: true,
    };
    const logger = recordingLogger();
    const deadline = new Deadline(systemClock, Date.now() + 30_000);
    const http = { clock: systemClock, deadline, logger, baseDelayMs: 1 };
    const ctx: RunContext<DeployConfig> = {
      config,
      clock: systemClock,
      deadline,
      logger,
      signal: new AbortController().signal,
      http,
      client: new ControlPlaneClient({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        http,
        mask: () => {},
      }),
      state: { report: { command: 'deploy', timeline: [], outcome: 'failure' } },
      output: () => undefined,
    };
    const requested = { revisionId: failed!, previousRevisionId: previous! };
    const rollBack = () =>
      rollBackAfterFailedChecks(
        ctx,
        deployment,
        undefined,
        requested,
        new ActionError('health check failed'),
      );
    return { seeded, failed: failed!, previous: previous!, rollBack, logger };
  }

  const redeploys = () => sim.requests.filter((r) => /\/redeploy$/.test(r.path));

  it('a newer revision requested since (another run): no redeploy, the error says who took over', async () => {
    const { seeded, failed, previous, rollBack } = run();
    // Another run's update lands after this run's revision failed its checks.
    const other = await fetch(`${sim.url}/v2/deployments/${seeded.id}/revisions`, {
      method: 'POST',
      headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ source_revision_config: { repo_ref: 'other-run' } }),
    });
    const newer = ((await other.json()) as { id: string }).id;
    const before = redeploys().length;
    const error = (await rollBack().catch((e: unknown) => e)) as ActionError;
    expect(error).toBeInstanceOf(ActionError);
    expect(error.message).toContain(`a newer revision (${newer}) has taken over the deployment`);
    expect(error.message).toContain(`since this run requested revision ${failed}`);
    expect(error.message).toContain(`Revision ${previous} of '${seeded.name}' was not redeployed`);
    expect(redeploys().length).toBe(before);
  });

  it('the deployment cannot be read again: no redeploy either (it cannot make sure)', async () => {
    const { seeded, rollBack } = run();
    sim.inject({
      kind: 'status',
      status: 404,
      method: 'GET',
      path: `/v2/deployments/${seeded.id}`,
    });
    const before = redeploys().length;
    const error = (await rollBack().catch((e: unknown) => e)) as ActionError;
    expect(error.message).toMatch(/could not be read again to make sure no newer revision/);
    expect(redeploys().length).toBe(before);
  });

  it('still the latest: the rollback goes ahead (the race check lets it through)', async () => {
    const { previous, rollBack, logger } = run();
    const error = (await rollBack().catch((e: unknown) => e)) as ActionError;
    expect(logger.messages('warning').join('\n')).toContain(`rolling back to revision ${previous}`);
    expect(redeploys().at(-1)?.path).toMatch(new RegExp(`/revisions/${previous}/redeploy$`));
    expect(error.title).toBe('Rolled back after failed checks');
  });
});
