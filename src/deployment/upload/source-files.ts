/**
 * Which files of the checkout go into the `upload` archive.
 *
 * - Always left out: `.git` (folder or file), the folders `node_modules/`, `__pycache__/`,
 *   `.venv/`, `venv/`, `.tox/`, `.mypy_cache/`, every `.env` / `.env.*` file at any depth
 *   (secrets travel in the `secrets` input, never in the archive), and the `gha-creds-*.json`
 *   files that CI credential steps write into the workspace.
 * - What git ignores in this checkout: every `.gitignore` from the workspace (the repository
 *   root) down to each file, and `.git/info/exclude`; plus each included folder's
 *   `.dockerignore` (relative to the folder that holds it, the deepest rule that matches
 *   deciding, as git does). Ignore files are read through the one path rule (`lib/paths.ts`).
 * - Symbolic links, hard links (every name of a file that has more than one: one of them may
 *   lie outside the checkout), and anything that is not a regular file (FIFOs, sockets,
 *   devices) are left out, without opening them, and listed.
 *
 * The result is sorted by archive path, so the archive does not depend on the order in which
 * the file system lists a folder.
 */
import { readdirSync, lstatSync, type Dirent } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as ignoreModule from 'ignore';
import type { Ignore } from 'ignore';
import { isGitName, readInsideWorkspace, readRegularFile } from '../../lib/paths.js';

export const ALWAYS_EXCLUDED_FOLDERS: ReadonlySet<string> = new Set([
  '.git',
  'node_modules',
  '__pycache__',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
]);

/** Entries of one folder between two checks of the deadline and cancellation. */
const CHECKPOINT_EVERY = 1000;

/** Ignore files are small; a larger one is not honoured whole, so the build stops. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** `.env` and `.env.<anything>`: environment files, never archived. */
export function isEnvFile(name: string): boolean {
  return name === '.env' || name.startsWith('.env.');
}

/** Never archived, wherever they are: `.git`, environment files, CI credential files. */
export function isNeverArchived(name: string): boolean {
  return isGitName(name) || isEnvFile(name) || /^gha-creds-.*\.json$/i.test(name);
}

export interface SelectOptions {
  /** The checkout (repository root); default: the first folder. Ignore rules start here. */
  workspace?: string;
  /** Called between folders: throws to stop the walk (timeout, cancellation). */
  checkpoint?: () => void;
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
  /** Folder of the ignore file, relative to the workspace ('' for its root). */
  base: string;
  ig: Ignore;
}

type IgnoreFactory = () => Ignore;

/** Selects the files of `folders` (see the module comment). */
export async function selectSourceFiles(
  folders: SourceFolder[],
  options: SelectOptions = {},
): Promise<SourceSelection> {
  const factory = (ignoreModule.default ?? ignoreModule) as unknown as IgnoreFactory;
  const workspace = options.workspace ?? folders[0]?.absolute ?? '.';
  const walk: Walk = {
    workspace,
    factory,
    out: [],
    leftOut: [],
    checkpoint: options.checkpoint ?? (() => undefined),
  };
  for (const folder of folders) walkFolder(walk, folder);

  const files = walk.out;
  const leftOut = walk.leftOut;
  files.sort((a, b) => compare(a.archivePath, b.archivePath));
  leftOut.sort((a, b) => compare(a.archivePath, b.archivePath));
  return { files, leftOut };
}

interface Walk {
  workspace: string;
  factory: IgnoreFactory;
  out: SourceFile[];
  leftOut: LeftOutFile[];
  checkpoint: () => void;
}

/**
 * The ignore rules that hold for `folder` before its own: `.git/info/exclude`, then each
 * `.gitignore` from the workspace down to the folder's parent. `undefined` when one of those
 * rules ignores the folder itself (git never looks inside an ignored folder).
 */
function inheritedMatchers(walk: Walk, folderRel: string): Matcher[] | undefined {
  const matchers: Matcher[] = [];
  // `.git` itself is never read through the path rule; its exclude file only ever narrows
  // what is sent, so it is read directly (a regular file, bounded, not through a last link).
  const exclude = readRegularFile(join(walk.workspace, '.git', 'info', 'exclude'), 1024 * 1024);
  if (exclude.ok) matchers.push({ base: '', ig: walk.factory().add(exclude.text) });
  const parts = folderRel === '' ? [] : folderRel.split('/');
  for (let i = 0; i < parts.length; i++) {
    const dirRel = parts.slice(0, i).join('/');
    const own = readRules(walk, [joinRel(dirRel, '.gitignore')]);
    if (own) matchers.push({ base: dirRel, ig: own });
    if (isIgnored(matchers, parts.slice(0, i + 1).join('/'), true)) return undefined;
  }
  return matchers;
}

