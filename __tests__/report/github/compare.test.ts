import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GithubContext } from '../../../src/inputs/config.js';
import {
  COMPARE_FILE_CAP,
  readChanges,
  readComparison,
} from '../../../src/report/github/compare.js';

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
    const result = await readChanges({
      token: 't',
      github: github(),
      base: A,
      head: B,
      logger,
      deadline,
    });
    // Its own 10 s bound would have held the run long past a `timeout` with 0.3 s left.
    expect(performance.now() - started).toBeLessThan(3000);
    expect('unreadable' in result ? result.unreadable : 'read').toMatch(
      /did not answer within 0\.[0-3] s.*`timeout` ran out before the checkout's history was read/,
    );
  });
});
