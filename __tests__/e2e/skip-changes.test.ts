/**
 * End to end, on the built bundle against the simulator: `skip-unchanged` with `secrets`
 * (the keyed record proves them the same) and across commits that touch no agent file (the
 * simulator's GitHub compare API).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gitIn } from '../helpers/git.js';
import { call, pollUntil } from '../simulator/helpers.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  expectExit,
  idOf,
  INTEGRATION_ID,
  mark,
  SHORT_TIMELINE,
  tempWorkspaces,
  uniqueName,
} from './deploy-support.js';

const RECORD = 'LANGGRAPH_DEPLOY_ACTION_DIGEST';
const WRITE = /^\/v2\/deployments(\/[^/]+(\/revisions)?)?$/;
const sha = (c: string) => c.repeat(40);

/** Requests that create a deployment or a revision (create, PATCH, POST …/revisions). */
function writes(log: ReturnType<typeof mark>) {
  return log
    .since()
    .filter((r) => (r.method === 'POST' || r.method === 'PATCH') && WRITE.test(r.path)).length;
}

/** One push of an agent whose config is `agent/langgraph.json`: the simulator builds `commit`. */
function agentRun(
  name: string,
  commit: string,
  options: { workspace: string; inputs?: Record<string, string>; env?: Record<string, string> },
): Promise<RunResult> {
  sim.setCommitSha(commit);
  return runAction({
    inputs: baseInputs(sim, {
      name,
      'integration-id': INTEGRATION_ID,
      'config-path': 'agent/langgraph.json',
      ...options.inputs,
    }),
    sha: commit,
    workspace: options.workspace,
    ...(options.env ? { env: options.env } : {}),
  });
}

const workspaces = tempWorkspaces('e2e-skip');
const sim = useSimulator({ timeline: SHORT_TIMELINE });
afterAll(async () => {
  workspaces.removeAll();
});

describe('skip-unchanged with secrets', () => {
  it('the same secrets again: no revision; a changed value: a revision, said at info level', async () => {
    const name = uniqueName('skip-secrets');
    const workspace = workspaces.make({
      'langgraph.json': '{"dependencies":["."],"graphs":{"a":"./a.py:g"}}',
      'a.py': '',
    });
    sim.setCommitSha(sha('a'));
    const run = (secrets: string) =>
      runAction({
        inputs: baseInputs(sim, { name, 'integration-id': INTEGRATION_ID, secrets }),
        sha: sha('a'),
        workspace,
      });
    expectExit(await run('OPENAI_API_KEY=sk-e2e-first'), 0);
    const id = idOf(sim, name)!;
    const entry = sim
      .deployments()
      .find((d) => d.id === id)!
      .secrets.find((s) => s.name === RECORD);
    expect(entry?.value).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);

    const log = mark(sim);
    const again = await run('OPENAI_API_KEY=sk-e2e-first');
    expectExit(again, 0);
    expect(writes(log)).toBe(0);
    expect(again.outputs['skipped-build']).toBe('true');
    expect(again.stdout).toMatch(/Nothing to build: .*the same `secrets` \(keyed record\)/);
    expect(sim.revisions(id)).toHaveLength(1);

    const changed = await run('OPENAI_API_KEY=sk-e2e-second');
    expectExit(changed, 0);
    expect(changed.outputs['skipped-build']).toBe('false');
    expect(sim.revisions(id)).toHaveLength(2);
    // Info, not debug: a plain line, not `::debug::`.
    expect(changed.stdout).toMatch(
      /^skip-unchanged: a new revision is requested because `secrets` differ/m,
    );
    const shown = changed.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::'));
    expect(shown.join('\n')).not.toContain('sk-e2e-second');
  });
});

describe('the skip record is trusted only while the live environment says the same (v1.3)', () => {
  it('a secret changed out of band (the record stays, its revision is live): the next run builds, saying why', async () => {
    const name = uniqueName('skip-rogue');
    const workspace = workspaces.make({
      'langgraph.json': '{"dependencies":["."],"graphs":{"a":"./a.py:g"}}',
      'a.py': '',
    });
    sim.setCommitSha(sha('a'));
    const run = () =>
      runAction({
        inputs: baseInputs(sim, {
          name,
          'integration-id': INTEGRATION_ID,
          secrets: 'OPENAI_API_KEY=sk-workflow-value',
        }),
        sha: sha('a'),
        workspace,
      });
    expectExit(await run(), 0);
    const id = idOf(sim, name)!;
    // Someone edits the secret in the LangSmith UI: the other entries (the record) stay, and
    // the new revision of the same commit goes live.
    const live = sim.deployments().find((d) => d.id === id)!;
    const rogue = live.secrets.map((s) =>
      s.name === 'OPENAI_API_KEY' ? { ...s, value: 'sk-ROGUE' } : s,
    );
    const edited = await call(sim, 'PATCH', `/v2/deployments/${id}`, { body: { secrets: rogue } });
    expect(edited.status).toBe(200);
    await pollUntil(
      async () => sim.revisions(id)[0]!.status,
      (status) => status === 'DEPLOYED',
    );

    const log = mark(sim);
    const again = await run();
    expectExit(again, 0);
    expect(again.outputs['skipped-build']).toBe('false');
    expect(writes(log)).toBe(1);
    expect(again.stdout).toMatch(
      /^skip-unchanged: a new revision is requested because the live environment differs from `secrets` \(OPENAI_API_KEY\): changed in the LangSmith UI or by another client/m,
    );
    const after = sim.deployments().find((d) => d.id === id)!;
    expect(after.secrets.find((s) => s.name === 'OPENAI_API_KEY')?.value).toBe('sk-workflow-value');
    const shown = again.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::'));
    expect(shown.join('\n')).not.toContain('sk-ROGUE');
  });
});

