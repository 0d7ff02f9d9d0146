import { afterEach, describe, expect, it } from '@jest/globals';
import { isIgnoredByGit } from '../../src/preflight/env.js';
import { makeWorkspace, removeWorkspaces } from './helpers.js';

afterEach(() => removeWorkspaces());

describe('isIgnoredByGit', () => {
  const cases: [string, Record<string, string>, string, boolean][] = [
    ['a plain name at any depth', { '.gitignore': '.env\n' }, 'apps/agent/.env', true],
    ['a leading slash anchors to the root', { '.gitignore': '/.env\n' }, 'apps/.env', false],
    ['an inner slash anchors too', { '.gitignore': 'apps/.env\n' }, 'apps/.env', true],
    ['a star does not cross folders', { '.gitignore': 'apps/*.env\n' }, 'apps/x/a.env', false],
    ['** crosses folders', { '.gitignore': '**/secrets/.env\n' }, 'a/b/secrets/.env', true],
    ['an ignored folder ignores its files', { '.gitignore': 'config/\n' }, 'config/.env', true],
    ['a folder pattern does not match a file', { '.gitignore': '.env/\n' }, '.env', false],
    ['a comment is no rule', { '.gitignore': '# .env\n' }, '.env', false],
    ['a character class', { '.gitignore': '.env.[lp]*\n' }, '.env.local', true],
    ['the later rule wins', { '.gitignore': '.env\n!.env\n' }, '.env', false],
    ['a nested file applies below its folder', { 'a/.gitignore': '.env\n' }, 'a/b/.env', true],
    ['a nested file not above it', { 'a/.gitignore': '.env\n' }, 'b/.env', false],
    ['no .gitignore at all', {}, '.env', false],
    ['escapes and trailing spaces', { '.gitignore': '\\#notes  \n' }, '#notes', true],
    ['.git/info/exclude', { '.git/info/exclude': '.env\n' }, 'a/.env', true],
    [
      'no re-include inside an ignored folder',
      { '.gitignore': 'a/\n', 'a/.gitignore': '!.env\n' },
      'a/.env',
      true,
    ],
  ];
  it.each(cases)('%s', (_what, files, path, expected) => {
    expect(isIgnoredByGit(makeWorkspace(files), path)).toBe(expected);
  });

  it('never answers for a path that leaves the workspace', () => {
    expect(isIgnoredByGit(makeWorkspace({ '.gitignore': '*\n' }), '../x/.env')).toBe(false);
  });
});
