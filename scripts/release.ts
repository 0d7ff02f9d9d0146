/**
 * `npm run release -- 1.2.0 [--dry-run]`: cuts a release from a clean work tree.
 *
 * 1. Checks: the version is X.Y.Z and newer than package.json's; the work tree is clean; the
 *    tag vX.Y.Z does not exist; dist/ is exactly what src/ builds to (a fresh build into a
 *    temporary folder, compared file by file); CHANGELOG.md has an `## Unreleased` section
 *    (or one for this version) to release.
 * 2. Updates the version in package.json and package-lock.json, names the Unreleased section
 *    of CHANGELOG.md after the version and date, and commits that as "Release vX.Y.Z".
 * 3. Tags vX.Y.Z (annotated) and moves the major tag vX to the same commit, which is what
 *    `uses: <owner>/langgraph-deploy-action@vX` resolves to.
 *
 * Nothing is pushed: the script prints the two push commands. `--dry-run` runs every check
 * and prints what it would change, changing nothing. The release workflow
 * (.github/workflows/release.yml) then publishes the GitHub release from the pushed tag.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export interface ReleaseOptions {
  /** The repository's root (work tree). */
  root: string;
  /** `1.2.0` (a leading `v` is accepted). */
  version: string;
  dryRun?: boolean;
  /** `YYYY-MM-DD` for the changelog; default today (UTC). */
  date?: string;
  /**
   * Files of dist/ that differ from a fresh build (relative paths); empty when dist/ is
   * current. Default: build with `scripts/package.mjs --outdir <tmp>` and compare.
   */
  checkDist?: (root: string) => string[];
  log?: (line: string) => void;
}

export interface ReleasePlan {
  version: string;
  tag: string;
  majorTag: string;
  /** The commit the major tag pointed at before, if it existed. */
  previousMajor?: string;
  pushCommands: string[];
}

export class ReleaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReleaseError';
  }
}

const VERSION = /^(\d+)\.(\d+)\.(\d+)$/;

function git(root: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
}

function tryGit(root: string, args: string[]): string | undefined {
  try {
    return git(root, args);
  } catch {
    return undefined;
  }
}

