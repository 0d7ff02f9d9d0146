/**
 * End to end: `skip-unchanged` (a re-run of the live commit requests no revision, the checks
 * still run) and `interrupt-previous` (a revision in progress is interrupted before the new revision;
 * 404/405/409 there are a notice), on the built bundle against the simulator.
 */
import { describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { type Simulator } from '../../simulator/index.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  expectExit,
  HEALTH_PATH,
  INTEGRATION_ID,
  mark,
  REPO_URL,
  SHORT_TIMELINE,
  uniqueName,
} from './deploy-support.js';

/** The commit the simulator reports on every github revision, and this run's GITHUB_SHA. */
const LIVE_SHA = 'c0ffee0123456789abcdef0123456789abcdef01';
const OTHER_SHA = 'feed0123456789abcdef0123456789abcdef0123';
const SMOKE = '{"messages":[{"role":"user","content":"hi"}]}';
/** The API reference's `…/interrupt`, and the older `…/interruption` tried after a 404. */
const INTERRUPTION_PATH = /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+\/interrupt(ion)?$/;
const REVISIONS_PATH = /^\/v2\/deployments\/[^/]+\/revisions$/;

function prEvent(headSha: string) {
  return {
    name: 'pull_request',
    payload: {
      action: 'synchronize',
      number: 9,
      pull_request: {
        number: 9,
        head: { sha: headSha, ref: 'main', repo: { full_name: 'acme/agent' } },
        base: { sha: '0'.repeat(40), ref: 'release', repo: { full_name: 'acme/agent' } },
      },
    },
  };
}

describe('skip-unchanged', () => {
  const sim = useSimulator({ timeline: SHORT_TIMELINE, commitSha: LIVE_SHA });

  /** A deployment whose live revision runs LIVE_SHA from main with langgraph.json. */
  function seedLive(prefix: string) {
    const name = uniqueName(prefix);
    const dep = sim.seedDeployment({ name, repoUrl: REPO_URL });
    return { name, dep, live: dep.active_revision_id! };
  }

  const inputs = (name: string, extra: Record<string, string> = {}) =>
    baseInputs(sim, { name, 'integration-id': INTEGRATION_ID, ...extra });

  it('a re-run of the live commit makes no PATCH, names the live revision and still checks it', async () => {
    const { name, dep, live } = seedLive('skip-live');
    const log = mark(sim);
    const result = await runAction({
      inputs: inputs(name, { 'smoke-test': SMOKE }),
      sha: LIVE_SHA,
    });
    expectExit(result, 0);
    const requests = log.since();
    expect(byRoute(requests, 'PATCH', DEPLOYMENT_PATH)).toEqual([]);
    expect(byRoute(requests, 'POST', REVISIONS_PATH)).toEqual([]);
    expect(byRoute(requests, 'POST', INTERRUPTION_PATH)).toEqual([]);
    expect(sim.revisions(dep.id)).toHaveLength(1);
    expect(result.outputs).toMatchObject({
      'deployment-id': dep.id,
      'revision-id': live,
      status: 'DEPLOYED',
      'skipped-build': 'true',
      created: 'false',
      'commit-sha': LIVE_SHA,
      url: sim.agentUrl(dep.id),
    });
    // The health check and the smoke run went to the live revision's agent server.
    expect(byRoute(requests, 'GET', HEALTH_PATH).length).toBeGreaterThan(0);
    expect(byRoute(requests, 'POST', /^\/agents\/[^/]+\/.*runs\/stream$/)).toHaveLength(1);
    expect(result.stdout).toMatch(/Nothing to build: revision .* already runs commit c0ffee012345/);
    expect(result.stdout).toContain('`skip-unchanged: false`');
  });

  it('a changed commit deploys a new revision (skipped-build=false)', async () => {
    const { name, dep, live } = seedLive('skip-changed');
    const log = mark(sim);
    const result = await runAction({ inputs: inputs(name), sha: OTHER_SHA });
    expectExit(result, 0);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(1);
    expect(result.outputs['skipped-build']).toBe('false');
    expect(result.outputs['revision-id']).not.toBe(live);
    expect(sim.revisions(dep.id)).toHaveLength(2);
  });

  for (const [label, extra] of [
    ['skip-unchanged: false', { 'skip-unchanged': 'false' }],
    ['secrets given', { secrets: 'OPENAI_API_KEY=sk-e2e-skip-value' }],
    ['another config path', { 'config-path': 'apps/langgraph.json' }],
  ] as const) {
    it(`the same commit with ${label} builds`, async () => {
      const { name } = seedLive('skip-forced');
      const log = mark(sim);
      const result = await runAction({ inputs: inputs(name, extra), sha: LIVE_SHA });
      expectExit(result, 0);
      expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(1);
      expect(result.outputs['skipped-build']).toBe('false');
    });
  }

  it('on pull requests the PR head commit is compared, not the merge commit', async () => {
    const { name } = seedLive('skip-pr');
    const skipped = await runAction({
      inputs: inputs(name, { 'pr-comment': 'false' }),
      sha: OTHER_SHA, // the merge commit GitHub checks out
      event: prEvent(LIVE_SHA),
    });
    expectExit(skipped, 0);
    expect(skipped.outputs['skipped-build']).toBe('true');

    const log = mark(sim);
    const built = await runAction({
      inputs: inputs(name, { 'pr-comment': 'false' }),
      sha: LIVE_SHA,
      event: prEvent(OTHER_SHA),
    });
    expectExit(built, 0);
    expect(built.outputs['skipped-build']).toBe('false');
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(1);
  });
});

