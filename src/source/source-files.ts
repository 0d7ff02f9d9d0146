/**
 * Which files of the checkout go into the `upload` archive.
 *
 * - Always left out: the folders `.git/`, `node_modules/`, `__pycache__/`, `.venv/`, `venv/`,
 *   `.tox/`, `.mypy_cache/`, and every `.env` / `.env.*` file at any depth (secrets travel in
 *   the `secrets` input, never in the archive).
 * - Each included folder's `.gitignore` and `.dockerignore` (at every level, relative to the
 *   folder that holds it, the deepest rule that matches deciding, as git does).
 * - Symbolic links, hard links (every path of a file after the first, in sorted order), and
 *   anything that is not a regular file are left out and listed.
 *
 * The result is sorted by archive path, so the archive does not depend on the order in which
 * the file system lists a folder.
 */
import { readdirSync, readFileSync, lstatSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import * as ignoreModule from 'ignore';
import type { Ignore } from 'ignore';

export const ALWAYS_EXCLUDED_FOLDERS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
]);

const IGNORE_FILES = ['.gitignore', '.dockerignore'];

/** `.env` and `.env.<anything>`: environment files, never archived. */
export function isEnvFile(name: string): boolean {
  return name === '.env' || name.startsWith('.env.');
}

export interface SourceFolder {
  /** Absolute path of the folder to archive. */
  absolute: string;
  /** Its path inside the archive (`''` for the archive root), forward slashes. */
  prefix: string;
}

export interface SourceFile {
  /** Path inside the archive, forward slashes, never absolute, never with `..`. */
  archivePath: string;
  absolute: string;
  size: number;
}

export interface LeftOutFile {
  archivePath: string;
  reason: 'symbolic link' | 'hard link' | 'not a regular file';
}

export interface SourceSelection {
  files: SourceFile[];
  leftOut: LeftOutFile[];
}

interface Matcher {
  /** Folder of the ignore file, relative to the walked folder ('' for its root). */
  base: string;
  ig: Ignore;
}

type IgnoreFactory = () => Ignore;

/** Selects the files of `folders` (see the module comment). */
export async function selectSourceFiles(folders: SourceFolder[]): Promise<SourceSelection> {
  const factory = (ignoreModule.default ?? ignoreModule) as unknown as IgnoreFactory;
  const candidates: (SourceFile & { inode?: string })[] = [];
  const leftOut: LeftOutFile[] = [];
  for (const folder of folders) walkFolder(folder, factory, candidates, leftOut);

  candidates.sort((a, b) => compare(a.archivePath, b.archivePath));
  const seenInodes = new Set<string>();
  const files: SourceFile[] = [];
  for (const c of candidates) {
    if (c.inode !== undefined) {
      if (seenInodes.has(c.inode)) {
        leftOut.push({ archivePath: c.archivePath, reason: 'hard link' });
        continue;
      }
      seenInodes.add(c.inode);
    }
    files.push({ archivePath: c.archivePath, absolute: c.absolute, size: c.size });
  }
  leftOut.sort((a, b) => compare(a.archivePath, b.archivePath));
  return { files, leftOut };
}

function walkFolder(
  folder: SourceFolder,
  factory: IgnoreFactory,
  out: (SourceFile & { inode?: string })[],
  leftOut: LeftOutFile[],
): void {
  const archivePathOf = (rel: string) => (folder.prefix ? `${folder.prefix}/${rel}` : rel);
  // Depth-first with an explicit stack of matchers (one per folder that has ignore files).
  const visit = (dirAbs: string, dirRel: string, matchers: Matcher[]) => {
    const own = readIgnoreRules(dirAbs, factory);
    const active = own ? [...matchers, { base: dirRel, ig: own }] : matchers;
    let entries: Dirent[];
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch (error) {
      throw new Error(
        `could not list the folder ${archivePathOf(dirRel) || '.'} (${codeOf(error)})`,
      );
    }
    for (const entry of entries) {
      const name = entry.name;
      if (name === '.' || name === '..' || name.includes('/')) continue;
      const rel = dirRel ? `${dirRel}/${name}` : name;
      const abs = join(dirAbs, name);
      if (entry.isSymbolicLink()) {
        if (!isIgnored(active, rel, false)) {
          leftOut.push({ archivePath: archivePathOf(rel), reason: 'symbolic link' });
        }
        continue;
      }
      if (entry.isDirectory()) {
        if (ALWAYS_EXCLUDED_FOLDERS.has(name) || isIgnored(active, rel, true)) continue;
        visit(abs, rel, active);
        continue;
      }
      if (isEnvFile(name) || isIgnored(active, rel, false)) continue;
      if (!entry.isFile()) {
        leftOut.push({ archivePath: archivePathOf(rel), reason: 'not a regular file' });
        continue;
      }
      let stat;
      try {
        stat = lstatSync(abs, { bigint: false });
      } catch (error) {
        throw new Error(`could not read ${archivePathOf(rel)} (${codeOf(error)})`);
      }
      if (!stat.isFile()) {
        leftOut.push({ archivePath: archivePathOf(rel), reason: 'not a regular file' });
        continue;
      }
      out.push({
        archivePath: archivePathOf(rel),
        absolute: abs,
        size: stat.size,
        ...(stat.nlink > 1 ? { inode: `${stat.dev}:${stat.ino}` } : {}),
      });
    }
  };
  visit(folder.absolute, '', []);
}

/** The rules of the folder's `.gitignore` and `.dockerignore`, or undefined when it has none. */
function readIgnoreRules(dirAbs: string, factory: IgnoreFactory): Ignore | undefined {
  let ig: Ignore | undefined;
  for (const file of IGNORE_FILES) {
    let text: string;
    try {
      text = readFileSync(join(dirAbs, file), 'utf8');
    } catch {
      continue; // absent (or a folder): nothing to honour
    }
    ig ??= factory();
    ig.add(text);
  }
  return ig;
}

/**
 * Whether `rel` (relative to the walked folder) is excluded. The deepest ignore file with a
 * verdict decides, so a nested `!pattern` can bring back what a parent folder excluded.
 */
function isIgnored(matchers: Matcher[], rel: string, isDir: boolean): boolean {
  for (let i = matchers.length - 1; i >= 0; i--) {
    const { base, ig } = matchers[i]!;
    const local = base ? rel.slice(base.length + 1) : rel;
    let verdict;
    try {
      verdict = ig.test(isDir ? `${local}/` : local);
    } catch {
      continue; // a name the matcher cannot express: no rule can match it
    }
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/** Byte-wise order of the UTF-16 strings: stable whatever the locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