function compareVersions(a: string, b: string): number {
  const pa = VERSION.exec(a)!.slice(1).map(Number);
  const pb = VERSION.exec(b)!.slice(1).map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

/** Builds the bundle into a temporary folder and lists the files that differ from dist/. */
export function distDifferences(root: string): string[] {
  const out = mkdtempSync(join(tmpdir(), 'release-dist-'));
  try {
    execFileSync(process.execPath, ['scripts/package.mjs', '--outdir', out], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const built = listFiles(out);
    let committed: string[];
    try {
      committed = listFiles(join(root, 'dist'));
    } catch {
      committed = [];
    }
    const differ = new Set<string>();
    for (const file of new Set([...built, ...committed])) {
      if (!built.includes(file) || !committed.includes(file)) differ.add(file);
      else if (!readFileSync(join(out, file)).equals(readFileSync(join(root, 'dist', file)))) {
        differ.add(file);
      }
    }
    return [...differ].sort();
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The changelog with its `## Unreleased…` heading renamed to this version and date. */
export function releaseChangelog(text: string, version: string, date: string): string {
  const heading = `## ${version} (${date})`;
  const existing = new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`, 'm');
  if (existing.test(text)) return text;
  const unreleased = /^## Unreleased.*$/m;
  if (!unreleased.test(text)) {
    throw new ReleaseError(
      `CHANGELOG.md has neither an "## Unreleased" section nor one for ${version}: write the ` +
        'release notes first.',
    );
  }
  return text.replace(unreleased, heading);
}

export function release(options: ReleaseOptions): ReleasePlan {
  const { root } = options;
  const log = options.log ?? ((line: string) => console.log(line));
  const version = options.version.replace(/^v/, '');
  if (!VERSION.test(version)) {
    throw new ReleaseError(`"${options.version}" is not a version of the form X.Y.Z (e.g. 1.2.0).`);
  }
  const tag = `v${version}`;
  const majorTag = `v${VERSION.exec(version)![1]}`;

  if (tryGit(root, ['rev-parse', '--is-inside-work-tree']) !== 'true') {
    throw new ReleaseError(`${root} is not a git work tree.`);
  }
  const dirty = git(root, ['status', '--porcelain']);
  if (dirty !== '') {
    throw new ReleaseError(`The work tree is not clean; commit or stash these first:\n${dirty}`);
  }
  if (tryGit(root, ['rev-parse', '--verify', '--quiet', `refs/tags/${tag}`]) !== undefined) {
    throw new ReleaseError(`The tag ${tag} exists already: choose the next version.`);
  }

  const pkgPath = join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { version?: string };
  const current = pkg.version ?? '0.0.0';
  if (VERSION.test(current) && compareVersions(version, current) <= 0) {
    throw new ReleaseError(`${version} is not newer than package.json's version ${current}.`);
  }

  const differ = (options.checkDist ?? distDifferences)(root);
  if (differ.length > 0) {
    throw new ReleaseError(
      `dist/ is not what src/ builds to (${differ.join(', ')}). Run \`npm run package\`, ` +
        'commit dist/, and release again.',
    );
  }

  const changelogPath = join(root, 'CHANGELOG.md');
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  let changelog: string;
  try {
    changelog = readFileSync(changelogPath, 'utf8');
  } catch {
    throw new ReleaseError('CHANGELOG.md is missing: write the release notes first.');
  }
  const newChangelog = releaseChangelog(changelog, version, date);
  const previousMajor = tryGit(root, [
    'rev-parse',
    '--verify',
    '--quiet',
    `refs/tags/${majorTag}^{commit}`,
  ]);
  const plan: ReleasePlan = {
    version,
    tag,
    majorTag,
    ...(previousMajor ? { previousMajor } : {}),
    pushCommands: [`git push origin HEAD ${tag}`, `git push --force origin ${majorTag}`],
  };

  const what = [
    `package.json version ${current} → ${version}`,
    `CHANGELOG.md: "## Unreleased" → "## ${version} (${date})"`,
    `commit "Release ${tag}"`,
    `tag ${tag}`,
    previousMajor
      ? `move ${majorTag} from ${previousMajor.slice(0, 12)} to the release commit`
      : `create ${majorTag} on the release commit`,
  ];
  if (options.dryRun) {
    log(`Dry run: every check passed. Would do:\n${what.map((w) => `  - ${w}`).join('\n')}`);
    return plan;
  }

  pkg.version = version;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  const lockPath = join(root, 'package-lock.json');
  let lockChanged = false;
  try {
    const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as {
      version?: string;
      packages?: Record<string, { version?: string }>;
    };
    lock.version = version;
    if (lock.packages?.['']) lock.packages[''].version = version;
    writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
    lockChanged = true;
  } catch {
    // No lock file: nothing to update.
  }
  writeFileSync(changelogPath, newChangelog);
  git(root, ['add', 'package.json', 'CHANGELOG.md', ...(lockChanged ? ['package-lock.json'] : [])]);
  git(root, ['commit', '-q', '-m', `Release ${tag}`]);
  git(root, ['tag', '-a', tag, '-m', `Release ${tag}`]);
  git(root, ['tag', '-f', '-a', majorTag, '-m', `${majorTag}: latest is ${tag}`]);
  log(
    `Done:\n${what.map((w) => `  - ${w}`).join('\n')}\nPublish with:\n  ${plan.pushCommands.join('\n  ')}`,
  );
  return plan;
}

function main(argv: string[]): number {
  const dryRun = argv.includes('--dry-run');
  const rest = argv.filter((a) => a !== '--dry-run');
  if (rest.length !== 1 || rest[0] === '--help') {
    console.error('Usage: npm run release -- X.Y.Z [--dry-run]');
    return 2;
  }
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  try {
    release({ root, version: rest[0]!, dryRun });
    return 0;
  } catch (error) {
    if (error instanceof ReleaseError) {
      console.error(`Release stopped: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
