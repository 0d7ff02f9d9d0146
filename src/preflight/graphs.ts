/**
 * `graphs`, `dependencies` and the other code references of the config, checked the way
 * the langgraph CLI (which builds the image) reads them:
 * - a graph is `"<file or module>:<attribute>"` or `{"path": ..., "description"?: ...}`;
 *   a JS/TS file may omit the attribute (its default export is used);
 * - a reference is a file when it has `/` (or `\`) or a known source extension; module-style
 *   references (`my_pkg.graph:app`) are resolved by Python's import system and not checked;
 * - local `dependencies` (starting with `.`) must be folders; in a Python config every graph
 *   file must be inside one of them (the CLI refuses the build otherwise).
 */
import { extname } from 'node:path';
import type { Checker, Node } from './document.js';
import { child, properties, typeName, valueOf } from './document.js';
import type { ConfigLocation } from './files.js';
import { isInside, relativeToHint, resolveConfigPath, workspaceRelative } from './files.js';

const JS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.tsx', '.jsx']);
const SOURCE_EXTENSIONS = new Set([...JS_EXTENSIONS, '.py']);
const EXAMPLE = '"./src/agent/graph.py:graph"';

interface Reference {
  key: string;
  node: Node;
  module: string;
}

function isFileReference(module: string): boolean {
  return module.includes('/') || module.includes('\\') || SOURCE_EXTENSIONS.has(extname(module));
}

function isJs(module: string): boolean {
  return JS_EXTENSIONS.has(extname(module));
}

/** Checks that a file reference exists; returns its absolute path when it does. */
function checkFile(c: Checker, loc: ConfigLocation, ref: Reference): string | undefined {
  if (!isFileReference(ref.module)) return undefined;
  const resolved = resolveConfigPath(loc, ref.module);
  if (!resolved.ok) {
    if (resolved.problem === 'absolute') {
      c.warning(
        ref.key,
        ref.node,
        `${ref.key} uses the absolute path ${ref.module}, which cannot be checked here: it must exist inside the built image. Prefer a path relative to the config (${relativeToHint(loc)}).`,
      );
    } else {
      c.error(
        ref.key,
        ref.node,
        `${ref.key} points to ${ref.module}, which is outside the repository (${relativeToHint(loc)}). The platform builds from the repository only: move the file into it and fix the path.`,
      );
    }
    return undefined;
  }
  if (resolved.kind === 'missing') {
    c.error(
      ref.key,
      ref.node,
      `${ref.key} points to ${ref.module}, which is not in the repository (looked for ${resolved.relative}; ${relativeToHint(loc)}). Fix the path in ${loc.file} or commit the file.`,
    );
    return undefined;
  }
  if (resolved.kind === 'directory') {
    c.error(
      ref.key,
      ref.node,
      `${ref.key} points to ${ref.module}, which is a folder: point to the source file that defines it, e.g. ${EXAMPLE}.`,
    );
    return undefined;
  }
  return resolved.absolute;
}

/** The spec string of one graph entry, or undefined when the entry is already reported. */
function graphSpec(c: Checker, key: string, node: Node): { spec: string; node: Node } | undefined {
  if (node.type === 'string') return { spec: String(node.value), node };
  if (node.type !== 'object') {
    c.error(
      key,
      node,
      `${key} is ${typeName(node)}: give it as a string like ${EXAMPLE} or an object like {"path": ${EXAMPLE}, "description": "..."}.`,
    );
    return undefined;
  }
  for (const p of properties(node)) {
    if (p.key === 'path') continue;
    if (p.key === 'description') {
      if (p.value.type !== 'string' && p.value.type !== 'null') {
        c.error(
          `${key}.description`,
          p.value,
          `${key}.description is ${typeName(p.value)}: it must be a string.`,
        );
      }
      continue;
    }
    c.warning(
      `${key}.${p.key}`,
      p.keyNode,
      `${key} has an unknown key "${p.key}" (a graph object takes "path" and "description"); it is ignored.`,
    );
  }
  const path = child(node, 'path');
  if (!path) {
    c.error(key, node, `${key} is an object without "path": add "path": ${EXAMPLE}.`);
    return undefined;
  }
  if (path.type !== 'string') {
    c.error(
      `${key}.path`,
      path,
      `${key}.path is ${typeName(path)}: it must be a string like ${EXAMPLE}.`,
    );
    return undefined;
  }
  return { spec: String(path.value), node: path };
}

