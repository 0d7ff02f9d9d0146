/**
 * `skip-unchanged` for a JS agent in a monorepo (INTERFACE v1.3): the platform builds a JS
 * agent (`node_version` in its config) whose config is not at the repository root from the
 * repository root, its workspace packages resolved by the package manager (the docs'
 * *Monorepo support* page; the CLI installs from the build context's root, `langgraph_cli/
 * config.py`, `node_config_to_docker`). So these count as what the agent is built from too: the
 * root's package-manager files, every workspace package the agent's `package.json` depends on
 * (directly or through another workspace package), and the folders `install-command` /
 * `build-command` name. Read from the checkout through the one path rule (`lib/paths.ts`).
 */
import { readdirSync } from 'node:fs';
import { posix } from 'node:path';
import ignore from 'ignore';
import { parse } from 'yaml';
import { readInsideWorkspace, refusalText, resolveInsideWorkspace } from '../lib/paths.js';
import { errorMessage, isRecord } from '../lib/text.js';
import type { DeployConfig } from '../inputs/config.js';
import type { AgentPaths } from './agent-files.js';

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
