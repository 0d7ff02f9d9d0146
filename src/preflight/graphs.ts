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
import { isInside } from '../lib/paths.js';
import type { Checker, Node } from './document.js';
import { child, properties } from './document.js';

const JS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.tsx', '.jsx']);
const SOURCE_EXTENSIONS = new Set([...JS_EXTENSIONS, '.py']);
const EXAMPLE = '"./src/agent/graph.py:graph"';
const OTHER_REFERENCES = [
  'auth.path',
  'encryption.path',
  'http.app',
  'checkpointer.path',
  'store.path',
];

/** A code reference of the config: its key, its node, and the file or module it names. */
interface Reference {
  key: string;
  node: Node;
  module: string;
}

/** Checks that a file reference exists; returns its absolute and workspace-relative paths. */
function checkFile(c: Checker, { key, node, module }: Reference) {
  const isFile = module.includes('/') || module.includes('\\');
  if (!isFile && !SOURCE_EXTENSIONS.has(extname(module))) return undefined;
  const resolved = c.resolve(module);
  if (resolved.ok && resolved.kind === 'file') return resolved;
  if (!resolved.ok && resolved.problem === 'absolute') {
    c.warning(
      key,
      node,
      `${key} uses the absolute path ${module}, which cannot be checked here: it must exist inside the built image. Prefer a path relative to the config (${c.relativeToHint}).`,
    );
    return undefined;
  }
  const problem = !resolved.ok
    ? `which is outside the repository (${c.relativeToHint}). The platform builds from the repository only: move the file into it and fix the path.`
    : resolved.kind === 'missing'
      ? `which is not in the repository (looked for ${resolved.relative}; ${c.relativeToHint}). Fix the path in ${c.file} or commit the file.`
      : `which is a folder: point to the source file that defines it, e.g. ${EXAMPLE}.`;
  c.error(key, node, `${key} points to ${module}, ${problem}`);
  return undefined;
}

/** The string node of one graph entry's spec, or undefined when the entry is already reported. */
function graphSpec(c: Checker, key: string, node: Node): Node | undefined {
  if (node.type === 'string') return node;
  if (node.type !== 'object') {
    c.mistyped(
      key,
      node,
      `give it as a string like ${EXAMPLE} or an object like {"path": ${EXAMPLE}, "description": "..."}.`,
    );
    return undefined;
  }
  for (const { key: name, keyNode, value } of properties(node)) {
    if (name === 'description' && value.type !== 'string' && value.type !== 'null') {
      c.mistyped(`${key}.description`, value, 'it must be a string.');
    } else if (name !== 'path' && name !== 'description') {
      c.warning(
        `${key}.${name}`,
        keyNode,
        `${key} has an unknown key "${name}" (a graph object takes "path" and "description"); it is ignored.`,
      );
    }
  }
  const path = child(node, 'path');
  if (!path) {
    c.error(key, node, `${key} is an object without "path": add "path": ${EXAMPLE}.`);
  } else if (path.type !== 'string') {
    c.mistyped(`${key}.path`, path, `it must be a string like ${EXAMPLE}.`);
  } else return path;
  return undefined;
}

