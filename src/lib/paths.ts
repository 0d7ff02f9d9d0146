/**
 * The one rule for which paths of the checkout the action may read or send (INTERFACE v1.2,
 * "every input path stays inside the checkout"):
 *
 * - the path is resolved to its real path (`fs.realpath`, so every symbolic link on the way is
 *   followed) and must lie inside the real path of the workspace;
 * - it must not be, or lie inside, a `.git` folder (where `actions/checkout` keeps the job
 *   token) or a `.git` file;
 * - a file is opened without following a last symbolic link and without blocking on a FIFO
 *   (`O_NOFOLLOW | O_NONBLOCK`), then checked on the open handle (`fstat`): only a regular
 *   file is read, and never more than the caller's bound.
 *
 * Every refusal says why in words that name nothing of another file's content.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export type PathRefusal =
  'missing' | 'outside' | 'git' | 'folder' | 'not-regular' | 'too-large' | 'unreadable';

type Refused = { ok: false; refusal: PathRefusal; code?: string; size?: number };

/** Whether `target` is `parent` or lies under it (both absolute, compared per segment). */
export function isInside(parent: string, target: string): boolean {
  const rel = relative(parent, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The workspace's own real path (the path as given when it cannot be resolved). */
export function realWorkspace(workspace: string): string {
  try {
    return realpathSync(resolve(workspace));
  } catch {
    return resolve(workspace);
  }
}

/**
 * `path` (relative to the workspace, or absolute) resolved to its real path, when that lies
 * inside the workspace and outside `.git`; otherwise why not.
 */
export function resolveInsideWorkspace(
  workspace: string,
  path: string,
): { ok: true; real: string } | Refused {
  const root = realWorkspace(workspace);
  const given = resolve(root, path);
  if (!isInside(root, given) && !isInside(resolve(workspace), resolve(workspace, path))) {
    return { ok: false, refusal: 'outside' };
  }
  let real: string;
  try {
    real = realpathSync(given);
  } catch (error) {
    // A dangling link pointing out of the checkout reads as missing: say no more than that.
    return failed(error);
  }
  if (!isInside(root, real)) return { ok: false, refusal: 'outside' };
  if (relative(root, real).split(sep).some(isGitName)) return { ok: false, refusal: 'git' };
  return { ok: true, real };
}

/**
 * Whether a path segment names the `.git` folder on some runner's file system: any case
 * (macOS and Windows match names case-insensitively, and `realpath` keeps the case as
 * written), with the trailing dots and spaces Windows drops, or its 8.3 short name.
 */
export function isGitName(segment: string): boolean {
  return /^\.git[. ]*$/i.test(segment) || /^git~\d+$/i.test(segment);
}

const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Reads the regular file at `path` (see the module comment), at most `maxBytes` of it: a
 * longer file is refused as `too-large` (with its size when the handle reports one).
 */
export function readInsideWorkspace(workspace: string, path: string, maxBytes: number) {
  const where = resolveInsideWorkspace(workspace, path);
  return where.ok ? readRegularFile(where.real, maxBytes) : where;
}

/** The same for callers that have decided themselves that the absolute `file` may be read. */
export function readRegularFile(
  file: string,
  maxBytes: number,
): { ok: true; text: string } | Refused {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') return { ok: false, refusal: 'folder' };
    // ELOOP: the last part is a link (it became one after the real path was resolved).
    if (code === 'ELOOP') return { ok: false, refusal: 'not-regular' };
    return failed(error);
  }
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) return { ok: false, refusal: 'folder' };
    if (!stat.isFile()) return { ok: false, refusal: 'not-regular' };
    if (stat.size > maxBytes) return { ok: false, refusal: 'too-large', size: stat.size };
    // One byte more than the bound tells a file that grew since the fstat.
    const buffer = Buffer.alloc(Math.min(maxBytes, stat.size) + 1);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    if (length > maxBytes) return { ok: false, refusal: 'too-large' };
    return { ok: true, text: buffer.subarray(0, length).toString('utf8') };
  } catch (error) {
    return failed(error);
  } finally {
    closeSync(fd);
  }
}

/** A failed system call: `missing` (ENOENT, ENOTDIR), else `unreadable` with its code. */
function failed(error: unknown): Refused {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, refusal: 'missing' };
  return { ok: false, refusal: 'unreadable', ...(code ? { code } : {}) };
}

const REFUSALS: Record<PathRefusal, string> = {
  missing: 'does not exist in the checkout',
  outside: 'resolves (through a symbolic link) to a path outside the checkout',
  git: 'is, or lies inside, a `.git` folder',
  folder: 'is a folder',
  'not-regular': 'is not a regular file (a device, FIFO, socket or link)',
  'too-large': 'is too large',
  unreadable: 'cannot be read',
};

/** Why a refused path cannot be read, as the end of a sentence ("… is outside the checkout"). */
export function refusalText(refusal: PathRefusal, code?: string): string {
  return refusal === 'unreadable' ? `${REFUSALS[refusal]} (${code ?? 'error'})` : REFUSALS[refusal];
}
