/**
 * End to end: what the platform's own `langgraph deploy` CLI taught (issue 13), on the built
 * bundle against the simulator: the v1 log endpoints and `build-log: stream`, INTERRUPTED and
 * `status_message`, the top-level `url`, the 409 of a surviving tracing project (a reopened
 * pull request), a checkout without the config, and an ignored `.env` that is no finding.
 */
import { afterAll, beforeEach, describe, expect, it } from '@jest/globals';
import { runAction } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import { BUILD_ERROR } from '../../simulator/logs.js';
import {
  baseInputs,
  byRoute,
  errors,
  expectExit,
  idOf,
  INTEGRATION_ID,
  LOGS_PATH,
  mark,
  REVISION_PATH,
  tempWorkspaces,
  uniqueName,
  warnings,
} from './deploy-support.js';

const workspaces = tempWorkspaces('e2e-fidelity');

const sim = useSimulator({
  timeline: [
    { status: 'QUEUED', durationMs: 30 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
});

afterAll(async () => {
  workspaces.removeAll();
});

beforeEach(() => sim.reset());

function inputs(name: string, extra: Record<string, string> = {}) {
  return baseInputs(sim, { name, 'integration-id': INTEGRATION_ID, ...extra });
}

function workspace(files: Record<string, string>): string {
  return workspaces.make(files, { git: false });
}

/** The lines printed between `::stop-commands::<token>` and `::<token>::`. */
function untrustedBlocks(stdout: string): string[][] {
  const blocks: string[][] = [];
  const lines = stdout.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = /^::stop-commands::(\S+)$/.exec(lines[i]!);
    if (!start) continue;
    const end = lines.indexOf(`::${start[1]}::`, i + 1);
    blocks.push(lines.slice(i + 1, end));
    i = end;
  }
  return blocks;
}

describe('build-log: stream', () => {
  it('prints the build log live in collapsed groups, reading on from next_offset', async () => {
    const name = uniqueName('stream');
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 100 },
      { status: 'AWAITING_BUILD', durationMs: 300 },
      { status: 'BUILDING', durationMs: 700 },
      { status: 'AWAITING_DEPLOY', durationMs: 100 },
      { status: 'DEPLOYED', durationMs: 0 },
    ]);
    const log = mark(sim);
    const result = await runAction({ inputs: inputs(name, { 'build-log': 'stream' }) });
    expectExit(result, 0);
    const id = idOf(sim, name)!;
    const revisionId = result.outputs['revision-id']!;

    const reads = byRoute(log.since(), 'POST', LOGS_PATH);
    expect(reads.length).toBeGreaterThanOrEqual(2);
    for (const read of reads) {
      expect(read.path).toBe(`/v1/projects/${id}/revisions/${revisionId}/build_logs`);
      expect(read.body).toMatchObject({ order: 'asc', limit: 50 });
    }
    // The first read starts at the beginning; each later one goes on from a next_offset.
    expect(reads[0]!.body).not.toHaveProperty('offset');
    expect(
      reads.slice(1).every((r) => typeof (r.body as { offset?: unknown }).offset === 'string'),
    ).toBe(true);

    const groups = result.stdout.match(/^::group::Build log of revision .*, live: lines .*$/gm);
    expect(groups?.length).toBeGreaterThanOrEqual(1);
    const printed = untrustedBlocks(result.stdout).flat();
    // Every line of the build log, once, in order, up to "Successfully built".
    const built = printed.findIndex((l) => l.includes('Successfully built image'));
    const created = printed.findIndex((l) => l.includes(`Revision ${revisionId} created`));
    expect(created).toBeGreaterThan(-1);
    expect(built).toBeGreaterThan(created);
    expect(printed.filter((l) => l.includes('Queued for build.'))).toHaveLength(1);
    // Lines are timestamped from epoch milliseconds.
    expect(printed[created]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO /);
  });

  it('a streamed build that fails: the tail goes to the summary, the error says so', async () => {
    const name = uniqueName('stream-fail');
    sim.queueTimeline([
      { status: 'AWAITING_BUILD', durationMs: 100 },
      { status: 'BUILDING', durationMs: 300 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);
    const result = await runAction({ inputs: inputs(name, { 'build-log': 'stream' }) });
    expectExit(result, 1);
    expect(untrustedBlocks(result.stdout).flat().join('\n')).toContain(BUILD_ERROR);
    expect(result.summary).toContain(BUILD_ERROR);
    expect(errors(result)[0]!.message).toContain('The end of its log is above');
  });
});

