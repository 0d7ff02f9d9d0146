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
import { dirname, join, relative, resolve, sep } from 'node:path';
import { isInside, realWorkspace, refusalText, resolveInsideWorkspace } from '../../lib/paths.js';
import { ActionError, CancelledError, DeadlineError } from '../../lib/errors.js';
import { errorMessage as describe } from '../../lib/text.js';
import {
  selectSourceFiles,
  type LeftOutFile,
  type SourceFile,
  type SourceFolder,
} from './source-files.js';
import { isRecord as isObject } from '../../lib/guards.js';
import { create } from 'tar';

export const WARN_BYTES = 50 * 1024 * 1024;
export const MAX_BYTES = 200 * 1024 * 1024;
/**
 * The most bytes of files an archive is built from. Source compresses 3 to 10 times, so more
 * cannot fit in 200 MiB compressed except as padding (a sparse file of zeros), and reading it
 * would hold the run for minutes: refused from the file sizes, before anything is read.
 */
export const MAX_CONTENT_BYTES = 1024 * 1024 * 1024;
/** Fixed mtime of every entry (`SOURCE_DATE_EPOCH`-style; 1980 keeps zip tools happy). */
export const ARCHIVE_MTIME = new Date('1980-01-01T00:00:00Z');

export interface ArchivePlan {
  /** Absolute (real) folder the archive paths are relative to. */
  root: string;
  /** The workspace's real path: the repository root whose ignore rules apply. */
  workspace: string;
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
 * `dependencies` outside it (`../shared`), with the config path adjusted. Every folder is
 * taken by its real path (links followed), which must lie inside the workspace and outside
 * `.git` (the one path rule, `lib/paths.ts`); anything else is an error that names the
 * dependency. Dependencies that do not exist or are not folders are left to the pre-flight
 * checks.
 */
export function planArchive(
  workspace: string,
  configPath: string,
  configJson: unknown,
): ArchivePlan {
  const ws = realWorkspace(workspace);
  const config = resolveInsideWorkspace(ws, configPath);
  if (!config.ok) {
    throw new ActionError(
      `${INPUT} "${configPath}" ${refusalText(config.refusal, config.code)}, so it cannot be the ` +
        'root of the `source: upload` archive. Point it at the config file in the repository.',
      `Invalid input: ${INPUT}`,
    );
  }
  const configAbs = config.real;
  const configDir = dirname(configAbs);
  const folders = [configDir];
  const deps =
    isObject(configJson) && Array.isArray(configJson['dependencies'])
      ? configJson['dependencies']
      : [];
  for (const dep of deps) {
    // A package, not a path (`langgraph` treats `.`-paths as local; an absolute path is too).
    if (typeof dep !== 'string' || !/^[./~\\]/.test(dep)) continue;
    const where = resolveInsideWorkspace(ws, resolve(configDir, dep));
    if (
      !where.ok &&
      (where.refusal === 'outside' || where.refusal === 'git' || dep.startsWith('~'))
    ) {
      throw new ActionError(
        `The local dependency "${dep}" of ${configPath} ` +
          (where.refusal === 'git'
            ? 'is, or lies inside, a `.git` folder'
            : 'lies outside the repository (its real path, links followed, leaves the checkout)') +
          ', so it cannot go into the `source: upload` archive and nothing was sent. List the ' +
          'folder of the agent’s own code inside the repository instead, or publish the ' +
          'dependency as a package and list the package.',
        `Invalid input: ${INPUT}`,
      );
    }
    if (where.ok && isFolder(where.real)) folders.push(where.real);
  }
  let root = configDir;
  for (const f of folders) root = commonParent(root, f);
  // A folder inside another included one is already walked with it.
  const distinct = [...new Set(folders)]
    .sort((a, b) => a.length - b.length)
    .filter((f, i, all) => !all.slice(0, i).some((outer) => isInside(outer, f)));
  return {
    root,
    workspace: ws,
    folders: distinct.map((absolute) => ({ absolute, prefix: toPosix(relative(root, absolute)) })),
    configPathInArchive: toPosix(relative(root, configAbs)),
  };
}

export interface BuildOptions {
  workspace: string;
  /** Folder for the temporary file; default `RUNNER_TEMP`, else the OS temp folder. */
  tempDir?: string;
  /** Refuse beyond this many bytes of `.tar.gz` (default 200 MiB); tests lower it. */
  maxBytes?: number;
  /** Refuse, before reading a byte, files that add up to more than this (default 1 GiB). */
  maxContentBytes?: number;
  /** Cancellation: the build stops at once. */
  signal?: AbortSignal;
  /** The run's `timeout`: the build stops when it has passed. */
  deadline?: { passed(): boolean };
}

/** Builds the archive of `plan` into a temporary file. Throws `ActionError` when it cannot. */
export async function buildArchive(
  plan: ArchivePlan,
  options: BuildOptions,
): Promise<SourceArchive> {
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  const checkpoint = () => {
    if (options.signal?.aborted) {
      throw new CancelledError('The run was cancelled while the source archive was built.');
    }
    if (options.deadline?.passed()) {
      throw new DeadlineError(
        'The `timeout` ran out while the `source: upload` archive was built; nothing was sent. ' +
          'Leave out what the build does not need (.gitignore / .dockerignore), or raise `timeout`.',
      );
    }
  };
  let selection;
  try {
    selection = await selectSourceFiles(plan.folders, { workspace: plan.workspace, checkpoint });
  } catch (error) {
    if (error instanceof CancelledError || error instanceof DeadlineError) throw error;
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
  const maxContent = options.maxContentBytes ?? MAX_CONTENT_BYTES;
  if (contentBytes > maxContent) {
    throw new ActionError(
      `The files of the \`source: upload\` archive add up to ${megabytes(contentBytes)}, more ` +
        `than the ${megabytes(maxContent)} it is built from at most (the platform takes 200 MiB ` +
        `compressed), so nothing was read or sent. Largest files: ${describeLargest(largest)}. ` +
        'Leave out large files (model weights, data sets, build output) with a .gitignore or ' +
        '.dockerignore, or fetch them at run time.',
      'Source archive too large',
    );
  }

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
  const stop = () => (pack as unknown as { destroy?: (e?: Error) => void }).destroy?.();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of pack as AsyncIterable<Buffer>) {
      checkpoint();
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
    checkpoint(); // a stream stopped by cancellation reports as such
    if (error instanceof ActionError || error instanceof DeadlineError) throw error;
    throw new ActionError(
      `The \`source: upload\` archive could not be built: ${describe(error)}. A file may have ` +
        'changed or disappeared while it was read; re-run the job.',
      'Source archive failed',
    );
  }
  options.signal?.removeEventListener('abort', stop);
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
    rootInWorkspace: toPosix(relative(plan.workspace, plan.root)) || '.',
    fileCount: files.length,
    files: files.map((f) => f.archivePath),
    contentBytes,
    largest,
    leftOut,
    cleanup,
  };
}

/**
 * "a.bin (120.0 MiB), b.bin (3.1 MiB)": for the size warning and error. Files that would show
 * as 0.0 MiB are not listed (they are not why the archive is large).
 */
export function describeLargest(largest: SourceFile[]): string {
  const shown = largest.filter((f) => f.size >= 0.05 * 1_048_576);
  if (shown.length === 0) return 'none over 0.1 MiB (many small files)';
  return shown.map((f) => `${f.archivePath} (${megabytes(f.size)})`).join(', ');
}

/** Sizes in MiB (1,048,576 bytes), the unit of the platform's limit (209,715,200 bytes). */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
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
