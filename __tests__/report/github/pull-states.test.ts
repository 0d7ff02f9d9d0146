import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { readPullStates } from '../../../src/report/github/pull-states.js';
import { FakeGithub } from '../../helpers/fake-github.js';
import { githubContext, recordingLogger } from '../../helpers/fakes.js';

let fake: FakeGithub;
beforeEach(async () => {
  fake = await FakeGithub.start();
});
afterEach(async () => {
  await fake.close();
});

function read(numbers: number[]) {
  return readPullStates(numbers, {
    token: 'ghs_test',
    github: githubContext(fake.url, { pr: false }),
    logger: recordingLogger(),
    timeoutMs: 2000,
  });
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
    expect(states.get(1)).toEqual({ kind: 'unknown', reason: expect.stringContaining('HTTP 500') });
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
      const states = await readPullStates(numbers, {
        token: 't',
        github: githubContext(`http://127.0.0.1:${port}`),
        logger: recordingLogger(),
        deadline,
      });
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