describe('build-log: off', () => {
  it('reads no log at all, and points to LangSmith for it', async () => {
    const name = uniqueName('off');
    sim.queueTimeline([
      { status: 'BUILDING', durationMs: 50 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);
    const log = mark(sim);
    const result = await runAction({ inputs: inputs(name, { 'build-log': 'off' }) });
    expectExit(result, 1);
    expect(byRoute(log.since(), 'POST', LOGS_PATH)).toEqual([]);
    expect(result.stdout).not.toContain(BUILD_ERROR);
    const failure = errors(result)[0]!;
    expect(failure.message).toContain(result.outputs['ui-url']!);
    expect(failure.message).toContain('`build-log` is off');
  });
});

describe('INTERRUPTED and status_message', () => {
  it('INTERRUPTED, held until the timeout, fails with its own message, the status message, and no log request', async () => {
    const name = uniqueName('interrupted');
    sim.queueTimeline([
      { status: 'BUILDING', durationMs: 100 },
      { status: 'INTERRUPTED', durationMs: 0, statusMessage: 'Interrupted by ada@example.com' },
    ]);
    const log = mark(sim);
    // Not final (it may still go on): followed until the timeout (5 minutes at most). The
    // timeout leaves room for a slow start-up: the checks counted below happen after it.
    const result = await runAction({
      inputs: inputs(name, { timeout: '5', 'poll-interval': '1' }),
    });
    expectExit(result, 1);
    expect(result.outputs['status']).toBe('INTERRUPTED');
    expect(result.stdout).toMatch(/stayed INTERRUPTED for .*stops waiting/);
    const failure = errors(result);
    expect(failure).toHaveLength(1);
    expect(failure[0]!.props).toContain('Revision interrupted');
    expect(failure[0]!.message).toMatch(
      /stayed INTERRUPTED \(for 5 minutes, or until the timeout\).*may still go on on the platform/,
    );
    expect(failure[0]!.message).toMatch(/a newer run of this workflow interrupted it/);
    expect(failure[0]!.message).toContain('The platform says: Interrupted by ada@example.com');
    expect(result.stdout).toMatch(/status: INTERRUPTED.*— Interrupted by ada@example\.com/);
    expect(byRoute(log.since(), 'POST', LOGS_PATH)).toEqual([]);
    // Followed on: more than one status check saw it.
    const checks = byRoute(log.since(), 'GET', REVISION_PATH);
    expect(checks.length).toBeGreaterThan(2);
  });

  it('a failure shows the revision status_message in the log, the error and the summary', async () => {
    const name = uniqueName('message');
    sim.queueTimeline([
      { status: 'BUILDING', durationMs: 800, statusMessage: 'Building image' },
      { status: 'BUILD_FAILED', durationMs: 0, statusMessage: 'pip install exited with 1' },
    ]);
    const result = await runAction({ inputs: inputs(name) });
    expectExit(result, 1);
    expect(result.stdout).toMatch(/status: BUILDING — Building image/);
    expect(result.stdout).toMatch(/status: BUILD_FAILED.*— pip install exited with 1/);
    expect(errors(result)[0]!.message).toContain('The platform says: pip install exited with 1');
    expect(result.summary).toContain('pip install exited with 1');
  });
});

describe('the URL of a deployment LangSmith Cloud builds', () => {
  it('comes from the top-level url when source_config.custom_url is null', async () => {
    const name = uniqueName('toplevel');
    const result = await runAction({ inputs: inputs(name) });
    expectExit(result, 0);
    const id = idOf(sim, name)!;
    const wire = sim.deployments().find((d) => d.id === id)!;
    expect(wire.source_config.custom_url).toBeNull();
    expect(result.outputs['url']).toBe(sim.agentUrl(id));
    // The health check went to it.
    expect(sim.requests.some((r) => r.path === `/agents/${id}/ok`)).toBe(true);
  });
});

describe('a reopened pull request (its deployment deleted without delete-tracing-project)', () => {
  it('explains the 409 and the remedies; with delete-tracing-project the name is free again', async () => {
    const name = uniqueName('pr');
    expectExit(await runAction({ inputs: inputs(name) }), 0);
    const closed = await runAction({
      inputs: baseInputs(sim, { command: 'delete', name }),
    });
    expectExit(closed, 0);

    const reopened = await runAction({ inputs: inputs(name) });
    expectExit(reopened, 1);
    const failure = errors(reopened);
    expect(failure).toHaveLength(1);
    expect(failure[0]!.props).toContain('Tracing project of that name exists');
    expect(failure[0]!.message).toContain(`a LangSmith tracing project named '${name}'`);
    expect(failure[0]!.message).toContain('`delete-tracing-project: true`');
    expect(failure[0]!.message).not.toMatch(/Check the inputs/);
    expect(idOf(sim, name)).toBeUndefined();

    // The remedy the README recommends for the cleanup job.
    sim.reset();
    expectExit(await runAction({ inputs: inputs(name) }), 0);
    expectExit(
      await runAction({
        inputs: baseInputs(sim, { command: 'delete', name, 'delete-tracing-project': 'true' }),
      }),
      0,
    );
    expectExit(await runAction({ inputs: inputs(name) }), 0);
  });
});

describe('pre-flight facts from the templates and checkouts', () => {
  it('a checkout without the config fails before any request', async () => {
    const ws = workspace({ 'README.md': '# agent\n', 'src/agent.py': 'graph = None\n' });
    const log = mark(sim);
    const result = await runAction({ workspace: ws, inputs: inputs(uniqueName('nocfg')) });
    expectExit(result, 1);
    expect(log.since()).toEqual([]);
    const failure = errors(result);
    expect(failure).toHaveLength(1);
    expect(failure[0]!.message).toMatch(/config-path langgraph\.json is not in the checked-out/);
  });

  it('an empty workspace (no checkout step) keeps the notice and deploys', async () => {
    const result = await runAction({ workspace: workspace({}), inputs: inputs(uniqueName('ws')) });
    expectExit(result, 0);
    expect(result.annotations.filter((a) => a.kind === 'notice').map((a) => a.message)).toEqual([
      expect.stringContaining('actions/checkout'),
    ]);
  });

  it('"env": ".env" with .env ignored by git (the LangGraph templates) gives no warning', async () => {
    const ws = workspace({
      '.gitignore': '.env\n__pycache__/\n',
      'langgraph.json': JSON.stringify({
        dependencies: ['.'],
        graphs: { agent: './src/agent.py:graph' },
        env: '.env',
      }),
      'src/agent.py': 'graph = None\n',
    });
    const result = await runAction({ workspace: ws, inputs: inputs(uniqueName('tmpl')) });
    expectExit(result, 0);
    expect(warnings(result)).toEqual([]);
    expect(result.summary).not.toContain('.env');
  });
});
