/**
 * End to end: `command: prune` (INTERFACE.md "Prune previews") on the built bundle, against the
 * simulator's control plane and its GitHub pull requests (`<sim>/github` as GITHUB_API_URL),
 * and the fake GitHub for the environments.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { FakeGithub } from '../helpers/fake-github.js';
import { seedPreview } from '../helpers/previews.js';
import {
  baseInputs,
  byRoute,
  errors,
  expectExit,
  INTEGRATION_ID,
  mark,
  PR_EVENT,
  warnings,
} from './deploy-support.js';

const REPO = 'acme/agent';
/** This repository as a deployment names it: any case, with or without .git. */
const OURS = 'https://GitHub.com/Acme/Agent.git';
const sim = useSimulator();
beforeEach(() => {
  sim.reset();
});

function prune(inputs: Record<string, string> = {}, env: Record<string, string> = {}) {
  return runAction({
    event: { name: 'schedule', payload: { schedule: '0 3 * * *' } },
    env: { GITHUB_API_URL: `${sim.url}/github`, ...env },
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      command: 'prune',
      name: 'shop-agent-pr-{pr}',
      'github-token': 'ghs_e2e_prune_token',
      timeout: '30',
      ...inputs,
    },
  });
}

const names = () =>
  sim
    .deployments()
    .map((d) => d.name)
    .sort();
const deleted = (result: RunResult) => JSON.parse(result.outputs['deleted'] ?? 'null') as unknown;

function seedMixed() {
  for (const name of [
    'shop-agent-pr-11',
    'shop-agent-pr-12',
    'shop-agent-pr-13',
    'shop-agent-pr-14',
    'shop-agent-pr-12-old',
    'shop-agent-pr-x',
    'shop-agent',
  ]) {
    seedPreview(sim, REPO, { repoUrl: OURS, name });
  }
  sim.github.setPullRequest(REPO, 11, { state: 'open', title: 'Add cart' });
  sim.github.setPullRequest(REPO, 12, { state: 'closed', title: 'Old idea' });
  sim.github.setPullRequest(REPO, 13, { state: 'closed', merged: true, title: 'Checkout' });
  // #14 does not exist.
}

