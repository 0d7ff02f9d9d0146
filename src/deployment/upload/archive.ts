/**
 * `source: upload`, before any request: the gzip tarball of the files `source-files.ts`
 * selects, streamed into a temporary file (its exact size is the upload's `Content-Length`;
 * memory does not grow with the archive) while its SHA-256 (`source-digest`) is computed; its
 * size limits; and the pre-flight check that what the config names is in it. Byte-identical
 * for the same files (the README's rules): the options of `create()` below, no folder entries.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pipeline } from 'node:stream/promises';
import { join, relative, resolve } from 'node:path';
import { create } from 'tar';
import type { DeployConfig } from '../../inputs/config.js';
import type { ParsedLangGraphConfig } from '../../preflight/index.js';
import { ActionError, CancelledError, DeadlineError } from '../../lib/errors.js';
import { errorMessage as describe } from '../../lib/text.js';
import type { Deadline, RunBasics } from '../../lib/time.js';
import { inert, type Logger } from '../../lib/untrusted.js';
import {
  planArchive,
  selectSourceFiles,
  toPosix,
  type ArchivePlan,
  type SourceFile,
} from './source-files.js';

const WARN_BYTES = 50 * 1024 * 1024;
export const MAX_BYTES = 200 * 1024 * 1024;
/**
 * The most bytes of files an archive is built from. Source compresses 3 to 10 times, so more
 * cannot fit in 200 MiB compressed except as padding (a sparse file of zeros), and reading it
 * would hold the run for minutes: refused from the file sizes, before anything is read.
 */
const MAX_CONTENT_BYTES = 1024 * 1024 * 1024;
/** Fixed mtime of every entry (`SOURCE_DATE_EPOCH`-style; 1980 keeps zip tools happy). */
export const ARCHIVE_MTIME = new Date('1980-01-01T00:00:00Z');

/** The built archive: its temporary file, size, digest and what went into it. */
export type SourceArchive = Awaited<ReturnType<typeof buildArchive>>;

export interface BuildOptions extends Partial<Pick<RunBasics, 'signal'>> {
  /** Folder for the temporary file; default `RUNNER_TEMP`, else the OS temp folder. */
  tempDir?: string | undefined;
  /** Refuse beyond this many bytes of `.tar.gz` (default 200 MiB); tests lower it. */
  maxBytes?: number | undefined;
  /** The run's `timeout`: the build stops when it has passed (as on cancellation). */
  deadline?: Pick<Deadline, 'passed'> | undefined;
}

/**
 * The archive of the checkout for a run (cancellation and `timeout` obeyed), its summary in
 * the log, and warnings for links left out and for a large archive. Tests lower the limits.
 */
export async function prepareSourceArchive(
  ctx: { config: DeployConfig; logger: Logger; warnBytes?: number } & BuildOptions,
  parsed: ParsedLangGraphConfig | undefined,
): Promise<SourceArchive> {
  const { config, logger } = ctx;
  const plan = planArchive(resolve(config.github.workspace), config.configPath, parsed?.json);
  const archive = await buildArchive(plan, ctx);
  // The graph files the config names must be in the archive: a `.gitignore` rule that also
  // catches one would make a build that cannot start.
  const missing = plan.graphFiles.filter((f) => !archive.files.includes(f));
  if (missing.length > 0) {
    archive.cleanup();
    throw new ActionError(
      `The graph file${missing.length > 1 ? 's' : ''} ${inert(missing.join(', '), 500)} ` +
        `named in ${config.configPath} would not be in the \`source: upload\` archive (left ` +
        'out by a .gitignore or .dockerignore rule, by the built-in exclusions, or missing ' +
        'from the checkout). Re-include with a `!` line, or fix the path in the config.',
      'Pre-flight check: graphs',
    );
  }
  logger.info(
    `Source archive: ${archive.files.length} files (${megabytes(archive.contentBytes)}) from ` +
      `${inert(toPosix(relative(plan.workspace, plan.root)) || '.', 300)}, ` +
      `${megabytes(archive.bytes)} compressed, sha256 ${archive.sha256}; config at ` +
      `${inert(archive.configPathInArchive, 300)} in the archive.`,
  );
  const count = archive.leftOut.length;
  if (count > 0) {
    const shown = archive.leftOut
      .slice(0, 10)
      .map((f) => `${inert(f.archivePath, 200)} (${f.reason})`)
      .join(', ');
    const s = count === 1 ? '' : 's';
    logger.warning(
      `Left out of the source archive: ${count} link${s} or special file${s}: ${shown}` +
        `${count > 10 ? ` and ${count - 10} more` : ''}. Only regular files are uploaded ` +
        '(never links, FIFOs, sockets or devices); copy the files a link points to into the ' +
        'repository if the build needs them.',
      { title: 'Files left out of the upload' },
    );
  }
  const warnBytes = ctx.warnBytes ?? WARN_BYTES;
  if (archive.bytes > warnBytes || archive.contentBytes > warnBytes) {
    logger.warning(
      `The source archive holds ${megabytes(archive.contentBytes)} of files, ` +
        `${megabytes(archive.bytes)} compressed (the limit is ${MAX_BYTES / 1_048_576} MiB compressed). ` +
        `Largest files: ${inert(describeLargest(archive.largest), 1000)}. Leave out what the ` +
        'build does not need with a .gitignore or .dockerignore in the config folder.',
      { title: 'Large source archive' },
    );
  }
  return archive;
}