/** Checks `graphs`; returns the file references of the graphs for the dependency check. */
function checkGraphs(
  c: Checker,
  loc: ConfigLocation,
  root: Node,
): { files: Reference[]; python: boolean } {
  const files: Reference[] = [];
  let python = false;
  const graphs = child(root, 'graphs');
  if (!graphs || graphs.type === 'null') {
    c.error(
      'graphs',
      graphs ?? root,
      `${loc.file} has no "graphs": add at least one, e.g. "graphs": {"agent": ${EXAMPLE}}.`,
    );
    return { files, python };
  }
  if (graphs.type !== 'object') {
    c.error(
      'graphs',
      graphs,
      `graphs is ${typeName(graphs)}: it must be an object mapping graph IDs to code, e.g. {"agent": ${EXAMPLE}}.`,
    );
    return { files, python };
  }
  const entries = properties(graphs);
  if (entries.length === 0) {
    c.error(
      'graphs',
      graphs,
      `graphs is empty: add at least one graph, e.g. {"agent": ${EXAMPLE}}.`,
    );
  }
  for (const { key: id, value } of entries) {
    const key = `graphs.${id}`;
    const found = graphSpec(c, key, value);
    if (!found) continue;
    const { spec, node } = found;
    if (spec.trim() === '') {
      c.error(key, node, `${key} is empty: give the code of the graph, e.g. ${EXAMPLE}.`);
      continue;
    }
    if (spec !== spec.trim()) {
      c.error(
        key,
        node,
        `${key} has leading or trailing spaces ("${spec}"): remove them, the path is used as written.`,
      );
      continue;
    }
    const colon = spec.indexOf(':');
    const module = colon < 0 ? spec : spec.slice(0, colon);
    const attribute = colon < 0 ? undefined : spec.slice(colon + 1);
    if (!isJs(module)) python = true;
    if (attribute === undefined && !isJs(module)) {
      c.error(
        key,
        node,
        `${key} is "${spec}" without an attribute: write it as "<file or module>:<attribute>", e.g. "${module}:graph" (the variable that holds the graph or its factory).`,
      );
      continue;
    }
    if (module === '' || attribute === '' || attribute?.includes(':')) {
      c.error(
        key,
        node,
        `${key} is "${spec}", which is not "<file or module>:<attribute>" with one ':', e.g. ${EXAMPLE}.`,
      );
      continue;
    }
    const absolute = checkFile(c, loc, { key, node, module });
    if (absolute) files.push({ key, node, module: absolute });
  }
  return { files, python };
}

/** Local `dependencies` entries (starting with `.`) must be folders of the repository. */
function checkDependencies(
  c: Checker,
  loc: ConfigLocation,
  root: Node,
  python: boolean,
): string[] | undefined {
  const deps = child(root, 'dependencies');
  if (!deps || deps.type === 'null') {
    if (python) {
      c.error(
        'dependencies',
        root,
        `${loc.file} has no "dependencies", which a Python config needs: add "dependencies": ["."] (the folder of the config, with its pyproject.toml or requirements.txt).`,
      );
    }
    return undefined;
  }
  if (deps.type !== 'array') {
    c.error(
      'dependencies',
      deps,
      `dependencies is ${typeName(deps)}: it must be a list of strings, e.g. ["."].`,
    );
    return undefined;
  }
  if (python && (deps.children ?? []).length === 0) {
    c.error(
      'dependencies',
      deps,
      'dependencies is empty, which a Python config does not allow: add "." (the folder of the config) or the folders of your packages.',
    );
  }
  const folders: string[] = [];
  // A JS config's build does not install `dependencies`: a wrong local path is only suspicious.
  const report = python ? c.error.bind(c) : c.warning.bind(c);
  (deps.children ?? []).forEach((item, index) => {
    const key = `dependencies[${index}]`;
    if (item.type !== 'string') {
      c.error(
        key,
        item,
        `${key} is ${typeName(item)}: dependencies are strings (a package name, or a local folder starting with ".").`,
      );
      return;
    }
    const written = String(item.value);
    if (!written.startsWith('.')) return;
    const resolved = resolveConfigPath(loc, written);
    if (!resolved.ok) {
      report(
        key,
        item,
        `${key} is ${written}, which is outside the repository (${relativeToHint(loc)}). The platform builds from the repository only.`,
      );
    } else if (resolved.kind === 'missing') {
      report(
        key,
        item,
        `${key} is ${written}, which is not in the repository (looked for ${resolved.relative}; ${relativeToHint(loc)}). Fix the path or commit the folder.`,
      );
    } else if (resolved.kind === 'file') {
      report(
        key,
        item,
        `${key} is ${written}, which is a file: a local dependency is a folder (with a pyproject.toml, setup.py or Python packages).`,
      );
    } else {
      folders.push(resolved.absolute);
    }
  });
  return folders;
}

const OTHER_REFERENCES: [string, string][] = [
  ['auth', 'path'],
  ['encryption', 'path'],
  ['http', 'app'],
  ['checkpointer', 'path'],
  ['store', 'path'],
];

export function checkCode(c: Checker, loc: ConfigLocation, root: Node): void {
  const { files, python: pythonGraphs } = checkGraphs(c, loc, root);
  const python = pythonGraphs || typeof valueOf(child(root, 'python_version')) === 'string';
  const folders = checkDependencies(c, loc, root, python);
  if (python && folders && folders.length > 0) {
    for (const ref of files) {
      if (folders.some((f) => isInside(f, ref.module))) continue;
      const where = workspaceRelative(loc.workspace, ref.module);
      c.error(
        ref.key,
        ref.node,
        `${ref.key} is in ${where}, which no local entry of "dependencies" contains, so the build will not include it: add its folder (or ".") to dependencies.`,
      );
    }
  }
  for (const [section, field] of OTHER_REFERENCES) {
    const node = child(child(root, section), field);
    if (node?.type !== 'string') continue;
    const spec = String(node.value);
    const colon = spec.indexOf(':');
    checkFile(c, loc, {
      key: `${section}.${field}`,
      node,
      module: colon < 0 ? spec : spec.slice(0, colon),
    });
  }
}
