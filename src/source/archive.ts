/**
 * The `upload` archive: where it is rooted, which files it holds (`source-files.ts`), and the
 * gzip tarball itself, built as a stream into a temporary file while its SHA-256 is computed
 * (the `source-digest` output). The exact size is needed for the upload's `Content-Length`,
 * hence the file; memory does not grow with the archive.
 *
 * Byte-identical for the same files: entries sorted, no folder entries, mtime fixed at
 * 1980-01-01 (the earliest time a zip or wheel built from the files can hold), no owner,
 * group, user or device fields, modes 0644/0755 from the executable bit.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ActionError } from '../errors.js';
import { errorMessage as describe } from '../lib/text.js';
import {
  selectSourceFiles,
  type LeftOutFile,
  type SourceFile,
  type SourceFolder,
} from './source-files.js';
import { isRecord as isObject } from '../lib/guards.js';
import { create } from 'tar';

export const WARN_BYTES = 50 * 1024 * 1024;
export const MAX_BYTES = 200 * 1024 * 1024;
/** Fixed mtime of every entry (`SOURCE_DATE_EPOCH`-style; 1980 keeps zip tools happy). */
export const ARCHIVE_MTIME = new Date('1980-01-01T00:00:00Z');

export interface ArchivePlan {
  /** Absolute folder the archive paths are relative to. */
  root: string;
  folders: SourceFolder[];
  /** The config file's path inside the archive (`langgraph_config_path`). */
  configPathInArchive: string;
}

export interface SourceArchive {
  /** The temporary `.tar.gz` file. */
  file: string;
  /** Size of the `.tar.gz` in bytes (the upload's `Content-Length`). */
  bytes: number;
  /** SHA-256 of the `.tar.gz`, hex. */
  sha256: string;
  configPathInArchive: string;
  /** Workspace-relative folder the archive is rooted at (`.` for the workspace). */
  rootInWorkspace: string;
  fileCount: number;
  /** Archive paths of the files, sorted. */
  files: string[];
  /** Uncompressed size of the files. */
  contentBytes: number;
  /** The largest files, largest first (at most five). */
  largest: SourceFile[];
  leftOut: LeftOutFile[];
  /** Deletes the temporary file (also done at process exit). */
  cleanup(): void;
}

const INPUT = 'config-path';

/**
 * Where the archive is rooted: the config's folder, or the common parent of it and the local
 * `dependencies` outside it (`../shared`), with the config path adjusted. Dependencies that
 * are not folders are left to the pre-flight checks; one outside the workspace is an error.
 */
export function planArchive(
  workspace: string,
  configPath: string,
  configJson: unknown,
): ArchivePlan {
  const ws = resolve(workspace);
  const configAbs = resolve(ws, configPath);
  const configDir = dirname(configAbs);
  const folders = [configDir];
  const deps =
    isObject(configJson) && Array.isArray(configJson['dependencies'])
      ? configJson['dependencies']
      : [];
  for (const dep of deps) {
    if (typeof dep !== 'string' || !dep.startsWith('.')) continue; // a package, not a path
    const abs = resolve(configDir, dep);
    if (!isInside(ws, abs)) {
      throw new ActionError(
        `The local dependency "${dep}" of ${configPath} lies outside the repository, so it ` +
          'cannot go into the `source: upload` archive. Move it into the repository, or ' +
          'publish it as a package and list the package instead.',
        `Invalid input: ${INPUT}`,
      );
    }
    if (isFolder(abs)) folders.push(abs);
  }
  let root = configDir;
  for (const f of folders) root = commonParent(root, f);
  // A folder inside another included one is already walked with it.
  const distinct = [...new Set(folders)]
    .sort((a, b) => a.length - b.length)
    .filter((f, i, all) => !all.slice(0, i).some((outer) => isInside(outer, f)));
  return {
    root,
    folders: distinct.map((absolute) => ({ absolute, prefix: toPosix(relative(root, absolute)) })),
    configPathInArchive: toPosix(relative(root, configAbs)),
  };
}