describe('prune', () => {
  it('mixed open/closed/merged/missing: deletes the previews of closed, merged and missing PRs in one bulk call', async () => {
    seedMixed();
    const log = mark(sim);
    const result = await prune();
    expectExit(result, 0);
    expect(names()).toEqual([
      'shop-agent',
      'shop-agent-pr-11',
      'shop-agent-pr-12-old',
      'shop-agent-pr-x',
    ]);
    expect(deleted(result)).toEqual(['shop-agent-pr-12', 'shop-agent-pr-13', 'shop-agent-pr-14']);
    const requests = log.since();
    expect(byRoute(requests, 'DELETE', '/v2/deployments').map((r) => r.status)).toEqual([200]);
    expect(byRoute(requests, 'DELETE', /^\/v2\/deployments\/.+/)).toHaveLength(0);
    expect(
      byRoute(requests, 'GET', /^\/github\/repos\/acme\/agent\/pulls\/\d+$/)
        .map((r) => r.path)
        .sort(),
    ).toEqual([11, 12, 13, 14].map((n) => `/github/repos/acme/agent/pulls/${n}`));
    expect(warnings(result)).toEqual([]);
    // One table: deployment, linked PR, state, action.
    expect(result.summary.match(/^\| Deployment \| PR \| State \| Action \|$/gm)).toHaveLength(1);
    expect(result.summary).toContain(
      '| `shop-agent-pr-11` | [&#35;11](https://github.com/acme/agent/pull/11) Add cart | open | kept |',
    );
    expect(result.summary).toContain('| merged | deleted |');
    expect(result.summary).toContain('| closed | deleted |');
    expect(result.summary).toContain('| does not exist | deleted |');
    const shown = result.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::'));
    expect(shown.join('\n')).not.toContain('ghs_e2e_prune_token');
    expect(result.summary).not.toContain('ghs_e2e_prune_token');
  });

  it('a GitHub 500 for one PR keeps its deployment, with a warning naming it', async () => {
    seedMixed();
    sim.inject({
      kind: 'status',
      method: 'GET',
      path: '/github/repos/acme/agent/pulls/12',
      status: 500,
      body: { message: 'Server Error' },
    });
    const result = await prune();
    expectExit(result, 0);
    expect(names()).toContain('shop-agent-pr-12');
    expect(names()).not.toContain('shop-agent-pr-13');
    expect(deleted(result)).toEqual(['shop-agent-pr-13', 'shop-agent-pr-14']);
    const [warning, ...more] = warnings(result);
    expect(more).toEqual([]);
    expect(warning!.message).toContain("Keeping deployment 'shop-agent-pr-12'");
    expect(warning!.message).toContain('pull request #12');
    expect(result.summary).toContain('| `shop-agent-pr-12` |');
    expect(result.summary).toMatch(
      /shop-agent-pr-12` .*\| unknown \| kept: the pull request could not be read/,
    );
  });

  it('dry-run: changes nothing and reports what it would do', async () => {
    seedMixed();
    const before = names();
    const log = mark(sim);
    const result = await prune({ 'dry-run': 'true' });
    expectExit(result, 0);
    expect(names()).toEqual(before);
    expect(log.since().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(deleted(result)).toEqual(['shop-agent-pr-12', 'shop-agent-pr-13', 'shop-agent-pr-14']);
    expect(result.summary).toContain('dry run: nothing changed');
    expect(result.summary).toContain('3 would be deleted, 1 kept');
  });

  it('a 207 partial failure fails the step by name; the rest is deleted', async () => {
    seedMixed();
    const locked = sim.deployments().find((d) => d.name === 'shop-agent-pr-13')!;
    sim.refuseDeletion(locked.id, 'Deployment is locked by another operation');
    const result = await prune();
    expectExit(result, 1);
    expect(names()).toContain('shop-agent-pr-13');
    expect(names()).not.toContain('shop-agent-pr-12');
    expect(deleted(result)).toEqual(['shop-agent-pr-12', 'shop-agent-pr-14']);
    const [error, ...more] = errors(result);
    expect(more).toEqual([]);
    expect(error!.message).toContain("'shop-agent-pr-13'");
    expect(error!.message).toContain('Deployment is locked by another operation');
    expect(error!.props).toContain('Prune incomplete');
    expect(result.summary).toContain(
      '**delete failed: Deployment is locked by another operation**',
    );
  });

  it.each([
    ['without {pr}', 'shop-agent-pr', 'has no `{pr}`'],
    ['with {pr} twice', 'shop-{pr}-pr-{pr}', '2 times'],
    ['with refused characters', 'Shop_Agent-{pr}', 'lowercase letters'],
  ])('name %s is an input error before any request', async (_label, name, why) => {
    const log = mark(sim);
    const result = await prune({ name });
    expectExit(result, 1);
    expect(log.since()).toEqual([]);
    const [error] = errors(result);
    expect(error!.message).toContain('`name`');
    expect(error!.message).toContain(why);
  });

  it("keeps another repository's preview of a closed PR, naming why, and deletes nothing of it", async () => {
    seedPreview(sim, REPO, { repoUrl: 'https://github.com/other/shop', name: 'shop-agent-pr-31' });
    seedPreview(sim, REPO, { source: 'external_docker', name: 'shop-agent-pr-32' });
    sim.github.setPullRequest(REPO, 31, { state: 'closed' });
    sim.github.setPullRequest(REPO, 32, { state: 'closed' });
    const log = mark(sim);
    const result = await prune();
    expectExit(result, 0);
    expect(names()).toEqual(['shop-agent-pr-31', 'shop-agent-pr-32']);
    expect(deleted(result)).toEqual([]);
    expect(byRoute(log.since(), 'DELETE', /^\/v2\/deployments/)).toHaveLength(0);
    expect(result.stdout).toContain(
      "shop-agent-pr-31 (PR #31, closed): kept: not provably this repository's (its repository " +
        'is https://github.com/other/shop, not https://github.com/acme/agent)',
    );
    expect(result.summary).toMatch(/shop-agent-pr-32.*kept: not provably this repository's/);
  });

  it('environment with {pr}: the GitHub deployments of pruned PRs are marked inactive', async () => {
    const github = await FakeGithub.start();
    try {
      for (const name of ['shop-agent-pr-21', 'shop-agent-pr-22'])
        seedPreview(sim, REPO, { repoUrl: OURS, name });
      github.pulls.setPullRequest(REPO, 21, { state: 'open' });
      github.pulls.setPullRequest(REPO, 22, { state: 'closed', merged: true });
      const open = github.addDeployment('preview-pr-21');
      const pruned = github.addDeployment('preview-pr-22');
      const result = await prune(
        { environment: 'preview-pr-{pr}' },
        { GITHUB_API_URL: github.url },
      );
      expectExit(result, 0);
      expect(pruned.statuses.map((s) => s.state)).toEqual(['inactive']);
      expect(open.statuses).toEqual([]);
      expect(names()).toEqual(['shop-agent-pr-21']);
    } finally {
      await github.close();
    }
  });

  it('prunes only what this action created on that PR: the production agent-1 under agent-{pr} is kept (v1.3)', async () => {
    const deploy = (name: string, event: Record<string, unknown> = {}) =>
      runAction({
        ...event,
        inputs: baseInputs(sim, {
          name,
          'integration-id': INTEGRATION_ID,
          'pr-comment': 'false',
          wait: 'false',
        }),
      });
    // The production deployment, created on a push to main; a preview created on PR #2's run.
    expectExit(await deploy('agent-1'), 0);
    const pr2 = structuredClone(PR_EVENT);
    pr2.payload.number = 2;
    pr2.payload.pull_request.number = 2;
    expectExit(await deploy('agent-2', { event: pr2 }), 0);
    // And a preview of an older version of the action: no origin record.
    sim.seedDeployment({ repoUrl: OURS, name: 'agent-3' });
    for (const n of [1, 2, 3]) sim.github.setPullRequest(REPO, n, { state: 'closed' });

    const result = await prune({ name: 'agent-{pr}' });
    expectExit(result, 0);
    expect(deleted(result)).toEqual(['agent-2']);
    expect(names()).toEqual(['agent-1', 'agent-3']);
    expect(result.stdout).toContain(
      'agent-1 (PR #1, closed): kept: not provably a preview of this pull request (this action ' +
        'created it outside a pull-request run',
    );
    expect(result.stdout).toMatch(
      /agent-3 \(PR #3, closed\): kept: .*no record .* run `command: delete` with `name: agent-3`/,
    );
    expect(result.summary).toMatch(/`agent-1`.*kept: not provably a preview/);
  });
});
