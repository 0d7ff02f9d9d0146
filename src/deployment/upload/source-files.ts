/**
 * Where the `upload` archive is rooted and which files of the checkout go into it, by the
 * README's rules ("What goes into the archive"): the built-in exclusions below, what git
 * ignores in this checkout plus each folder's `.dockerignore` (read through the one path rule,
 * `lib/paths.ts`), and never a link or anything but a regular file (left out unopened, and
 * listed). Sorted by archive path, so the archive does not depend on the order in which the
 * file system lists a folder.
 */
import { readdirSync, lstatSync, statSync, type Dirent } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ActionError } from '../../lib/errors.js';
import { isRecord } from '../../lib/text.js';
import { inheritedMatchers, isIgnored, joinRel, withRules } from '../../preflight/env.js';
import type { Matcher } from '../../preflight/env.js';
import {
  isGitName,
  isInside,
  realWorkspace,
  refusalText,
  resolveInsideWorkspace,
} from '../../lib/paths.js';

const INPUT = 'config-path';

const EXCLUDED_FOLDER = /^(node_modules|__pycache__|\.venv|venv|\.tox|\.mypy_cache)$/;

/** Entries of one folder between two checks of the deadline and cancellation. */
const CHECKPOINT_EVERY = 1000;

/** `archivePath`: inside the archive, forward slashes, never absolute, never with `..`. */
export type SourceFile = { archivePath: string; size: number };

export type ArchivePlan = ReturnType<typeof planArchive>;

/**
 * Where the archive is rooted: the config's folder, or the common parent of it and the local
 * `dependencies` outside it (`../shared`), with the config path adjusted. Every folder is
 * taken by its real path (links followed), which must lie inside the workspace and outside
 * `.git` (the one path rule, `lib/paths.ts`); anything else is an error that names the
 * dependency. Dependencies that do not exist or are not folders are left to the pre-flight
 * checks.
 */
