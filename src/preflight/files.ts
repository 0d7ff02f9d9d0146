/** Paths the config refers to, resolved against its folder and kept inside the workspace. */
import { statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

import { isInside } from '../lib/paths.js';

export { isInside };

/** Workspace-relative form with forward slashes (`.` for the workspace itself). */
export function workspaceRelative(workspace: string, target: string): string {
  const rel = relative(workspace, target);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

export type PathKind = 'file' | 'directory' | 'missing';

export function pathKind(target: string): PathKind {
  try {
    const stat = statSync(target);
    return stat.isDirectory() ? 'directory' : 'file';
  } catch {
    return 'missing';
  }
}

/** Where the config's relative paths start from. */
export interface ConfigLocation {
  workspace: string;
  /** Absolute folder of the config file. */
  dir: string;
  /** Workspace-relative path of the config file. */
  file: string;
}

export type Resolved =
  | { ok: true; absolute: string; relative: string; kind: PathKind }
  | { ok: false; problem: 'absolute' | 'outside' };

/** Resolves a path written in the config (relative to its folder). */
export function resolveConfigPath(location: ConfigLocation, written: string): Resolved {
  if (isAbsolute(written)) return { ok: false, problem: 'absolute' };
  const absolute = resolve(location.dir, written);
  if (!isInside(location.workspace, absolute)) return { ok: false, problem: 'outside' };
  return {
    ok: true,
    absolute,
    relative: workspaceRelative(location.workspace, absolute),
    kind: pathKind(absolute),
  };
}

/** "paths are relative to the folder of apps/agent/langgraph.json" (or the repository root). */
export function relativeToHint(location: ConfigLocation): string {
  return location.file.includes('/')
    ? `paths are relative to the folder of ${location.file}`
    : 'paths are relative to the repository root, where the config is';
}
