import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GithubContext } from '../../src/inputs/config.js';
import {
  COMPARE_FILE_CAP,
  gitChanges,
  parseNameStatus,
  readChanges,
  readComparison,
  readPullStates,
} from '../../src/github/reads.js';
import { FakeGithub } from '../helpers/fake-github.js';
import { githubContext, recordingLogger } from '../helpers/fakes.js';
import { gitIn } from '../helpers/git.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('readComparison', () => {
  it('reads the files of an ahead comparison, renames with their earlier path', () => {
    expect(
      readComparison(
        {
          status: 'ahead',
          files: [
            { filename: 'web/a.ts', status: 'modified', additions: 1 },
            { filename: 'web/b.ts', status: 'renamed', previous_filename: 'agent/b.ts' },
          ],
        },
        A,
        B,
      ),
    ).toEqual({
      files: [
        { filename: 'web/a.ts', status: 'modified' },
        { filename: 'web/b.ts', status: 'renamed', previous_filename: 'agent/b.ts' },
      ],
    });
    expect(readComparison({ status: 'identical', files: [] }, A, B)).toEqual({ files: [] });
  });

  it('does not trust a diverged or behind comparison, a full (cut) list, or a malformed one', () => {
    const many = Array.from({ length: COMPARE_FILE_CAP }, (_, i) => ({
      filename: `f${i}`,
      status: 'modified',
    }));
    for (const [data, reason] of [
      [{ status: 'diverged', files: [] }, /diverged.*not an ancestor/],
      [{ status: 'behind', files: [] }, /behind/],
      [{ status: 'ahead', files: many }, /300 files.*cut/],
      [{ status: 'ahead' }, /lists no files/],
      [{ status: 'ahead', files: [{ filename: 'x' }] }, /without a name or status/],
    ] as const) {
      const result = readComparison(data, A, B);
      expect('unreadable' in result ? result.unreadable : 'read').toMatch(reason);
    }
  });

  it('makes the answer inert: a status or commit holding a workflow command cannot run', () => {
    const result = readComparison({ status: '::error::x ##[group]y', files: [] }, '::warning::', B);
    const text = 'unreadable' in result ? result.unreadable : 'read';
    expect(text).toMatch(/says :.:error/);
    expect(text).not.toMatch(/::|##\[/);
  });
});

describe("readChanges within the run's timeout", () => {
  let server: Server;
  let apiUrl: string;
  const workspace = mkdtempSync(join(tmpdir(), 'compare-ws-'));
  beforeAll(async () => {
    // A GitHub API that takes the request and never answers.
    server = createServer(() => undefined);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(workspace, { recursive: true, force: true });
  });

  const github = (): GithubContext => ({
    eventName: 'push',
    ref: 'refs/heads/main',
    sha: B,
    repository: 'o/r',
    serverUrl: 'https://github.com',
    apiUrl,
    runId: '1',
    runAttempt: '1',
    workspace,
  });
  const logger = { info() {}, debug() {}, notice() {}, warning() {}, error() {} };

  it('a compare API that never answers is given only what is left of `timeout`', async () => {
    const until = performance.now() + 300;
    const deadline = { remainingMs: () => Math.max(0, until - performance.now()) };
    const started = performance.now();
    const run = { config: { githubToken: 't', github: github() }, logger, deadline };
    const result = await readChanges(run, A, B);
    // Its own 10 s bound would have held the run long past a `timeout` with 0.3 s left.
    expect(performance.now() - started).toBeLessThan(3000);
    expect('unreadable' in result ? result.unreadable : 'read').toMatch(
      /did not answer within 0\.[0-3] s.*`timeout` ran out before the checkout's history was read/,
    );
  });
});

describe("the checkout's own history, the fallback of GitHub's compare API (a real git repository)", () => {
  let repo: string;
  const commits: string[] = [];
  let git: ReturnType<typeof gitIn>;
  function commit(files: Record<string, string>, message: string) {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text);
    }
    git('add', '-A');
    git('commit', '-q', '-m', message);
    commits.push(git('rev-parse', 'HEAD'));
  }

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'git-history-'));
    git = gitIn(repo);
    git('init', '-q');
    commit({ 'agent/a.py': '1', 'web/x.ts': '1' }, 'one');
    commit({ 'web/x.ts': '2', 'docs/y md': 'with a space' }, 'two');
    renameSync(join(repo, 'agent/a.py'), join(repo, 'web/a.py'));
    commit({}, 'three: a rename out of agent/');
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  describe('gitChanges', () => {
    it('lists the files changed between an ancestor and this commit', async () => {
      expect(await gitChanges(repo, commits[0]!, commits[1]!)).toEqual({
        files: [
          { filename: 'docs/y md', status: 'added' },
          { filename: 'web/x.ts', status: 'modified' },
        ],
      });
    });

    it('lists a rename as a removal and an addition, so both paths count', async () => {
      expect(await gitChanges(repo, commits[1]!, commits[2]!)).toEqual({
        files: [
          { filename: 'agent/a.py', status: 'removed' },
          { filename: 'web/a.py', status: 'added' },
        ],
      });
    });

    it('cannot read a commit it does not hold, or a base that is not an ancestor', async () => {
      const missing = await gitChanges(repo, 'f'.repeat(40), commits[1]!);
      expect('unreadable' in missing && missing.unreadable).toMatch(/does not hold both commits/);
      const behind = await gitChanges(repo, commits[2]!, commits[0]!);
      expect('unreadable' in behind && behind.unreadable).toMatch(/is not an ancestor/);
      const none = await gitChanges(tmpdir(), commits[0]!, commits[1]!);
      expect(none).toHaveProperty('unreadable');
    });
  });

  describe('parseNameStatus', () => {
    it('reads NUL-separated pairs and refuses an odd count', () => {
      expect(parseNameStatus('M\0a b\0D\0c\0')).toEqual([
        { filename: 'a b', status: 'modified' },
        { filename: 'c', status: 'removed' },
      ]);
      expect(parseNameStatus('M\0a\0D\0')).toBeUndefined();
    });
  });
});

