/**
 * End to end: how a run ends for each revision outcome of INTERFACE.md ("Revision statuses",
 * "After SKIPPED", build and deploy logs, timeout), and a deployment found being deleted.
 */
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import {
  DEFAULT_TENANT_ID,
  startSimulator,
  type Simulator,
  type TimelineStep,
} from '../../simulator/index.js';
import { useSimulator } from '../helpers/simulator.js';
import { BUILD_ERROR, DEPLOY_ERROR } from '../../simulator/logs.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  errors,
  expectExit,
  HEALTH_PATH,
  idOf,
  INTEGRATION_ID,
  LOGS_PATH,
  mark,
  onStdout,
  REPO_URL,
  REVISION_PATH,
  SHORT_TIMELINE,
  uiUrlOf,
  uniqueName,
  warnings,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });

function createInputs(target: Simulator, name: string, extra: Record<string, string> = {}) {
  return baseInputs(target, { name, 'integration-id': INTEGRATION_ID, ...extra });
}

describe('failed revisions', () => {
  const cases: {
    status: string;
    timeline: TimelineStep[];
    logType: 'build' | 'deploy';
    /** A line of the simulator's log tail, and one that comes before it. */
    lastLine: string;
    earlierLine: string;
  }[] = [
    {
      status: 'BUILD_FAILED',
      timeline: [
        { status: 'QUEUED', durationMs: 30 },
        { status: 'BUILDING', durationMs: 30 },
        { status: 'BUILD_FAILED', durationMs: 0 },
      ],
      logType: 'build',
      lastLine: BUILD_ERROR,
      earlierLine: 'Queued for build.',
    },
    {
      status: 'DEPLOY_FAILED',
      timeline: [
        { status: 'QUEUED', durationMs: 30 },
        { status: 'BUILDING', durationMs: 30 },
        { status: 'DEPLOYING', durationMs: 30 },
        { status: 'DEPLOY_FAILED', durationMs: 0 },
      ],
      logType: 'deploy',
      lastLine: DEPLOY_ERROR,
      earlierLine: 'Starting agent server.',
    },
    {
      status: 'CREATE_FAILED',
      timeline: [
        { status: 'CREATING', durationMs: 30 },
        { status: 'CREATE_FAILED', durationMs: 0 },
      ],
      logType: 'build',
      lastLine: `ERROR: failed to create revision: repository ${REPO_URL} is not accessible`,
      earlierLine: 'created for deployment',
    },
  ];

  it.each(cases)(
    '$status: exit 1, an error naming it, the $logType log tail in the log and the summary',
    async ({ status, timeline, logType, lastLine, earlierLine }) => {
      const name = uniqueName(status.toLowerCase().replace('_', '-'));
      sim.queueTimeline(timeline);
      const log = mark(sim);
      const result = await runAction({ inputs: createInputs(sim, name) });
      expectExit(result, 1);

      const id = idOf(sim, name)!;
      const revisionId = sim.revisions(id)[0]!.id;
      expect(result.outputs).toMatchObject({
        'deployment-id': id,
        'revision-id': revisionId,
        status,
      });
      const errorsNamingIt = errors(result).filter(
        (e) => e.message.includes(status) && e.message.includes(revisionId),
      );
      expect(errorsNamingIt).toHaveLength(1);
      expect(errorsNamingIt[0]!.props).toContain(status);

      const requests = log.since();
      const logReads = byRoute(requests, 'POST', LOGS_PATH);
      expect(logReads.map((r) => [r.path, r.body])).toEqual([
        [
          `/v1/projects/${id}/revisions/${revisionId}/${logType}_logs`,
          { order: 'desc', limit: 50 },
        ],
      ]);
      expect(byRoute(requests, 'GET', /\/logs$/)).toEqual([]);
      // The tail, oldest line first, in the log and in the summary.
      const lines = result.stdout.split('\n');
      const last = lines.findIndex((l) => l.includes(lastLine));
      const earlier = lines.findIndex((l) => l.includes(earlierLine));
      expect(last).toBeGreaterThan(-1);
      expect(earlier).toBeGreaterThan(-1);
      expect(earlier).toBeLessThan(last);
      expect(result.summary).toContain(lastLine);
      expect(result.summary).toContain(status);
      // A failed revision is not checked.
      expect(byRoute(requests, 'GET', HEALTH_PATH)).toHaveLength(0);
    },
  );

  it('without a logs endpoint, the error points to ui-url', async () => {
    const noLogs = await startSimulator({ timeline: SHORT_TIMELINE, logsEndpoint: false });
    try {
      const name = uniqueName('nologs');
      noLogs.queueTimeline(cases[0]!.timeline);
      const result = await runAction({ inputs: createInputs(noLogs, name) });
      expectExit(result, 1);
      const id = idOf(noLogs, name)!;
      const uiUrl = uiUrlOf(noLogs, id, DEFAULT_TENANT_ID);
      expect(result.outputs['ui-url']).toBe(uiUrl);
      const failure = errors(result).find((e) => e.message.includes('BUILD_FAILED'));
      expect(failure?.message).toContain(uiUrl);
      expect(byRoute(noLogs.requests, 'POST', LOGS_PATH).map((r) => r.status)).toEqual([404]);
      expect(result.stdout).not.toContain(BUILD_ERROR);
    } finally {
      await noLogs.close();
    }
  });
});

