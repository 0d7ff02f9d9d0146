/** The release script on a temporary git repository (real git, nothing pushed). */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { distDifferences, release, releaseChangelog, ReleaseError } from '../scripts/release.js';

let repo: string;
const lines: string[] = [];
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();
const fresh = () => [] as string[];

const CHANGELOG = '# Changelog\n\n## Unreleased\n\n- Something new.\n\n## 1.1.0\n\n- Old.\n';

beforeEach(() => {
  lines.length = 0;
  repo = mkdtempSync(join(tmpdir(), 'release-test-'));
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Release Test');
  git('config', 'user.email', 'release@example.com');
  git('config', 'commit.gpgsign', 'false');
  git('config', 'tag.gpgsign', 'false');
  writeFileSync(join(repo, 'package.json'), '{\n  "name": "x",\n  "version": "1.1.0"\n}\n');
  writeFileSync(
    join(repo, 'package-lock.json'),
    '{\n  "name": "x",\n  "version": "1.1.0",\n  "packages": {\n    "": {\n      "version": "1.1.0"\n    }\n  }\n}\n',
  );
  writeFileSync(join(repo, 'CHANGELOG.md'), CHANGELOG);
  git('add', '.');
  git('commit', '-q', '-m', 'initial');
  git('tag', '-a', 'v1', '-m', 'v1');
});

afterEach(() => rmSync(repo, { recursive: true, force: true }));

const run = (version: string, extra: Partial<Parameters<typeof release>[0]> = {}) =>
  release({
    root: repo,
    version,
    date: '2026-11-23',
    checkDist: fresh,
    log: (l) => lines.push(l),
    ...extra,
  });

describe('npm run release', () => {
  it('bumps the version, names the changelog section, commits, tags vX.Y.Z and moves vX', () => {
    const before = git('rev-parse', 'HEAD');
    const plan = run('1.2.0');
    const head = git('rev-parse', 'HEAD');
    expect(head).not.toBe(before);
    expect(git('log', '-1', '--format=%s')).toBe('Release v1.2.0');
    expect(git('rev-parse', 'v1.2.0^{commit}')).toBe(head);
    expect(git('rev-parse', 'v1^{commit}')).toBe(head);
    expect(plan.previousMajor).toBe(before);
    expect(JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')).version).toBe('1.2.0');
    const lock = JSON.parse(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
    expect([lock.version, lock.packages[''].version]).toEqual(['1.2.0', '1.2.0']);
    expect(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8')).toContain(
      '## 1.2.0 (2026-11-23)\n\n- Something new.',
    );
    expect(git('status', '--porcelain')).toBe('');
    expect(plan.pushCommands).toEqual([
      'git push origin HEAD v1.2.0',
      'git push --force origin v1',
    ]);
  });

  it('--dry-run checks everything and changes nothing', () => {
    const before = git('rev-parse', 'HEAD');
    const plan = run('v1.2.0', { dryRun: true });
    expect(plan.tag).toBe('v1.2.0');
    expect(git('rev-parse', 'HEAD')).toBe(before);
    expect(git('tag', '--list')).toBe('v1');
    expect(git('rev-parse', 'v1^{commit}')).toBe(before);
    expect(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8')).toBe(CHANGELOG);
    expect(lines.join('\n')).toMatch(/Dry run: every check passed[\s\S]*move v1/);
  });

  it('a new major version creates its own major tag and leaves v1 alone', () => {
    const before = git('rev-parse', 'HEAD');
    run('2.0.0');
    expect(git('rev-parse', 'v2^{commit}')).toBe(git('rev-parse', 'HEAD'));
    expect(git('rev-parse', 'v1^{commit}')).toBe(before);
  });

  it('refuses a work tree that is not clean', () => {
    writeFileSync(join(repo, 'stray.txt'), 'x');
    expect(() => run('1.2.0')).toThrow(/not clean[\s\S]*stray\.txt/);
    expect(git('tag', '--list')).toBe('v1');
  });

  it('refuses a dist/ that is not what src/ builds to', () => {
    expect(() => run('1.2.0', { checkDist: () => ['index.js'] })).toThrow(
      /dist\/ is not what src\/ builds to \(index\.js\)/,
    );
    expect(git('tag', '--list')).toBe('v1');
  });

  it('refuses a malformed, old or already tagged version, and missing release notes', () => {
    expect(() => run('1.2')).toThrow(ReleaseError);
    expect(() => run('1.1.0')).toThrow(/not newer/);
    git('tag', 'v1.3.0');
    expect(() => run('1.3.0')).toThrow(/exists already/);
    writeFileSync(join(repo, 'CHANGELOG.md'), '# Changelog\n\n## 1.1.0\n');
    git('commit', '-q', '-am', 'no notes');
    expect(() => run('1.2.0')).toThrow(/neither an "## Unreleased" section/);
  });

  it('compares dist/ with a fresh build of scripts/package.mjs', () => {
    mkdirSync(join(repo, 'scripts'));
    writeFileSync(
      join(repo, 'scripts', 'package.mjs'),
      "import{mkdirSync,writeFileSync}from'node:fs';const o=process.argv[process.argv.indexOf('--outdir')+1];" +
        "mkdirSync(o+'/chunks',{recursive:true});writeFileSync(o+'/index.js','built');writeFileSync(o+'/chunks/a.mjs','a');\n",
    );
    mkdirSync(join(repo, 'dist', 'chunks'), { recursive: true });
    writeFileSync(join(repo, 'dist', 'index.js'), 'built');
    writeFileSync(join(repo, 'dist', 'chunks', 'a.mjs'), 'a');
    expect(distDifferences(repo)).toEqual([]);
    writeFileSync(join(repo, 'dist', 'index.js'), 'stale');
    writeFileSync(join(repo, 'dist', 'old.mjs'), 'left over');
    expect(distDifferences(repo)).toEqual(['index.js', 'old.mjs']);
  });
});

describe('releaseChangelog', () => {
  it('keeps a changelog that already has the version', () => {
    const text = '# Changelog\n\n## 1.2.0\n\n- x\n';
    expect(releaseChangelog(text, '1.2.0', '2026-01-01')).toBe(text);
  });

  it('renames "## Unreleased (1.2.0)" too', () => {
    expect(releaseChangelog('## Unreleased (1.2.0)\n', '1.2.0', '2026-01-01')).toBe(
      '## 1.2.0 (2026-01-01)\n',
    );
  });
});