/** Checks `graphs`; returns the file references of the graphs for the dependency check. */
function checkGraphs(c: Checker, root: Node) {
  const files: { key: string; node: Node; absolute: string; relative: string }[] = [];
  let python = false;
  const graphs = child(root, 'graphs');
  if (!graphs || graphs.type === 'null') {
    c.error(
      'graphs',
      graphs ?? root,
      `${c.file} has no "graphs": add at least one, e.g. "graphs": {"agent": ${EXAMPLE}}.`,
    );
  } else if (graphs.type !== 'object') {
    c.mistyped(
      'graphs',
      graphs,
      `it must be an object mapping graph IDs to code, e.g. {"agent": ${EXAMPLE}}.`,
    );
  } else if (properties(graphs).length === 0) {
    c.error(
      'graphs',
      graphs,
      `graphs is empty: add at least one graph, e.g. {"agent": ${EXAMPLE}}.`,
    );
  }
  for (const { key: id, value } of properties(graphs)) {
    const key = `graphs.${id}`;
    const node = graphSpec(c, key, value);
    if (!node) continue;
    const spec = String(node.value);
    const [module = '', ...attribute] = spec.split(':');
    const js = JS_EXTENSIONS.has(extname(module));
    if (spec !== '' && spec === spec.trim()) python ||= !js;
    let problem: string | undefined;
    if (spec.trim() === '') problem = `is empty: give the code of the graph, e.g. ${EXAMPLE}.`;
    else if (spec !== spec.trim())
      problem = `has leading or trailing spaces ("${spec}"): remove them, the path is used as written.`;
    else if (attribute.length === 0 && !js)
      problem = `is "${spec}" without an attribute: write it as "<file or module>:<attribute>", e.g. "${module}:graph" (the variable that holds the graph or its factory).`;
    else if (module === '' || attribute[0] === '' || attribute.length > 1)
      problem = `is "${spec}", which is not "<file or module>:<attribute>" with one ':', e.g. ${EXAMPLE}.`;
    if (problem) {
      c.error(key, node, `${key} ${problem}`);
      continue;
    }
    const file = checkFile(c, { key, node, module });
    if (file) files.push({ key, node, ...file });
  }
  return { files, python };
}

/** Local `dependencies` entries (starting with `.`) must be folders of the repository. */
function checkDependencies(c: Checker, root: Node, python: boolean) {
  const deps = child(root, 'dependencies');
  if (!deps || deps.type === 'null') {
    if (python) {
      c.error(
        'dependencies',
        root,
        `${c.file} has no "dependencies", which a Python config needs: add "dependencies": ["."] (the folder of the config, with its pyproject.toml or requirements.txt).`,
      );
    }
  } else if (deps.type !== 'array') {
    c.mistyped('dependencies', deps, 'it must be a list of strings, e.g. ["."].');
  } else if (python && (deps.children ?? []).length === 0) {
    c.error(
      'dependencies',
      deps,
      'dependencies is empty, which a Python config does not allow: add "." (the folder of the config) or the folders of your packages.',
    );
  }
  const folders: string[] = [];
  // A JS config's build does not install `dependencies`: a wrong local path is only suspicious.
  const report = python ? c.error : c.warning;
  const items = deps?.type === 'array' ? (deps.children ?? []) : [];
  items.forEach((item, index) => {
    const key = `dependencies[${index}]`;
    if (item.type !== 'string') {
      c.mistyped(
        key,
        item,
        'dependencies are strings (a package name, or a local folder starting with ".").',
      );
      return;
    }
    const written = String(item.value);
    if (!written.startsWith('.')) return;
    const resolved = c.resolve(written);
    if (resolved.ok && resolved.kind === 'directory') {
      folders.push(resolved.absolute);
      return;
    }
    const problem = !resolved.ok
      ? `which is outside the repository (${c.relativeToHint}). The platform builds from the repository only.`
      : resolved.kind === 'missing'
        ? `which is not in the repository (looked for ${resolved.relative}; ${c.relativeToHint}). Fix the path or commit the folder.`
        : 'which is a file: a local dependency is a folder (with a pyproject.toml, setup.py or Python packages).';
    report(key, item, `${key} is ${written}, ${problem}`);
  });
  return folders;
}

export function checkCode(c: Checker, root: Node): void {
  const graphs = checkGraphs(c, root);
  const python = graphs.python || child(root, 'python_version')?.type === 'string';
  const folders = checkDependencies(c, root, python);
  if (python && folders.length > 0) {
    for (const ref of graphs.files) {
      if (folders.some((f) => isInside(f, ref.absolute))) continue;
      c.error(
        ref.key,
        ref.node,
        `${ref.key} is in ${ref.relative}, which no local entry of "dependencies" contains, so the build will not include it: add its folder (or ".") to dependencies.`,
      );
    }
  }
  for (const key of OTHER_REFERENCES) {
    const [section = '', field = ''] = key.split('.');
    const node = child(child(root, section), field);
    if (node?.type !== 'string') continue;
    checkFile(c, { key, node, module: String(node.value).split(':')[0] ?? '' });
  }
}