/** Builds the archive of `plan` into a temporary file. Throws `ActionError` when it cannot. */
export async function buildArchive(plan: ArchivePlan, options: BuildOptions) {
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
  const { files, leftOut } = await selectSourceFiles(plan, checkpoint).catch((error: unknown) => {
    if (error instanceof ActionError) throw error; // the checkpoint's: cancelled, out of time
    throw failed(`${describe(error)}. Check the files' permissions in the checkout`);
  });
  if (!files.some((f) => f.archivePath === plan.configPathInArchive)) {
    throw new ActionError(
      `${plan.configPathInArchive} (input \`config-path\`) would not be in the \`source: upload\` ` +
        'archive: a .gitignore or .dockerignore of its folder excludes it. Remove that rule, ' +
        'or re-include the file with a `!` line.',
      'Invalid input: config-path',
    );
  }
  const largest = [...files].sort((a, b) => b.size - a.size).slice(0, 5);
  const contentBytes = files.reduce((sum, f) => sum + f.size, 0);
  if (contentBytes > MAX_CONTENT_BYTES) {
    throw tooLarge(
      `The files of the \`source: upload\` archive add up to ${megabytes(contentBytes)}, more ` +
        `than the ${megabytes(MAX_CONTENT_BYTES)} it is built from at most (the platform takes 200 MiB ` +
        'compressed), so nothing was read or sent.',
      largest,
    );
  }

  checkpoint(); // nothing is written for a run already cancelled or out of time
  const dir = mkdtempSync(
    join(options.tempDir ?? process.env['RUNNER_TEMP'] ?? tmpdir(), 'langgraph-source-'),
  );
  const file = join(dir, 'source.tar.gz');
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', cleanup);
  const pack = create(
    {
      gzip: { level: 6 },
      cwd: plan.root,
      portable: true,
      mtime: ARCHIVE_MTIME,
      noDirRecurse: true,
      follow: false,
      strict: true, // tar's warnings are errors: they end the pipeline below
      maxReadSize: 256 * 1024,
      jobs: 1,
      filter: (_path, entry) => 'isFile' in entry && entry.isFile(),
    },
    files.map((f) => f.archivePath),
  );

  const hash = createHash('sha256');
  let bytes = 0;
  try {
    // Cancellation destroys every stream of the pipeline (tar's reading of files too).
    await pipeline(
      pack,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          checkpoint();
          bytes += chunk.length;
          if (bytes > maxBytes) {
            throw tooLarge(
              `The \`source: upload\` archive is over ${megabytes(maxBytes)} compressed, the ` +
                "platform's limit, so nothing was sent.",
              largest,
            );
          }
          hash.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(file),
      { signal: options.signal },
    );
  } catch (error) {
    cleanup();
    checkpoint(); // a stream stopped by cancellation reports as such
    if (error instanceof ActionError) throw error;
    throw failed(
      `${describe(error)}. A file may have changed or disappeared while it was read; re-run the job`,
    );
  }
  return {
    /** The temporary `.tar.gz` file; `cleanup()` deletes it (also done at process exit). */
    file,
    /** The upload's `Content-Length`. */
    bytes: statSync(file).size,
    sha256: hash.digest('hex'),
    configPathInArchive: plan.configPathInArchive,
    files: files.map((f) => f.archivePath),
    /** Uncompressed size of the files. */
    contentBytes,
    largest,
    leftOut,
    cleanup,
  };
}

function failed(detail: string): ActionError {
  return new ActionError(
    `The \`source: upload\` archive could not be built: ${detail}.`,
    'Source archive failed',
  );
}

function tooLarge(what: string, largest: SourceFile[]): ActionError {
  return new ActionError(
    `${what} Largest files: ${describeLargest(largest)}. Leave out large files (model ` +
      'weights, data sets, build output) with a .gitignore or .dockerignore in the config ' +
      'folder, or fetch them at run time.',
    'Source archive too large',
  );
}

/**
 * "a.bin (120.0 MiB), b.bin (3.1 MiB)": for the size warning and error. Files that would show
 * as 0.0 MiB are not listed (they are not why the archive is large).
 */
function describeLargest(largest: SourceFile[]): string {
  const shown = largest.filter((f) => f.size >= 0.05 * 1_048_576);
  if (shown.length === 0) return 'none over 0.1 MiB (many small files)';
  return shown.map((f) => `${f.archivePath} (${megabytes(f.size)})`).join(', ');
}

/** Sizes in MiB (1,048,576 bytes), the unit of the platform's limit (209,715,200 bytes). */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MiB`;
}