describe('interrupt-previous', () => {
  // The platform's behaviour: a new revision waits behind the one in progress.
  const queue = useSimulator({ timeline: SHORT_TIMELINE, queueBehind: true });
  const plain = useSimulator({ timeline: SHORT_TIMELINE });

  /** A deployment whose latest revision builds for ever (it never ends on its own). */
  function seedBuilding(sim: Simulator, prefix: string) {
    const name = uniqueName(prefix);
    const dep = sim.seedDeployment({
      name,
      repoUrl: REPO_URL,
      revisions: [{ status: 'DEPLOYED' }, { status: 'BUILDING' }],
    });
    return { name, dep, building: dep.latest_revision_id! };
  }

  it('interrupts the revision in progress, so the new one does not wait behind it', async () => {
    const { name, dep, building } = seedBuilding(queue, 'interrupt');
    const log = mark(queue);
    const result = await runAction({
      inputs: baseInputs(queue, {
        name,
        'integration-id': INTEGRATION_ID,
        'interrupt-previous': 'true',
      }),
    });
    expectExit(result, 0);
    const requests = log.since();
    const interruptions = byRoute(requests, 'POST', INTERRUPTION_PATH);
    expect(interruptions.map((r) => r.path)).toEqual([
      `/v2/deployments/${dep.id}/revisions/${building}/interrupt`,
    ]);
    // Before the new revision is requested.
    const requested = byRoute(requests, 'POST', REVISIONS_PATH)[0]!;
    expect(requests.indexOf(interruptions[0]!)).toBeLessThan(requests.indexOf(requested));
    const revisions = queue.revisions(dep.id);
    expect(revisions.find((r) => r.id === building)?.status).toBe('INTERRUPTED');
    expect(result.outputs['status']).toBe('DEPLOYED');
    expect(result.stdout).toMatch(/Interrupted revision .* \(it was BUILDING\)/);
  });

  it('with interrupt-previous: false the new revision waits behind it (and times out here)', async () => {
    const { name, dep, building } = seedBuilding(queue, 'no-interrupt');
    const log = mark(queue);
    const result = await runAction({
      inputs: baseInputs(queue, {
        name,
        'integration-id': INTEGRATION_ID,
        'interrupt-previous': 'false',
        timeout: '2',
      }),
    });
    expectExit(result, 1);
    expect(byRoute(log.since(), 'POST', INTERRUPTION_PATH)).toEqual([]);
    const revisions = queue.revisions(dep.id);
    expect(revisions.find((r) => r.id === building)?.status).toBe('BUILDING');
    expect(revisions[0]?.status).toBe('QUEUED');
  });

  for (const code of [404, 405, 409]) {
    it(`an HTTP ${code} from the interruption call is a notice; the update goes ahead`, async () => {
      const { name } = seedBuilding(plain, `interrupt-${code}`);
      // A 404 is asked once more on `…/interruption`: both answer it here.
      plain.inject({
        kind: 'status',
        status: code,
        method: 'POST',
        path: INTERRUPTION_PATH,
        times: code === 404 ? 2 : 1,
      });
      const log = mark(plain);
      const result = await runAction({
        inputs: baseInputs(plain, {
          name,
          'integration-id': INTEGRATION_ID,
          'interrupt-previous': 'true',
        }),
      });
      expectExit(result, 0);
      const asked = byRoute(log.since(), 'POST', INTERRUPTION_PATH).map((r) => r.path);
      expect(asked.map((p) => p.split('/').at(-1))).toEqual(
        code === 404 ? ['interrupt', 'interruption'] : ['interrupt'],
      );
      expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(1);
      const notices = result.annotations.filter((a) => a.kind === 'notice');
      expect(notices.map((n) => n.message).join('\n')).toContain(`HTTP ${code}`);
      expect(result.annotations.filter((a) => a.kind === 'error')).toEqual([]);
      expect(result.outputs['status']).toBe('DEPLOYED');
    });
  }
});