describe('skip-unchanged across commits (monorepo)', () => {
  const AGENT = {
    'agent/langgraph.json': '{"dependencies":["."],"graphs":{"a":"./a.py:g"}}',
    'agent/a.py': '',
  };
  beforeAll(() => {
    sim.github.addCommits('acme/agent', [
      { sha: sha('1'), files: [{ filename: 'agent/a.py', status: 'added' }] },
      { sha: sha('2'), files: [{ filename: 'web/index.html', status: 'modified' }] },
      { sha: sha('3'), files: [{ filename: 'docs/guide.md', status: 'added' }] },
      { sha: sha('4'), files: [{ filename: 'agent/a.py', status: 'modified' }] },
    ]);
  });

  const push = (name: string, commit: string, inputs: Record<string, string> = {}) =>
    agentRun(name, commit, {
      workspace: workspaces.make(AGENT),
      inputs: { 'github-token': 'ghs_e2e', ...inputs },
      env: { GITHUB_API_URL: `${sim.url}/github` },
    });

  it('pushes outside the agent build nothing, and name the files; a push into it builds', async () => {
    const name = uniqueName('skip-mono');
    expectExit(await push(name, sha('1')), 0);
    const id = idOf(sim, name)!;

    const web = await push(name, sha('2'));
    expectExit(web, 0);
    expect(web.outputs).toMatchObject({ 'skipped-build': 'true', 'commit-sha': sha('1') });
    expect(web.stdout).toMatch(
      /1 file changed since the live commit \(web\/index.html\) are outside what the agent is built from \(agent\//,
    );
    expect(web.annotations.filter((a) => a.kind === 'warning')).toEqual([]);
    const compares = byRoute(sim.requests, 'GET', /^\/github\/repos\/acme\/agent\/compare\//);
    expect(compares.length).toBeGreaterThan(0);

    const docs = await push(name, sha('3'));
    expect(docs.outputs).toMatchObject({ 'skipped-build': 'true', 'commit-sha': sha('1') });
    expect(sim.revisions(id)).toHaveLength(1);

    const agent = await push(name, sha('4'));
    expectExit(agent, 0);
    expect(agent.outputs['skipped-build']).toBe('false');
    expect(agent.stdout).toMatch(
      /files the agent is built from changed since commit 111111111111: agent\/a.py/,
    );
    expect(sim.revisions(id)).toHaveLength(2);
  });

  it('a compare that cannot be read (no token, an unknown commit) builds, with the reason', async () => {
    const name = uniqueName('skip-mono-unread');
    expectExit(await push(name, sha('1')), 0);
    const noToken = await push(name, sha('2'), { 'github-token': '' });
    expect(noToken.outputs['skipped-build']).toBe('false');
    expect(noToken.stdout).toMatch(/cannot be read: `github-token` is empty/);
    expect(noToken.stdout).toMatch(/and the checkout's history does not hold both commits/);
    const unknown = await push(name, sha('9'));
    expect(unknown.outputs['skipped-build']).toBe('false');
    expect(unknown.stdout).toMatch(/cannot be read: GitHub's compare API answered/);
  });
});

describe('skip-unchanged for a JS agent in a monorepo (v1.3)', () => {
  // Built from the repository root with its workspace packages (the platform's Monorepo support).
  const MONOREPO = {
    'package.json': JSON.stringify({ private: true, workspaces: ['agents/*', 'packages/*'] }),
    'package-lock.json': '{}',
    'agents/chat/langgraph.json': JSON.stringify({
      node_version: '20',
      dependencies: ['.'],
      graphs: { chat: './src/graph.ts:graph' },
    }),
    'agents/chat/package.json': JSON.stringify({
      name: '@acme/chat',
      dependencies: { '@acme/tools': '*', zod: '^4' },
    }),
    'agents/chat/src/graph.ts': '',
    'packages/tools/package.json': JSON.stringify({
      name: '@acme/tools',
      dependencies: { '@acme/shared': '*' },
    }),
    'packages/shared/package.json': JSON.stringify({ name: '@acme/shared' }),
    'packages/ui/package.json': JSON.stringify({ name: '@acme/ui' }),
  };
  beforeAll(() => {
    sim.github.addCommits('acme/agent', [
      { sha: sha('5'), files: [{ filename: 'agents/chat/src/graph.ts', status: 'added' }] },
      { sha: sha('6'), files: [{ filename: 'packages/ui/button.tsx', status: 'modified' }] },
      { sha: sha('7'), files: [{ filename: 'packages/shared/index.ts', status: 'modified' }] },
      { sha: sha('8'), files: [{ filename: 'package-lock.json', status: 'modified' }] },
    ]);
  });
  const push = (name: string, commit: string) =>
    agentRun(name, commit, {
      workspace: workspaces.make(MONOREPO),
      inputs: { 'github-token': 'ghs_e2e', 'config-path': 'agents/chat/langgraph.json' },
      env: { GITHUB_API_URL: `${sim.url}/github` },
    });

  it('an unrelated workspace package: skip; one the agent depends on (through another): build; the root lockfile: build', async () => {
    const name = uniqueName('skip-js');
    expectExit(await push(name, sha('5')), 0);
    const id = idOf(sim, name)!;

    const ui = await push(name, sha('6'));
    expectExit(ui, 0);
    expect(ui.outputs).toMatchObject({ 'skipped-build': 'true', 'commit-sha': sha('5') });
    expect(ui.stdout).toMatch(
      /\(packages\/ui\/button.tsx\) are outside what the agent is built from/,
    );
    expect(sim.revisions(id)).toHaveLength(1);

    const shared = await push(name, sha('7'));
    expectExit(shared, 0);
    expect(shared.outputs['skipped-build']).toBe('false');
    expect(shared.stdout).toMatch(
      /files the agent is built from changed since commit 555555555555: packages\/shared\/index.ts/,
    );
    expect(sim.revisions(id)).toHaveLength(2);

    const lockfile = await push(name, sha('8'));
    expectExit(lockfile, 0);
    expect(lockfile.outputs['skipped-build']).toBe('false');
    expect(lockfile.stdout).toMatch(/changed since commit 777777777777: package-lock.json/);
  });
});

describe('skip-unchanged with source: upload', () => {
  it('the same files and secrets: no upload, no revision; a changed file: a new revision', async () => {
    const name = uniqueName('skip-upload');
    const files = {
      'langgraph.json': '{"dependencies":["."],"graphs":{"a":"./a.py:g"}}',
      'a.py': 'g = 1\n',
    };
    const workspace = workspaces.make(files);
    const run = (where: string) =>
      runAction({
        inputs: baseInputs(sim, {
          name,
          source: 'upload',
          secrets: 'A=1',
          'health-check': 'false',
        }),
        workspace: where,
      });
    const first = await run(workspace);
    expectExit(first, 0);
    const id = idOf(sim, name)!;
    const log = mark(sim);
    const again = await run(workspace);
    expectExit(again, 0);
    expect(again.outputs).toMatchObject({
      'skipped-build': 'true',
      'source-digest': first.outputs['source-digest'],
    });
    expect(again.stdout).toMatch(/the same archive \(`source-digest`\)/);
    expect(writes(log)).toBe(0);
    expect(byRoute(log.since(), 'POST', /upload-url$/)).toEqual([]);

    const changed = await run(workspaces.make({ ...files, 'a.py': 'g = 2\n' }));
    expectExit(changed, 0);
    expect(changed.outputs['skipped-build']).toBe('false');
    expect(sim.revisions(id)).toHaveLength(2);
  });
});

describe("skip-unchanged across commits from the checkout's history (no github-token)", () => {
  it('a checkout with both commits needs no compare API', async () => {
    const repo = workspaces.make(
      {
        'agent/langgraph.json': '{"dependencies":["."],"graphs":{"a":"./a.py:g"}}',
        'agent/a.py': '',
      },
      { git: false },
    );
    const git = gitIn(repo);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'agent');
    const first = git('rev-parse', 'HEAD');
    writeFileSync(join(repo, 'README.md'), 'docs');
    git('add', '-A');
    git('commit', '-q', '-m', 'docs');
    const second = git('rev-parse', 'HEAD');

    const name = uniqueName('skip-git');
    const run = (commit: string) => agentRun(name, commit, { workspace: repo });
    expectExit(await run(first), 0);
    const log = mark(sim);
    const docs = await run(second);
    expectExit(docs, 0);
    expect(docs.outputs).toMatchObject({ 'skipped-build': 'true', 'commit-sha': first });
    expect(docs.stdout).toMatch(/\(README.md\) are outside what the agent is built from/);
    expect(writes(log)).toBe(0);
  });
});