export function planArchive(workspace: string, configPath: string, configJson: unknown) {
  const ws = realWorkspace(workspace);
  const config = resolveInsideWorkspace(ws, configPath);
  if (!config.ok) {
    throw new ActionError(
      `${INPUT} "${configPath}" ${refusalText(config.refusal, config.code)}, so it cannot be ` +
        'the root of the `source: upload` archive. Point it at the config file in the repository.',
      `Invalid input: ${INPUT}`,
    );
  }
  const configDir = dirname(config.real);
  const folders = [configDir];
  const deps = isRecord(configJson) ? configJson['dependencies'] : undefined;
  for (const dep of Array.isArray(deps) ? deps : []) {
    // A package, not a path (`langgraph` treats `.`-paths as local; an absolute path is too).
    if (typeof dep !== 'string' || !/^[./~\\]/.test(dep)) continue;
    const where = resolveInsideWorkspace(ws, resolve(configDir, dep));
    if (!where.ok && (['outside', 'git'].includes(where.refusal) || dep.startsWith('~'))) {
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
    if (where.ok && statSync(where.real, { throwIfNoEntry: false })?.isDirectory()) {
      folders.push(where.real);
    }
  }
  const graphFiles: string[] = [];
  const graphs = isRecord(configJson) ? configJson['graphs'] : undefined;
  for (const spec of isRecord(graphs) ? Object.values(graphs) : []) {
    const path = typeof spec === 'string' ? spec : isRecord(spec) ? spec['path'] : undefined;
    const file = typeof path === 'string' ? path.replace(/:[^/:]*$/, '') : '';
    if (file.startsWith('.')) graphFiles.push(resolve(configDir, file)); // else a module name
  }
  // The common parent of every folder.
  let root = configDir;
  while (!folders.every((f) => isInside(root, f)) && dirname(root) !== root) root = dirname(root);
  // A folder inside another included one is already walked with it.
  const distinct = [...new Set(folders)]
    .sort((a, b) => a.length - b.length)
    .filter((f, i, all) => !all.slice(0, i).some((outer) => isInside(outer, f)));
  return {
    /** The (real) folder the archive paths are relative to. */
    root,
    /** The repository root whose ignore rules apply. */
    workspace: ws,
    /** Each folder with its path inside the archive (`''` for the root), forward slashes. */
    folders: distinct.map((absolute) => ({ absolute, prefix: toPosix(relative(root, absolute)) })),
    /** `langgraph_config_path`. */
    configPathInArchive: toPosix(relative(root, config.real)),
    /** The archive paths of the local graph files the config names. */
    graphFiles: graphFiles
      .filter((f) => f !== root && isInside(root, f))
      .map((f) => toPosix(relative(root, f))),
  };
}

/**
 * Selects the files of the plan's `folders` (see the module comment); ignore rules start at its
 * `workspace`. `checkpoint` is called between folders and throws to stop the walk (timeout,
 * cancellation).
 */
export async function selectSourceFiles(
  { folders, workspace }: Pick<ArchivePlan, 'folders' | 'workspace'>,
  checkpoint: () => void,
) {
  const files: SourceFile[] = [];
  const leftOut: { archivePath: string; reason: string }[] = [];
  for (const folder of folders) {
    const archivePathOf = (rel: string) => (folder.prefix ? `${folder.prefix}/${rel}` : rel);
    const leave = (rel: string, reason: 'symbolic link' | 'hard link' | 'not a regular file') =>
      leftOut.push({ archivePath: archivePathOf(rel), reason });
    // Paths relative to the workspace drive the ignore rules; `rel` (relative to the walked
    // folder) names the file in the archive.
    const folderRel = toPosix(relative(workspace, folder.absolute));
    const visit = (dirAbs: string, dirRel: string, matchers: Matcher[]) => {
      checkpoint();
      const dirWs = joinRel(folderRel, dirRel);
      const active = withRules(workspace, matchers, dirWs, '.gitignore', '.dockerignore');
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
        if (index > 0 && index % CHECKPOINT_EVERY === 0) checkpoint();
        const name = entry.name;
        // `.git` (folder or file), `.env*` and credential files: never, whatever their kind.
        if (isGitName(name) || /^\.env(\.|$)/.test(name) || /^gha-creds-.*\.json$/i.test(name))
          continue;
        const rel = dirRel ? `${dirRel}/${name}` : name;
        const wsRel = joinRel(folderRel, rel);
        const abs = join(dirAbs, name);
        if (entry.isSymbolicLink()) {
          if (!isIgnored(active, wsRel, false)) leave(rel, 'symbolic link');
        } else if (entry.isDirectory()) {
          if (EXCLUDED_FOLDER.test(name) || isIgnored(active, wsRel, true)) continue;
          visit(abs, rel, active);
        } else if (!isIgnored(active, wsRel, false)) {
          let stat;
          try {
            stat = entry.isFile() ? lstatSync(abs) : undefined;
          } catch (error) {
            throw new Error(`could not read ${archivePathOf(rel)} (${codeOf(error)})`);
          }
          // A hard link may be a second name of a file outside the checkout (`ln ~/.ssh/id_rsa`),
          // so no name of a file with more than one is sent.
          if (!stat?.isFile()) leave(rel, 'not a regular file');
          else if (stat.nlink > 1) leave(rel, 'hard link');
          else files.push({ archivePath: archivePathOf(rel), size: stat.size });
        }
      }
    };
    const inherited = inheritedMatchers(workspace, folderRel);
    if (inherited) visit(folder.absolute, '', inherited);
  }
  // Byte-wise order of the UTF-16 strings: stable whatever the locale.
  const byPath = (a: { archivePath: string }, b: { archivePath: string }) =>
    a.archivePath < b.archivePath ? -1 : a.archivePath > b.archivePath ? 1 : 0;
  return { files: files.sort(byPath), leftOut: leftOut.sort(byPath) };
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

export function toPosix(path: string): string {
  return path.split(sep).join('/');
}