describe("pull requests' states, for prune", () => {
  let fake: FakeGithub;
  beforeEach(async () => {
    fake = await FakeGithub.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  function read(numbers: number[]) {
    return readPullStates(
      {
        config: { githubToken: 'ghs_test', github: githubContext(fake.url, { pr: false }) },
        logger: recordingLogger(),
        githubTimeoutMs: 2000,
      },
      numbers,
    );
  }

  describe('readPullStates', () => {
    it('open, closed, merged and missing pull requests, with titles', async () => {
      fake.pulls.setPullRequest('octo/app', 1, { state: 'open', title: 'Add search' });
      fake.pulls.setPullRequest('octo/app', 2, { state: 'closed', title: 'Abandoned' });
      fake.pulls.setPullRequest('octo/app', 3, { state: 'closed', merged: true, title: 'Merged' });
      const states = await read([1, 2, 3, 4]);
      expect(Object.fromEntries(states)).toEqual({
        1: { kind: 'open', title: 'Add search' },
        2: { kind: 'closed', title: 'Abandoned' },
        3: { kind: 'merged', title: 'Merged' },
        4: { kind: 'missing' },
      });
      const pulls = fake.requestsTo('GET', /^\/repos\/octo\/app\/pulls\/\d+$/);
      expect(pulls.map((r) => r.path).sort()).toEqual(
        [1, 2, 3, 4].map((n) => `/repos/octo/app/pulls/${n}`),
      );
      expect(pulls.every((r) => r.authorized)).toBe(true);
      // The 404 was checked against the repository once.
      expect(fake.requestsTo('GET', '/repos/octo/app')).toHaveLength(1);
    });

    it('a GitHub failure is unknown with its reason, never "missing"', async () => {
      fake.pulls.setPullRequest('octo/app', 1, { state: 'closed' });
      fake.pulls.setPullRequest('octo/app', 2, { state: 'closed' });
      fake.failOn('GET', '/repos/octo/app/pulls/1', 500, { message: 'Server Error' });
      fake.failOn('GET', '/repos/octo/app/pulls/2', 403, {
        message: 'Resource not accessible by integration',
      });
      const states = await read([1, 2]);
      expect(states.get(1)).toEqual({
        kind: 'unknown',
        reason: expect.stringContaining('HTTP 500'),
      });
      expect(states.get(2)).toEqual({
        kind: 'unknown',
        reason: expect.stringContaining('pull-requests: read'),
      });
    });

    it('404s for a repository the token cannot see are doubt, not "missing"', async () => {
      const states = await read([5, 6]);
      for (const n of [5, 6]) {
        expect(states.get(n)).toEqual({
          kind: 'unknown',
          reason: expect.stringContaining('not readable with this token'),
        });
      }
    });

    it('reads each number once, at most four at a time, and nothing for none', async () => {
      fake.pulls.setPullRequest('octo/app', 1, { state: 'open' });
      expect((await read([])).size).toBe(0);
      expect(fake.requests).toHaveLength(0);
      await read([1, 1, 1]);
      expect(fake.requestsTo('GET', '/repos/octo/app/pulls/1')).toHaveLength(1);
    });
  });

  describe("readPullStates within the run's timeout", () => {
    it('a GitHub API that never answers holds prune no longer than what is left of `timeout`', async () => {
      const { createServer } = await import('node:http');
      const server = createServer(() => undefined); // takes each request, never answers
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const { port } = server.address() as import('node:net').AddressInfo;
      try {
        const until = performance.now() + 300;
        const deadline = { remainingMs: () => Math.max(0, until - performance.now()) };
        const started = performance.now();
        const numbers = Array.from({ length: 20 }, (_, i) => i + 1);
        const states = await readPullStates(
          {
            config: { githubToken: 't', github: githubContext(`http://127.0.0.1:${port}`) },
            logger: recordingLogger(),
            deadline,
          },
          numbers,
        );
        // Each request's own 10 s, four at a time, would be 50 s.
        expect(performance.now() - started).toBeLessThan(3000);
        // Unread means unknown: those previews are kept, never deleted.
        expect([...states.values()].every((s) => s.kind === 'unknown')).toBe(true);
        expect(states.size).toBe(20);
      } finally {
        server.closeAllConnections();
        await new Promise((r) => server.close(r));
      }
    });
  });
});