function walkFolder(walk: Walk, folder: SourceFolder): void {
  const archivePathOf = (rel: string) => (folder.prefix ? `${folder.prefix}/${rel}` : rel);
  // Paths relative to the workspace drive the ignore rules; `rel` (relative to the walked
  // folder) names the file in the archive.
  const folderRel = relative(walk.workspace, folder.absolute).split(sep).join('/');
  const inherited = inheritedMatchers(walk, folderRel);
  if (!inherited) return;
  const visit = (dirAbs: string, dirRel: string, matchers: Matcher[]) => {
    walk.checkpoint();
    const dirWs = joinRel(folderRel, dirRel);
    const own = readRules(walk, [joinRel(dirWs, '.gitignore'), joinRel(dirWs, '.dockerignore')]);
    const active = own ? [...matchers, { base: dirWs, ig: own }] : matchers;
    let entries: Dirent[];
    try {
      entries = readdirSync(dirAbs, { withFileTypes: true });
    } catch (error) {
      throw new Error(
        `could not list the folder ${archivePathOf(dirRel) || '.'} (${codeOf(error)})`,
      );
    }
    for (const [index, entry] of entries.entries()) {
      // A folder of a million files is seconds of synchronous work: stop within it too.
      if (index > 0 && index % CHECKPOINT_EVERY === 0) walk.checkpoint();
      const name = entry.name;
      if (name === '.' || name === '..' || name.includes('/')) continue;
      // `.git` (folder or file), `.env*` and credential files: never, whatever their kind.
      if (isNeverArchived(name)) continue;
      const rel = dirRel ? `${dirRel}/${name}` : name;
      const wsRel = joinRel(folderRel, rel);
      const abs = join(dirAbs, name);
      if (entry.isSymbolicLink()) {
        if (!isIgnored(active, wsRel, false)) {
          walk.leftOut.push({ archivePath: archivePathOf(rel), reason: 'symbolic link' });
        }
        continue;
      }
      if (entry.isDirectory()) {
        if (ALWAYS_EXCLUDED_FOLDERS.has(name) || isIgnored(active, wsRel, true)) continue;
        visit(abs, rel, active);
        continue;
      }
      if (isIgnored(active, wsRel, false)) continue;
      if (!entry.isFile()) {
        walk.leftOut.push({ archivePath: archivePathOf(rel), reason: 'not a regular file' });
        continue;
      }
      let stat;
      try {
        stat = lstatSync(abs, { bigint: false });
      } catch (error) {
        throw new Error(`could not read ${archivePathOf(rel)} (${codeOf(error)})`);
      }
      if (!stat.isFile()) {
        walk.leftOut.push({ archivePath: archivePathOf(rel), reason: 'not a regular file' });
        continue;
      }
      // A hard link may be a second name of a file outside the checkout (`ln ~/.ssh/id_rsa`),
      // so no name of a file with more than one is sent.
      if (stat.nlink > 1) {
        walk.leftOut.push({ archivePath: archivePathOf(rel), reason: 'hard link' });
        continue;
      }
      walk.out.push({ archivePath: archivePathOf(rel), absolute: abs, size: stat.size });
    }
  };
  visit(folder.absolute, '', inherited);
}

/**
 * The rules of the given ignore files (workspace-relative), or undefined when there are none.
 * Read through the one path rule: a link, FIFO or folder of that name is no ignore file.
 */
function readRules(walk: Walk, files: string[]): Ignore | undefined {
  let ig: Ignore | undefined;
  for (const file of files) {
    const read = readInsideWorkspace(walk.workspace, file, MAX_IGNORE_FILE_BYTES);
    if (!read.ok) {
      if (read.refusal === 'too-large') {
        throw new Error(`${file} is larger than 1 MiB, so its rules cannot all be honoured`);
      }
      continue; // absent (or not a regular file inside the checkout): nothing to honour
    }
    ig ??= walk.factory();
    ig.add(read.text);
  }
  return ig;
}

function joinRel(a: string, b: string): string {
  return a === '' ? b : b === '' ? a : `${a}/${b}`;
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
