/** The checkout's own history as the fallback of GitHub's compare API, on a real git repository. */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gitChanges, parseNameStatus } from '../../../src/report/github/git-history.js';
import { gitIn } from '../../helpers/git.js';

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
