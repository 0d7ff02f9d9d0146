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
import { child, properties, typeName, type Checker, type Node } from './document.js';

const JS_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.tsx', '.jsx']);
const SOURCE_EXTENSIONS = new Set([...JS_EXTENSIONS, '.py']);
const EXAMPLE = '"./src/agent/graph.py:graph"';
/** The other code references of the config, read like the graphs' (`<file>:<attribute>`). */
const CODE_KEYS = ['auth.path', 'encryption.path', 'http.app', 'checkpointer.path', 'store.path'];

/**
 * Where the path `written` in the config is, when it is a file of the repository, or with
 * `folder` (how to report a wrong one) a folder.
 */
function locate(c: Checker, key: string, node: Node, written: string, folder?: Checker['error']) {
  const report = folder ?? c.error;
  const resolved = c.resolve(written);
  if (resolved.kind === (folder ? 'directory' : 'file')) return resolved;
  const thing = folder ? 'folder' : 'file';
  const problem = {
    absolute: `which cannot be checked here: it must exist inside the built image. Prefer a path relative to the config (${c.relativeToHint}).`,
    outside: `which is outside the repository (${c.relativeToHint}). The platform builds from the repository only: move the ${thing} into it and fix the path.`,
    missing: `which is not in the repository (looked for ${resolved.relative}; ${c.relativeToHint}). Fix the path in ${c.file} or commit the ${thing}.`,
    file: 'which is a file: a local dependency is a folder (with a pyproject.toml, setup.py or Python packages).',
    directory: `which is a folder: point to the source file that defines it, e.g. ${EXAMPLE}.`,
  }[resolved.kind];
  // An absolute path may well exist in the image: a doubt, not an error.
  const [verb, say] =
    resolved.kind === 'absolute' ? ['uses the absolute path', c.warning] : ['points to', report];
  say(key, node, `${key} ${verb} ${written}, ${problem}`);
  return undefined;
}

function checkFile(c: Checker, key: string, node: Node, module: string) {
  const isFile = /[/\\]/.test(module) || SOURCE_EXTENSIONS.has(extname(module));
  return isFile ? locate(c, key, node, module) : undefined;
}

/** The string node of one graph entry's spec, or undefined when the entry is already reported. */
function graphSpec(c: Checker, key: string, node: Node): Node | undefined {
  if (node.type === 'string') return node;
  const must = `give it as a string like ${EXAMPLE} or an object like {"path": ${EXAMPLE}, "description": "..."}.`;
  if (node.type !== 'object') return c.mistyped(key, node, must);
  c.unknownKeys(key, node, ['path', 'description']);
  const description = child(node, 'description'); // the one the platform reads
  if (description && description.type !== 'string' && description.type !== 'null')
    c.mistyped(`${key}.description`, description, 'it must be a string.');
  const path = child(node, 'path');
  if (path?.type === 'string') return path;
  if (path) c.mistyped(`${key}.path`, path, `it must be a string like ${EXAMPLE}.`);
  else c.error(key, node, `${key} is an object without "path": add "path": ${EXAMPLE}.`);
  return undefined;
}

/** Checks `graphs`; returns the file references of the graphs for the dependency check. */
function checkGraphs(c: Checker, root: Node) {
  const files: { key: string; node: Node; absolute: string; relative: string }[] = [];
  let python = false;
  const graphs = child(root, 'graphs');
  const example = `{"agent": ${EXAMPLE}}`;
  const problem =
    !graphs || graphs.type === 'null'
      ? `${c.file} has no "graphs": add at least one, e.g. "graphs": ${example}.`
      : graphs.type !== 'object'
        ? `graphs is ${typeName(graphs)}: it must be an object mapping graph IDs to code, e.g. ${example}.`
        : properties(graphs).length === 0
          ? `graphs is empty: add at least one graph, e.g. ${example}.`
          : undefined;
  if (problem) c.error('graphs', graphs ?? root, problem);
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
    if (problem) c.error(key, node, `${key} ${problem}`);
    const file = !problem && checkFile(c, key, node, module);
    if (file) files.push({ key, node, ...file });
  }
  return { files, python };
}

/** Local `dependencies` entries (starting with `.`) must be folders of the repository. */
function checkDependencies(c: Checker, root: Node, python: boolean) {
  const deps = child(root, 'dependencies');
  const problem =
    !deps || deps.type === 'null'
      ? python &&
        `${c.file} has no "dependencies", which a Python config needs: add "dependencies": ["."] (the folder of the config, with its pyproject.toml or requirements.txt).`
      : deps.type !== 'array'
        ? `dependencies is ${typeName(deps)}: it must be a list of strings, e.g. ["."].`
        : python &&
          (deps.children ?? []).length === 0 &&
          'dependencies is empty, which a Python config does not allow: add "." (the folder of the config) or the folders of your packages.';
  if (problem) c.error('dependencies', deps ?? root, problem);
  // A JS config's build does not install `dependencies`: a wrong local path is only suspicious.
  const report = python ? c.error : c.warning;
  const items = deps?.type === 'array' ? (deps.children ?? []) : [];
  return items.flatMap((item, index) => {
    const key = `dependencies[${index}]`;
    const must = 'dependencies are strings (a package name, or a local folder starting with ".").';
    if (item.type !== 'string') c.mistyped(key, item, must);
    const written = String(item.value);
    const local = item.type === 'string' && written.startsWith('.');
    const folder = local && locate(c, key, item, written, report);
    return folder ? [folder.absolute] : [];
  });
}

export function checkCode(c: Checker, root: Node): void {
  const graphs = checkGraphs(c, root);
  const python = graphs.python || child(root, 'python_version')?.type === 'string';
  const folders = checkDependencies(c, root, python);
  for (const { key, node, absolute, relative } of graphs.files) {
    const message = `${key} is in ${relative}, which no local entry of "dependencies" contains, so the build will not include it: add its folder (or ".") to dependencies.`;
    if (python && folders.length > 0 && !folders.some((f) => isInside(f, absolute)))
      c.error(key, node, message);
  }
  for (const key of CODE_KEYS) {
    const node = key.split('.').reduce<Node | undefined>(child, root); // `auth.path`: auth's path
    if (node?.type === 'string') checkFile(c, key, node, String(node.value).split(':')[0] ?? '');
  }
}