describe('SKIPPED', () => {
  it('a revision superseded while in progress: exit 0 with a warning, no health check', async () => {
    const name = uniqueName('skipped');
    // This run's revision stays QUEUED; the one started from the test supersedes it.
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 60_000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    let superseding: Promise<Response> | undefined;
    const log = mark(sim);
    const result = await runAction({
      inputs: createInputs(sim, name),
      signal: onStdout((stdout) => {
        const started = /\(([0-9a-f-]{36})\); following revision/.exec(stdout);
        if (!started || superseding) return;
        superseding = fetch(`${sim.url}/v2/deployments/${started[1]}`, {
          method: 'PATCH',
          headers: { 'X-Api-Key': sim.apiKey, 'Content-Type': 'application/json' },
          body: JSON.stringify({ source_revision_config: { repo_ref: 'main' } }),
        });
      }),
    });
    expect(superseding).toBeDefined();
    expect((await superseding!).status).toBe(200);
    expectExit(result, 0);

    const id = idOf(sim, name)!;
    const [newer, ours] = sim.revisions(id);
    expect(result.outputs['revision-id']).toBe(ours!.id);
    expect(result.outputs['revision-id']).not.toBe(newer!.id);
    expect(result.outputs['status']).toBe('SKIPPED');
    const warning = warnings(result).find((w) => w.message.includes('SKIPPED'));
    expect(warning?.message).toContain(ours!.id);
    expect(errors(result)).toHaveLength(0);
    const requests = log.since();
    expect(byRoute(requests, 'GET', HEALTH_PATH)).toHaveLength(0);
    // It followed its own revision only, never the newer one.
    const polled = new Set(byRoute(requests, 'GET', REVISION_PATH).map((r) => r.path));
    expect([...polled]).toEqual([`/v2/deployments/${id}/revisions/${ours!.id}`]);
  });
});

describe('statuses in progress', () => {
  it('an unknown status is logged once, then the run succeeds', async () => {
    const name = uniqueName('paused');
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'PAUSED', durationMs: 1000 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const log = mark(sim);
    const result = await runAction({ inputs: createInputs(sim, name) });
    expectExit(result, 0);
    expect(result.outputs['status']).toBe('DEPLOYED');
    expect(result.stdout.split('\n').filter((l) => /status: PAUSED/.test(l))).toHaveLength(1);
    // Several checks were answered PAUSED (≤ 0.2 s apart over 1 s), yet one line said so.
    const created = Date.parse(sim.revisions(idOf(sim, name)!)[0]!.created_at);
    const whilePaused = byRoute(log.since(), 'GET', REVISION_PATH).filter(
      (r) => r.at > created + 60 && r.at < created + 1000,
    );
    expect(whilePaused.length).toBeGreaterThanOrEqual(2);
  });
});

describe('timeout', () => {
  it('fails in bounded time, naming the last status and saying the deployment goes on', async () => {
    const name = uniqueName('timeout');
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'BUILDING', durationMs: 600_000 },
    ]);
    const result = await runAction({ inputs: createInputs(sim, name, { timeout: '1.5' }) });
    expectExit(result, 1);
    const id = idOf(sim, name)!;
    expect(result.outputs).toMatchObject({
      'deployment-id': id,
      'revision-id': sim.revisions(id)[0]!.id,
      status: 'BUILDING',
    });
    const [error] = errors(result);
    expect(error?.message).toContain('BUILDING');
    expect(error?.message).toMatch(/goes on on the platform/);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(1400);
    expect(result.elapsedMs).toBeLessThan(4000);
  });
});

describe('a deployment found being deleted', () => {
  it('is waited out (until GET answers 404), then a new one is created', async () => {
    const deleting = await startSimulator({ timeline: SHORT_TIMELINE, deleteDelayMs: 600 });
    try {
      const name = uniqueName('awaiting');
      const seeded = deleting.seedDeployment({
        name,
        repoUrl: REPO_URL,
        status: 'AWAITING_DELETE',
      });
      const result = await runAction({ inputs: createInputs(deleting, name) });
      expectExit(result, 0);
      const newId = idOf(deleting, name)!;
      expect(newId).not.toBe(seeded.id);
      expect(result.outputs).toMatchObject({
        'deployment-id': newId,
        created: 'true',
        status: 'DEPLOYED',
      });
      const requests = deleting.requests;
      const posts = byRoute(requests, 'POST', '/v2/deployments');
      expect(posts).toHaveLength(1);
      expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toHaveLength(0);
      const gone = byRoute(requests, 'GET', `/v2/deployments/${seeded.id}`).find(
        (r) => r.status === 404,
      );
      expect(gone).toBeDefined();
      expect(posts[0]!.at).toBeGreaterThanOrEqual(gone!.at);
    } finally {
      await deleting.close();
    }
  });
});
