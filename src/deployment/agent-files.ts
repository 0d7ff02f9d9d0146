/**
 * `skip-unchanged` across commits (`github` source): which files the agent is built from, and
 * whether a list of changed files touches any of them. Pure: no request, no file read.
 *
 * The agent is built from the config file's folder (which holds the config), its local
 * `dependencies`, and every other path the config names (`env`, `pip_config_file`, graph and
 * app paths such as `./src/agent.py:graph`, a `Dockerfile`…). With `dockerfile_lines` that
 * copy files (`COPY`/`ADD`), the whole build context counts. Paths are repository-relative,
 * forward slashes; a path that leaves the repository makes the set unknown (then the run
 * builds).
 */
import { posix } from 'node:path';
import type { ChangedFile } from '../github/reads.js';
import { isRecord } from '../lib/text.js';

/** Folders (every file below counts) and single files the agent is built from. */
export interface AgentPaths {
  folders: string[];
  files: string[];
}

/** Repository-relative, normalized; undefined when it leaves the repository or is absolute. */
function inRepo(base: string, written: string): string | undefined {
  if (written.startsWith('/') || /^[A-Za-z]:[\\/]/.test(written)) return undefined;
  const joined = posix.normalize(posix.join(base, written.replace(/\\/g, '/')));
  if (joined === '..' || joined.startsWith('../')) return undefined;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

/** Strings of `json` at any depth (values only, not keys), with their key. */
function strings(json: unknown, key = ''): { key: string; value: string }[] {
  if (typeof json === 'string') return [{ key, value: json }];
  if (Array.isArray(json)) return json.flatMap((v) => strings(v, key));
  if (isRecord(json)) return Object.entries(json).flatMap(([k, v]) => strings(v, k));
  return [];
}

/** Keys whose string value is a path even without `./` (`env: ".env"`, `pip_config_file`). */
const PATH_KEYS = new Set(['env', 'pip_config_file', 'dockerfile', 'path']);

/**
 * The paths the agent is built from, or the reason they cannot be known. `configPath` is the
 * `config-path` input (repository-relative), `json` the parsed config of this checkout (the
 * config itself is in its folder, so a change to it always counts).
 */
export function agentPaths(
  configPath: string,
  json: unknown,
  extra: AgentPaths = { folders: [], files: [] },
): AgentPaths | { unknown: string } {
  const configFile = inRepo('', configPath);
  if (configFile === undefined)
    return { unknown: `\`config-path\` ${configPath} leaves the repository` };
  const dir = posix.dirname(configFile) === '.' ? '' : posix.dirname(configFile);
  const folders = new Set<string>([dir, ...extra.folders]);
  const files = new Set<string>([configFile, ...extra.files]);
  const config = (json ?? {}) as Record<string, unknown>;
  const deps = Array.isArray(config.dependencies) ? config.dependencies : [];
  for (const dep of deps) {
    if (typeof dep !== 'string' || !/^(\.|\/)/.test(dep)) continue; // a package, not a path
    const path = inRepo(dir, dep);
    if (path === undefined) return { unknown: `the local dependency ${dep} leaves the repository` };
    folders.add(path);
  }
  for (const { key, value } of strings(config)) {
    const named = /^\.\.?\//.test(value) || (PATH_KEYS.has(key) && !/^[a-z]+:\/\//i.test(value));
    if (!named || value.includes('\n')) continue;
    // `./src/agent.py:graph` names the file before the colon.
    const written = value.replace(/:[A-Za-z_][\w.]*$/, '');
    const path = inRepo(dir, written);
    if (path === undefined) return { unknown: `the config names ${value}, outside the repository` };
    files.add(path);
    folders.add(path); // when it is a folder, everything below it counts too
  }
  const lines = Array.isArray(config.dockerfile_lines) ? config.dockerfile_lines : [];
  if (lines.some((l) => typeof l === 'string' && /^\s*(COPY|ADD)\s(?!.*--from=)/i.test(l))) {
    // Files copied into the image come from the build context: the common parent of all folders.
    folders.add(commonParent([...folders]));
  }
  // A folder inside another adds nothing: keep the outermost ones (and files outside them).
  const outer = [...folders].filter((f) => !below([...folders], f, false));
  return { folders: outer.sort(), files: [...files].filter((f) => !below(outer, f)).sort() };
}

/** Whether `path` is below one of `folders` (or, with `self`, one of them). */
function below(folders: string[], path: string, self = true): boolean {
  return folders.some((f) => (f === path ? self : f === '' || path.startsWith(`${f}/`)));
}

function commonParent(paths: string[]): string {
  const parts = paths.map((p) => (p === '' ? [] : p.split('/')));
  const first = parts[0] ?? [];
  let n = 0;
  while (n < first.length && parts.every((p) => p[n] === first[n])) n++;
  return first.slice(0, n).join('/');
}

/** Whether `file` is one of `paths` (a listed file, or below a listed folder). */
export function isAgentFile(paths: AgentPaths, file: string): boolean {
  return paths.files.includes(file) || below(paths.folders, file);
}

/**
 * Splits a compare's files (both sides of a rename) into those the agent is built from
 * (`relevant`) and the others.
 */
export function classifyChanges(
  paths: AgentPaths,
  changed: readonly ChangedFile[],
): { relevant: string[]; other: string[] } {
  const relevant = new Set<string>();
  const other = new Set<string>();
  for (const file of changed) {
    const names = [file.filename, file.previous_filename].filter((n): n is string => Boolean(n));
    const hit = names.some((n) => isAgentFile(paths, n));
    for (const n of names) (hit ? relevant : other).add(n);
  }
  return { relevant: [...relevant].sort(), other: [...other].sort() };
}

/** A few names for a log line: the first `max`, then how many more. */
export function listFiles(files: readonly string[], max = 10): string {
  const shown = files.slice(0, max).join(', ');
  return files.length > max ? `${shown} and ${files.length - max} more` : shown;
}

/**
 * Whether the change from the `live` commit to `head` leaves the agent alone: `because`, the
 * clause that says so, or `build`, why it does not or cannot be known. `json` is the parsed
 * config of this checkout (`undefined` without one), `changed` the compare's files, `build`
 * what a JS monorepo adds (`js-workspace.ts`).
 */
export function agentChange(
  configPath: string,
  json: unknown,
  changed: readonly ChangedFile[],
  live: string,
  head: string,
  build?: AgentPaths | { unknown: string },
): { because: string } | { build: string } {
  const runs = `the live revision runs commit ${live.slice(0, 12)}`;
  if (json === undefined) {
    return {
      build: `${runs}, and without the checkout's ${configPath} the files the agent is built from are unknown`,
    };
  }
  const paths = build && 'unknown' in build ? build : agentPaths(configPath, json, build);
  if ('unknown' in paths) return { build: `${runs}, and ${paths.unknown}` };
  const { relevant, other } = classifyChanges(paths, changed);
  if (relevant.length > 0) {
    return {
      build: `files the agent is built from changed since commit ${live.slice(0, 12)}: ${listFiles(relevant)}`,
    };
  }
  const where = paths.folders.map((f) => (f === '' ? '.' : `${f}/`)).join(', ');
  return {
    because:
      other.length === 0
        ? `commit ${head.slice(0, 12)} changes no file since the live commit`
        : `the ${other.length} file${other.length === 1 ? '' : 's'} changed since the live commit (${listFiles(other)}) ` +
          `are outside what the agent is built from (${where} and the files ${configPath} names)`,
  };
}
