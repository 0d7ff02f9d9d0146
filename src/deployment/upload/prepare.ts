/**
 * `source: upload`, before any request: the archive of the checkout, its digest, the size
 * checks, and the pre-flight check that what the config names is really in it.
 */
import { resolve } from 'node:path';
import type { Config } from '../../inputs/config.js';
import { ActionError } from '../../lib/errors.js';
import type { ParsedLangGraphConfig } from '../../preflight/index.js';
import { inert, type Logger } from '../../lib/untrusted.js';
import {
  buildArchive,
  describeLargest,
  megabytes,
  planArchive,
  MAX_BYTES,
  WARN_BYTES,
  type SourceArchive,
} from './archive.js';
import { isRecord as isObject } from '../../lib/guards.js';

export interface PrepareContext {
  config: Config;
  logger: Logger;
  /** The run's cancellation and `timeout`: the archive build obeys both. */
  signal?: AbortSignal;
  deadline?: { passed(): boolean };
}

export interface PrepareOptions {
  /** Tests lower the limits. */
  maxBytes?: number;
  maxContentBytes?: number;
  warnBytes?: number;
  tempDir?: string;
}

export async function prepareSourceArchive(
  ctx: PrepareContext,
  parsed: ParsedLangGraphConfig | undefined,
  options: PrepareOptions = {},
): Promise<SourceArchive> {
  const { config, logger } = ctx;
  const workspace = resolve(config.github.workspace);
  const plan = planArchive(workspace, config.configPath, parsed?.json);
  const archive = await buildArchive(plan, {
    workspace,
    ...(ctx.signal !== undefined ? { signal: ctx.signal } : {}),
    ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    ...(options.maxContentBytes !== undefined ? { maxContentBytes: options.maxContentBytes } : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.tempDir !== undefined ? { tempDir: options.tempDir } : {}),
  });
  try {
    checkGraphFilesIncluded(config, parsed, archive, plan.root, workspace);
  } catch (error) {
    archive.cleanup();
    throw error;
  }
  logger.info(
    `Source archive: ${archive.fileCount} files (${megabytes(archive.contentBytes)}) from ` +
      `${inert(archive.rootInWorkspace, 300)}, ${megabytes(archive.bytes)} compressed, sha256 ` +
      `${archive.sha256}; config at ${inert(archive.configPathInArchive, 300)} in the archive.`,
  );
  if (archive.leftOut.length > 0) {
    const shown = archive.leftOut
      .slice(0, 10)
      .map((f) => `${inert(f.archivePath, 200)} (${f.reason})`)
      .join(', ');
    const more = archive.leftOut.length > 10 ? ` and ${archive.leftOut.length - 10} more` : '';
    const count = archive.leftOut.length;
    logger.warning(
      `Left out of the source archive: ${count} link${count === 1 ? '' : 's'} or special ` +
        `file${count === 1 ? '' : 's'}: ${shown}${more}. Only regular files are uploaded ` +
        '(never links, FIFOs, sockets or devices); copy the files a link points to into the ' +
        'repository if the build needs them.',
      { title: 'Files left out of the upload' },
    );
  }
  const warnBytes = options.warnBytes ?? WARN_BYTES;
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

/**
 * The graph files the config names must be in the archive: a `.gitignore` rule that also
 * catches one would make a build that cannot start.
 */
function checkGraphFilesIncluded(
  config: Config,
  parsed: ParsedLangGraphConfig | undefined,
  archive: SourceArchive,
  root: string,
  workspace: string,
): void {
  const json = parsed?.json;
  if (!isObject(json) || !isObject(json['graphs'])) return;
  const configDir = resolve(workspace, config.configPath, '..');
  const archived = new Set(archive.files);
  const missing: string[] = [];
  for (const spec of Object.values(json['graphs'])) {
    const path = typeof spec === 'string' ? spec : isObject(spec) ? spec['path'] : undefined;
    if (typeof path !== 'string') continue;
    const file = path.replace(/:[^/:]*$/, '');
    if (!file.startsWith('.')) continue; // a module name, not a file
    const inArchive = relativePosix(root, resolve(configDir, file));
    if (inArchive !== undefined && !archived.has(inArchive)) missing.push(inArchive);
  }
  if (missing.length > 0) {
    throw new ActionError(
      `The graph file${missing.length > 1 ? 's' : ''} ${inert(missing.join(', '), 500)} ` +
        `named in ${config.configPath} would not be in the \`source: upload\` archive (left ` +
        'out by a .gitignore or .dockerignore rule, by the built-in exclusions, or missing ' +
        'from the checkout). Re-include with a `!` line, or fix the path in the config.',
      'Pre-flight check: graphs',
    );
  }
}

function relativePosix(root: string, target: string): string | undefined {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  if (!target.startsWith(prefix)) return undefined;
  return target.slice(prefix.length);
}