export interface BuildOptions {
  workspace: string;
  /** Folder for the temporary file; default `RUNNER_TEMP`, else the OS temp folder. */
  tempDir?: string;
  /** Refuse beyond this many bytes of `.tar.gz` (default 200 MB); tests lower it. */
  maxBytes?: number;
}

/** Builds the archive of `plan` into a temporary file. Throws `ActionError` when it cannot. */
export async function buildArchive(
  plan: ArchivePlan,
  options: BuildOptions,
): Promise<SourceArchive> {
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  let selection;
  try {
    selection = await selectSourceFiles(plan.folders);
  } catch (error) {
    throw new ActionError(
      `The \`source: upload\` archive could not be built: ${describe(error)}. Check the ` +
        "files' permissions in the checkout.",
      'Source archive failed',
    );
  }
  const { files, leftOut } = selection;
  if (!files.some((f) => f.archivePath === plan.configPathInArchive)) {
    throw new ActionError(
      `${plan.configPathInArchive} (input \`${INPUT}\`) would not be in the \`source: upload\` ` +
        'archive: a .gitignore or .dockerignore of its folder excludes it. Remove that rule, ' +
        'or re-include the file with a `!` line.',
      `Invalid input: ${INPUT}`,
    );
  }
  const largest = [...files].sort((a, b) => b.size - a.size).slice(0, 5);
  const contentBytes = files.reduce((sum, f) => sum + f.size, 0);

  const dir = mkdtempSync(
    join(options.tempDir ?? process.env['RUNNER_TEMP'] ?? tmpdir(), 'langgraph-source-'),
  );
  const file = join(dir, 'source.tar.gz');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', cleanup);
  const warnings: string[] = [];
  const pack = create(
    {
      gzip: { level: 6 },
      cwd: plan.root,
      portable: true,
      mtime: ARCHIVE_MTIME,
      noDirRecurse: true,
      follow: false,
      strict: true,
      maxReadSize: 256 * 1024,
      jobs: 1,
      onwarn: (_code: string, message: string) => warnings.push(message),
      filter: (_path, entry) => 'isFile' in entry && entry.isFile(),
    },
    files.map((f) => f.archivePath),
  );

  const hash = createHash('sha256');
  const out = createWriteStream(file);
  let bytes = 0;
  try {
    for await (const chunk of pack as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBytes) {
        (pack as unknown as { destroy?: () => void }).destroy?.();
        throw tooLarge(maxBytes, largest);
      }
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
  } catch (error) {
    out.destroy();
    cleanup();
    if (error instanceof ActionError) throw error;
    throw new ActionError(
      `The \`source: upload\` archive could not be built: ${describe(error)}. A file may have ` +
        'changed or disappeared while it was read; re-run the job.',
      'Source archive failed',
    );
  }
  if (warnings.length > 0) {
    cleanup();
    throw new ActionError(
      `The \`source: upload\` archive could not be built: ${warnings[0]}.`,
      'Source archive failed',
    );
  }
  const written = statSync(file).size;
  return {
    file,
    bytes: written,
    sha256: hash.digest('hex'),
    configPathInArchive: plan.configPathInArchive,
    rootInWorkspace: toPosix(relative(resolve(options.workspace), plan.root)) || '.',
    fileCount: files.length,
    files: files.map((f) => f.archivePath),
    contentBytes,
    largest,
    leftOut,
    cleanup,
  };
}

/** "a.bin (120.0 MB), b.bin (3.1 MB)": for the size warning and error. */
export function describeLargest(largest: SourceFile[]): string {
  return largest.map((f) => `${f.archivePath} (${megabytes(f.size)})`).join(', ');
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function tooLarge(maxBytes: number, largest: SourceFile[]): ActionError {
  return new ActionError(
    `The \`source: upload\` archive is over ${megabytes(maxBytes)} compressed, the platform's ` +
      `limit, so nothing was sent. Largest files: ${describeLargest(largest)}. Leave out ` +
      'large files (model weights, data sets, build output) with a .gitignore or ' +
      '.dockerignore in the config folder, or fetch them at run time.',
    'Source archive too large',
  );
}

function isInside(parent: string, target: string): boolean {
  const rel = relative(parent, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function commonParent(a: string, b: string): string {
  let p = a;
  while (!isInside(p, b)) {
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  return p;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
