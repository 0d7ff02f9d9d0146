/**
 * `skip-unchanged` across commits (`github` source): which files the agent is built from, and
 * whether a list of changed files touches any of them. Pure (no request, no file read), but
 * for `jsBuildPaths`, which reads a JS monorepo's manifests from the checkout.
 *
 * The agent is built from the config file's folder (which holds the config), its local
 * `dependencies`, and every other path the config names (`env`, `pip_config_file`, graph and
 * app paths such as `./src/agent.py:graph`, a `Dockerfile`…). With `dockerfile_lines` that
 * copy files (`COPY`/`ADD`), the whole build context counts. Paths are repository-relative,
 * forward slashes; a path that leaves the repository makes the set unknown (then the run
 * builds).
 */
import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import ignore from 'ignore';
import { parse } from 'yaml';
import type { ChangedFile } from '../github/reads.js';
import type { DeployConfig } from '../inputs/config.js';
import { readInsideWorkspace, refusalText, resolveInsideWorkspace } from '../lib/paths.js';
import { errorMessage, isRecord } from '../lib/text.js';

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
export function classifyChanges(paths: AgentPaths, changed: readonly ChangedFile[]) {
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
 * what a JS monorepo adds (`jsBuildPaths`, below).
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

/** The root's files that decide what the package manager installs, and how. */
const ROOT_FILES = [
  ...['package.json', 'package-lock.json', 'npm-shrinkwrap.json', '.npmrc'],
  ...['yarn.lock', '.yarnrc.yml', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'bun.lock', 'bun.lockb'],
];
const DEPENDENCY_FIELDS = [
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
];
/** Folders looked at for workspace packages, at most (a bound, not a size anyone reaches). */
const MAX_FOLDERS = 20_000;

/**
 * `skip-unchanged` for a JS agent in a monorepo (INTERFACE v1.3): the platform builds a JS
 * agent (`node_version` in its config) whose config is not at the repository root from the
 * repository root, its workspace packages resolved by the package manager (the docs'
 * *Monorepo support* page; the CLI installs from the build context's root, `langgraph_cli/
 * config.py`, `node_config_to_docker`). So these count as what the agent is built from too: the
 * root's package-manager files, every workspace package the agent's `package.json` depends on
 * (directly or through another workspace package), and the folders `install-command` /
 * `build-command` name. Read from the checkout through the one path rule (`lib/paths.ts`).
 *
 * The extra paths, `undefined` when the agent is not a JS agent below the root (nothing to
 * add), or why they cannot be worked out (then every changed file counts).
 */
export function jsBuildPaths(
  config: Pick<DeployConfig, 'github' | 'configPath' | 'installCommand' | 'buildCommand'>,
  json: unknown,
): AgentPaths | { unknown: string } | undefined {
  const { github, configPath, installCommand, buildCommand } = config;
  const workspace = github.workspace;
  const dir = posix.dirname(posix.normalize(configPath));
  if (!isRecord(json) || json['node_version'] === undefined || dir === '.') return undefined;
  try {
    const root = readData(workspace, 'package.json');
    const npm = root?.['workspaces'];
    const globs = [
      isRecord(npm) ? npm['packages'] : npm,
      readData(workspace, 'pnpm-workspace.yaml')?.['packages'],
    ];
    const packages = workspacePackages(workspace, globs.flat());
    const folders = new Set(commandPaths([installCommand, buildCommand]));
    const queue = [readData(workspace, `${dir}/package.json`) ?? root];
    for (let manifest = queue.pop(); manifest; manifest = queue.pop()) {
      for (const field of DEPENDENCY_FIELDS) {
        const deps = manifest[field];
        for (const name of isRecord(deps) ? Object.keys(deps) : []) {
          const found = packages.get(name);
          if (found && !folders.has(found.folder)) queue.push(found.manifest);
          if (found) folders.add(found.folder);
        }
      }
    }
    return { folders: [...folders], files: ROOT_FILES };
  } catch (error) {
    return { unknown: `the JS monorepo around it cannot be read (${errorMessage(error)})` };
  }
}

type Manifest = Record<string, unknown>;

/** A JSON or YAML file of the checkout (YAML reads JSON too); `undefined` when there is none. */
function readData(workspace: string, path: string): Manifest | undefined {
  const read = readInsideWorkspace(workspace, path, 1024 * 1024);
  if (!read.ok && read.refusal === 'missing') return undefined;
  if (!read.ok) throw new Error(`${path} ${refusalText(read.refusal, read.code)}`);
  const value: unknown = parse(read.text);
  if (!isRecord(value)) throw new Error(`${path} is not an object`);
  return value;
}

/** The workspace packages by name: folders (below the root, not `node_modules` or hidden) that
 *  the workspace globs match and that hold a `package.json`. */
function workspacePackages(workspace: string, globs: unknown[]) {
  const matcher = ignore().add(globs.filter((g): g is string => typeof g === 'string'));
  const packages = new Map<string, { folder: string; manifest: Manifest }>();
  const queue = [''];
  for (let seen = 0, folder = queue.shift(); folder !== undefined; folder = queue.shift()) {
    const where = resolveInsideWorkspace(workspace, folder || '.');
    if (!where.ok) continue;
    for (const entry of readdirSync(where.real, { withFileTypes: true })) {
      if (!entry.isDirectory() || /^(\.|node_modules$)/.test(entry.name)) continue;
      if (++seen > MAX_FOLDERS) throw new Error(`more than ${MAX_FOLDERS} folders`);
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      queue.push(path);
      const manifest = matcher.ignores(`${path}/`)
        ? readData(workspace, `${path}/package.json`)
        : undefined;
      if (typeof manifest?.['name'] === 'string')
        packages.set(manifest['name'], { folder: path, manifest });
    }
  }
  return packages;
}

/** Repository paths the commands name (`cd apps/agent`, `--workspace=packages/x`, `./build.sh`). */
function commandPaths(commands: readonly (string | undefined)[]): string[] {
  const tokens = commands.flatMap((c) => (c ?? '').split(/\s+|&&/));
  const paths = tokens
    .map((t) => t.replace(/^--?[\w-]+=/, ''))
    .filter((t) => t.includes('/') && !/^[@-]|:\/\//.test(t))
    .map((t) => posix.normalize(t).replace(/\/$/, ''));
  const outside = paths.find((p) => p.startsWith('/') || p === '..' || p.startsWith('../'));
  if (outside)
    throw new Error(`a build or install command names ${outside}, outside the repository`);
  return paths;
}
