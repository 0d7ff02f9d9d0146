/**
 * `runPrune` over real HTTP on loopback: the control-plane simulator and the fake GitHub
 * (pull requests and deployments), with the real client. Batching, 207, 404 fallback,
 * `delete-tracing-project`, dry run and GitHub environments; then the pure part (which preview
 * to delete) without either; the summary table: `__tests__/report/prune.test.ts`.
 *
 * `runDelete` with fakes (an in-memory control plane, a fake clock): idempotent (nothing to
 * delete is `NOT_FOUND` and success), it waits until the deployment is gone within `timeout`,
 * and running out of time after an accepted DELETE is a warning, not a failed cleanup.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDelete, runPrune, shouldDelete } from '../../src/commands/prune.js';
import type { PullState } from '../../src/github/reads.js';
import type { DeleteConfig, PruneConfig } from '../../src/inputs/config.js';
import { ControlPlaneClient } from '../../src/api/client.js';
import type { RunContext } from '../../src/commands/context.js';
import type { HttpContext } from '../../src/api/http/request.js';
import { Deadline, systemClock } from '../../src/lib/time.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { FakeGithub } from '../helpers/fake-github.js';
import { captureOutputForTests, FakeClock, recordingLogger } from '../helpers/fakes.js';
import { FakePlane, makeConfig } from '../deployment/upsert-plane.js';
import { fakeRun, quietly } from './run-context.js';
import { seedPreview } from '../helpers/previews.js';

const REPO = 'octo/app';
/** This repository, as the deployments it owns name it. */
const OURS = 'https://github.com/octo/app';
let sim: Simulator;
let github: FakeGithub;
let restore: () => void = () => undefined;
const summaryDir = mkdtempSync(join(tmpdir(), 'prune-summary-'));
const savedSummary = process.env['GITHUB_STEP_SUMMARY'];

beforeAll(async () => {
  sim = await startSimulator();
  restore = captureOutputForTests(() => undefined);
});
afterAll(async () => {
  restore();
  await sim.close();
  if (savedSummary === undefined) delete process.env['GITHUB_STEP_SUMMARY'];
  else process.env['GITHUB_STEP_SUMMARY'] = savedSummary;
});
beforeEach(async () => {
  sim.reset();
  github = await FakeGithub.start();
});
afterEach(async () => {
  await github.close();
});

function context(inputs: Partial<PruneConfig> = {}) {
  const config: PruneConfig = {
    command: 'prune',
    apiKey: sim.apiKey,
    region: 'us',
    controlPlaneUrl: sim.url,
    uiBaseUrl: sim.url,
    template: { template: 'agent-pr-{pr}', prefix: 'agent-pr-', suffix: '' },
    timeoutSeconds: 60,
    pollIntervalSeconds: 1,
    deleteTracingProject: false,
    dryRun: false,
    githubToken: 'ghs_prune_test',
    prComment: true,
    github: {
      eventName: 'schedule',
      ref: 'refs/heads/main',
      sha: 'a'.repeat(40),
      repository: REPO,
      serverUrl: 'https://github.com',
      apiUrl: github.url,
      runId: '7',
      runAttempt: '1',
      workspace: '/tmp',
    },
    ...inputs,
  };
  const logger = recordingLogger();
  const controller = new AbortController();
  const deadline = new Deadline(systemClock, Date.now() + 60_000);
  const http: HttpContext = {
    clock: systemClock,
    deadline,
    signal: controller.signal,
    logger,
    baseDelayMs: 1,
  };
  const outputs = new Map<string, string>();
  const summary = join(summaryDir, `summary-${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(summary, '');
  process.env['GITHUB_STEP_SUMMARY'] = summary;
  const ctx: RunContext<PruneConfig> = {
    config,
    clock: systemClock,
    deadline,
    signal: controller.signal,
    logger,
    http,
    client: new ControlPlaneClient({ baseUrl: sim.url, apiKey: sim.apiKey, http, mask: () => {} }),
    state: { report: { command: 'prune', timeline: [], outcome: 'failure' } },
    output(name, value) {
      if (value !== undefined) outputs.set(name, String(value));
    },
  };
  return {
    ctx,
    logger,
    deleted: () => JSON.parse(outputs.get('deleted') ?? 'null') as string[] | null,
    summary: () => readFileSync(summary, 'utf8'),
  };
}

const names = () =>
  sim
    .deployments()
    .map((d) => d.name)
    .sort();
const bulkDeletes = () =>
  sim.requests.filter((r) => r.method === 'DELETE' && r.path === '/v2/deployments');
const singleDeletes = () =>
  sim.requests.filter((r) => r.method === 'DELETE' && /^\/v2\/deployments\/[^/]+$/.test(r.path));

describe('runPrune', () => {
  it('deletes closed, merged and missing previews in one bulk call; keeps open ones and other names', async () => {
    for (const name of [
      'agent-pr-1',
      'agent-pr-2',
      'agent-pr-3',
      'agent-pr-4',
      'agent-pr-4-old',
      'agent-pr-x',
      'agent',
    ]) {
      seedPreview(sim, REPO, { repoUrl: OURS, name });
    }
    github.pulls.setPullRequest(REPO, 1, { state: 'open' });
    github.pulls.setPullRequest(REPO, 2, { state: 'closed' });
    github.pulls.setPullRequest(REPO, 3, { state: 'closed', merged: true });
    const { ctx, deleted, summary, logger } = context();
    expect(await runPrune(ctx)).toBe(0);
    expect(names()).toEqual(['agent', 'agent-pr-1', 'agent-pr-4-old', 'agent-pr-x']);
    expect(deleted()).toEqual(['agent-pr-2', 'agent-pr-3', 'agent-pr-4']);
    expect(bulkDeletes()).toHaveLength(1);
    expect(singleDeletes()).toHaveLength(0);
    expect(
      sim.requests.find((r) => r.method === 'GET' && r.path === '/v2/deployments')?.query,
    ).toMatchObject({
      name_contains: 'agent-pr-',
    });
    expect(summary()).toContain(
      '| `agent-pr-1` | [&#35;1](https://github.com/octo/app/pull/1) Pull request 1 | open | kept |',
    );
    expect(summary()).toContain(
      '| `agent-pr-4` | [&#35;4](https://github.com/octo/app/pull/4) | does not exist | deleted |',
    );
    expect(logger.warnings()).toHaveLength(0);
    expect(ctx.state.report.outcome).toBe('success');
  });

  it('follows every page of the list', async () => {
    for (let i = 1; i <= 230; i++) seedPreview(sim, REPO, { repoUrl: OURS, name: `agent-pr-${i}` });
    for (let i = 1; i <= 230; i++)
      github.pulls.setPullRequest(REPO, i, { state: i === 230 ? 'closed' : 'open' });
    const { ctx, deleted } = context();
    expect(await runPrune(ctx)).toBe(0);
    expect(deleted()).toEqual(['agent-pr-230']);
    const lists = sim.requests.filter((r) => r.method === 'GET' && r.path === '/v2/deployments');
    expect(lists.map((r) => r.query['offset'])).toEqual(['0', '100', '200']);
  });

  it('batches more than 100 deletions in calls of at most 100', async () => {
    for (let i = 1; i <= 150; i++) {
      seedPreview(sim, REPO, { repoUrl: OURS, name: `agent-pr-${i}` });
      github.pulls.setPullRequest(REPO, i, { state: 'closed' });
    }
    const { ctx, deleted } = context();
    expect(await runPrune(ctx)).toBe(0);
    expect(names()).toEqual([]);
    expect(deleted()).toHaveLength(150);
    expect(bulkDeletes()).toHaveLength(2);
    expect(bulkDeletes().every((r) => r.status === 200)).toBe(true);
    expect(singleDeletes()).toHaveLength(0);
  });

  it('a 207 fails the step by the name of what was not deleted', async () => {
    const seeded = ['agent-pr-1', 'agent-pr-2', 'agent-pr-3'].map((name) =>
      seedPreview(sim, REPO, { repoUrl: OURS, name }),
    );
    for (const n of [1, 2, 3]) github.pulls.setPullRequest(REPO, n, { state: 'closed' });
    sim.refuseDeletion(seeded[1]!.id, 'Deployment is locked');
    const { ctx, deleted, logger, summary } = context();
    expect(await runPrune(ctx)).toBe(1);
    expect(bulkDeletes().map((r) => r.status)).toEqual([207]);
    expect(names()).toEqual(['agent-pr-2']);
    expect(deleted()).toEqual(['agent-pr-1', 'agent-pr-3']);
    const errors = logger.entries.filter((e) => e.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain("'agent-pr-2' (delete failed: Deployment is locked)");
    expect(summary()).toContain('**delete failed: Deployment is locked**');
  });

  it('a 404 from the bulk call (one already gone) falls back to one delete each', async () => {
    for (const name of ['agent-pr-1', 'agent-pr-2'])
      seedPreview(sim, REPO, { repoUrl: OURS, name });
    for (const n of [1, 2]) github.pulls.setPullRequest(REPO, n, { state: 'closed' });
    sim.inject({
      kind: 'status',
      method: 'DELETE',
      path: '/v2/deployments',
      status: 404,
      body: { detail: 'Deployment ID x not found.' },
    });
    const { ctx, deleted } = context();
    expect(await runPrune(ctx)).toBe(0);
    expect(singleDeletes()).toHaveLength(2);
    expect(names()).toEqual([]);
    expect(deleted()).toEqual(['agent-pr-1', 'agent-pr-2']);
  });

  it('delete-tracing-project: each deployment on its own with the flag', async () => {
    for (const name of ['agent-pr-1', 'agent-pr-2'])
      seedPreview(sim, REPO, { repoUrl: OURS, name });
    for (const n of [1, 2]) github.pulls.setPullRequest(REPO, n, { state: 'closed' });
    const { ctx } = context({ deleteTracingProject: true });
    expect(await runPrune(ctx)).toBe(0);
    expect(bulkDeletes()).toHaveLength(0);
    expect(singleDeletes().map((r) => r.query)).toEqual([
      { delete_tracing_project: 'true' },
      { delete_tracing_project: 'true' },
    ]);
    expect(names()).toEqual([]);
  });

  it('a GitHub failure keeps that deployment, with a warning naming it', async () => {
    for (const name of ['agent-pr-1', 'agent-pr-2'])
      seedPreview(sim, REPO, { repoUrl: OURS, name });
    for (const n of [1, 2]) github.pulls.setPullRequest(REPO, n, { state: 'closed' });
    github.failOn('GET', `/repos/${REPO}/pulls/2`, 500, { message: 'Server Error' });
    const { ctx, deleted, logger, summary } = context();
    expect(await runPrune(ctx)).toBe(0);
    expect(names()).toEqual(['agent-pr-2']);
    expect(deleted()).toEqual(['agent-pr-1']);
    expect(singleDeletes()).toHaveLength(1);
    const warnings = logger.warnings();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain("Keeping deployment 'agent-pr-2'");
    expect(warnings[0]!.message).toContain('pull request #2');
    expect(warnings[0]!.message).toContain('HTTP 500');
    expect(summary()).toContain('| unknown | kept: the pull request could not be read');
  });

  it('GitHub error text in a warning cannot run a workflow command', async () => {
    seedPreview(sim, REPO, { repoUrl: OURS, name: 'agent-pr-3' });
    github.pulls.setPullRequest(REPO, 3, { state: 'closed' });
    github.failOn('GET', `/repos/${REPO}/pulls/3`, 502, {
      message: 'bad ::set-output name=deleted::pwned ##[error]x',
    });
    const { ctx, logger } = context();
    expect(await runPrune(ctx)).toBe(0);
    const [warning] = logger.warnings();
    expect(warning!.message).not.toMatch(/[\r\n]|::|##\[/);
    expect(warning!.message).toContain('set-output');
    expect(names()).toEqual(['agent-pr-3']);
  });

  it('dry run: reads everything, changes nothing, reports what it would do', async () => {
    for (const name of ['agent-pr-1', 'agent-pr-2'])
      seedPreview(sim, REPO, { repoUrl: OURS, name });
    github.pulls.setPullRequest(REPO, 1, { state: 'open' });
    github.pulls.setPullRequest(REPO, 2, { state: 'closed', merged: true });
    github.addDeployment('preview-pr-2');
    const { ctx, deleted, summary } = context({ dryRun: true, environment: 'preview-pr-{pr}' });
    expect(await runPrune(ctx)).toBe(0);
    expect(names()).toEqual(['agent-pr-1', 'agent-pr-2']);
    expect(sim.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(github.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(deleted()).toEqual(['agent-pr-2']);
    expect(summary()).toContain('would be deleted (dry run)');
  });

  it('environment with {pr}: the GitHub deployments of pruned PRs only are marked inactive', async () => {
    for (const name of ['agent-pr-1', 'agent-pr-2'])
      seedPreview(sim, REPO, { repoUrl: OURS, name });
    github.pulls.setPullRequest(REPO, 1, { state: 'open' });
    github.pulls.setPullRequest(REPO, 2, { state: 'closed' });
    const open = github.addDeployment('preview-pr-1');
    const closed = github.addDeployment('preview-pr-2');
    const { ctx } = context({ environment: 'preview-pr-{pr}' });
    expect(await runPrune(ctx)).toBe(0);
    expect(closed.statuses.map((s) => s.state)).toEqual(['inactive']);
    expect(open.statuses).toEqual([]);
  });

  it('a failed listing fails the step with nothing deleted and no GitHub call', async () => {
    seedPreview(sim, REPO, { repoUrl: OURS, name: 'agent-pr-1' });
    sim.inject({ kind: 'status', method: 'GET', path: '/v2/deployments', status: 403 });
    const { ctx, deleted, summary, logger } = context();
    expect(await runPrune(ctx)).toBe(1);
    expect(names()).toEqual(['agent-pr-1']);
    expect(deleted()).toEqual([]);
    expect(github.requests).toHaveLength(0);
    expect(logger.entries.filter((e) => e.level === 'error')).toHaveLength(1);
    expect(summary()).toContain('#### Error');
    expect(summary()).toMatch(/^### ❌ Prune previews/);
  });

  it('nothing matches: no delete, no GitHub call, an empty list', async () => {
    seedPreview(sim, REPO, { repoUrl: OURS, name: 'agent-pr-12-old' });
    const { ctx, deleted, summary } = context();
    expect(await runPrune(ctx)).toBe(0);
    expect(deleted()).toEqual([]);
    expect(github.requests).toHaveLength(0);
    expect(summary()).toContain('No deployment matches `agent-pr-{pr}`.');
  });
});

describe("runPrune deletes only what is provably this repository's", () => {
  it("keeps another repository's preview of a closed PR, with the reason, dry-run or not", async () => {
    seedPreview(sim, REPO, { repoUrl: 'https://github.com/someone/else', name: 'agent-pr-2' });
    seedPreview(sim, REPO, { repoUrl: 'HTTPS://GITHUB.COM/Octo/App.git/', name: 'agent-pr-3' });
    github.pulls.setPullRequest(REPO, 2, { state: 'closed' });
    github.pulls.setPullRequest(REPO, 3, { state: 'closed' });
    for (const dryRun of [true, false]) {
      const { ctx, deleted, summary } = context({ dryRun });
      expect(await runPrune(ctx)).toBe(0);
      expect(deleted()).toEqual(['agent-pr-3']);
      expect(summary()).toContain(
        "| closed | kept: not provably this repository's (its repository is " +
          'https://github.com/someone/else, not https://github.com/octo/app) |',
      );
    }
    expect(names()).toEqual(['agent-pr-2']);
  });

  it('a deployment without a repository: deleted only when a GitHub deployment of this repository records its ID', async () => {
    const recorded = seedPreview(sim, REPO, { source: 'external_docker', name: 'agent-pr-5' });
    const unrecorded = seedPreview(sim, REPO, { source: 'external_docker', name: 'agent-pr-6' });
    for (const pr of [5, 6]) github.pulls.setPullRequest(REPO, pr, { state: 'closed' });
    github.addDeployment('preview-5', { payload: { langsmith_deployment_id: recorded.id } });
    github.addDeployment('preview-6', { payload: { langsmith_deployment_id: 'another-id' } });

    const without = context();
    expect(await runPrune(without.ctx)).toBe(0);
    expect(without.deleted()).toEqual([]);
    expect(without.summary()).toMatch(
      /agent-pr-5.*kept: not provably .*without &#96;environment&#96;/,
    );

    const { ctx, deleted, summary } = context({ environment: 'preview-{pr}' });
    expect(await runPrune(ctx)).toBe(0);
    expect(deleted()).toEqual(['agent-pr-5']);
    expect(summary()).toMatch(
      /agent-pr-6.*kept: not provably .*no GitHub deployment of this repository &#40;environment preview-6&#41; records its ID/,
    );
    expect(names()).toEqual(['agent-pr-6']);
    expect(sim.deployments().map((d) => d.id)).toEqual([unrecorded.id]);
  });
});

describe('shouldDelete', () => {
  it.each<[PullState, boolean]>([
    [{ kind: 'open', title: '' }, false],
    [{ kind: 'closed', title: '' }, true],
    [{ kind: 'merged', title: '' }, true],
    [{ kind: 'missing' }, true],
    [{ kind: 'unknown', reason: 'HTTP 500' }, false],
  ])('%j → %s', (state, expected) => {
    expect(shouldDelete(state)).toBe(expected);
  });
});

/** A control plane that deletes: the deployment goes away after `deletingReads` reads. */
class DeletePlane extends FakePlane {
  readonly deleted: { id: string; deleteTracingProject: boolean }[] = [];
  readsWhileDeleting = 2;

  override async deleteDeployment(id: string, options: { deleteTracingProject: boolean }) {
    if (!this.store.has(id)) return 'not_found' as const;
    this.deleted.push({ id, ...options });
    this.deletingReads.set(id, this.readsWhileDeleting);
    return 'deleted' as const;
  }

  redeployRevision(): never {
    throw new Error('not used by a delete');
  }

  deleteDeployments(): never {
    throw new Error('not used by a delete');
  }
}

function deleteRun(overrides: Partial<DeleteConfig> = {}) {
  const clock = new FakeClock();
  const plane = new DeletePlane(clock);
  const { github, apiKey, region, controlPlaneUrl, uiBaseUrl, prComment } = makeConfig();
  const config: DeleteConfig = {
    command: 'delete',
    name: 'preview-pr-7',
    wait: true,
    deleteTracingProject: true,
    timeoutSeconds: 60,
    pollIntervalSeconds: 1,
    ...{ github, apiKey, region, controlPlaneUrl, uiBaseUrl, prComment },
    ...overrides,
  };
  return { ...fakeRun(config, plane, clock), plane };
}

describe('runDelete', () => {
  it('deletes the deployment and its tracing project, then waits until it is gone', async () => {
    const { ctx, plane, outputs, report, logger } = deleteRun();
    const found = plane.add({ name: 'preview-pr-7', tenant_id: 't-1' });
    expect(await quietly(() => runDelete(ctx))).toBe(0);

    expect(plane.deleted).toEqual([{ id: found.id, deleteTracingProject: true }]);
    expect(plane.store.has(found.id)).toBe(false); // read until it answered 404
    expect(outputs).toEqual({ 'deployment-id': found.id, name: 'preview-pr-7', status: 'DELETED' });
    expect(report).toMatchObject({ outcome: 'deleted', deletedTracingProject: true });
    expect(logger.messages('info')).toContain("Deployment 'preview-pr-7' is gone.");
  });

  it('finds nothing to delete: NOT_FOUND, and success', async () => {
    const { ctx, plane, outputs, report } = deleteRun();
    expect(await quietly(() => runDelete(ctx))).toBe(0);
    expect(plane.deleted).toEqual([]);
    expect(outputs).toMatchObject({ name: 'preview-pr-7', status: 'NOT_FOUND' });
    expect(report.outcome).toBe('not_found');
  });

  it('keeping the tracing project says that the name cannot be created again until it goes', async () => {
    const { ctx, plane, logger } = deleteRun({ deleteTracingProject: false });
    plane.add({ name: 'preview-pr-7' });
    expect(await quietly(() => runDelete(ctx))).toBe(0);
    expect(logger.text()).toMatch(
      /tracing project 'preview-pr-7' was kept .*cannot be created again/,
    );
  });

  it('warns, and still succeeds, when the deletion outlasts the timeout', async () => {
    const { ctx, plane, clock, deadline, logger } = deleteRun({ timeoutSeconds: 5 });
    plane.readsWhileDeleting = 1_000;
    plane.add({ name: 'preview-pr-7' });
    expect(await quietly(() => runDelete(ctx))).toBe(0);
    expect(logger.warnings().map((w) => w.properties?.title)).toEqual([
      'Deletion still in progress',
    ]);
    expect(clock.now()).toBeLessThanOrEqual(deadline.at);
  });
});
