/** Unknown top-level keys and duplicate keys: suspicious, so warnings. */
import type { Checker, Node } from './document.js';
import { properties } from './document.js';

// The keys of the langgraph CLI's Config (schemas.py / validate_config), plus `$schema`.
const TOP_LEVEL_KEYS = [
  '$schema',
  '_INTERNAL_docker_tag',
  'api_version',
  'auth',
  'base_image',
  'checkpointer',
  'dependencies',
  'dockerfile_lines',
  'encryption',
  'env',
  'graphs',
  'http',
  'image_distro',
  'keep_pkg_tools',
  'node_version',
  'pip_config_file',
  'pip_installer',
  'python_version',
  'store',
  'ui',
  'ui_config',
  'webhooks',
];

/** Levenshtein distance: the fewest single-character edits that turn `a` into `b`. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const replace = row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, replace));
    }
    row = next;
  }
  return row[b.length]!;
}

export function checkTopLevelKeys(c: Checker, root: Node): void {
  for (const { key, keyNode } of properties(root)) {
    if (TOP_LEVEL_KEYS.includes(key)) continue;
    const near = TOP_LEVEL_KEYS.find((k) => distance(k.toLowerCase(), key.toLowerCase()) <= 2);
    c.warning(
      key,
      keyNode,
      `${c.file} has an unknown top-level key "${key}", which the platform ignores.${near ? ` Did you mean "${near}"?` : ''}`,
    );
  }
}

/** A key given twice in one object: JSON readers keep the last one, silently. */
export function checkDuplicateKeys(c: Checker, node: Node, path = ''): void {
  if (node.type === 'array') {
    (node.children ?? []).forEach((item, i) => checkDuplicateKeys(c, item, `${path}[${i}]`));
    return;
  }
  if (node.type !== 'object') return;
  const seen = new Set<string>();
  for (const { key, keyNode, value } of properties(node)) {
    const full = path ? `${path}.${key}` : key;
    if (seen.has(key)) {
      c.warning(
        full,
        keyNode,
        `${full} is given more than once; only the last one is used. Remove the others.`,
      );
    }
    seen.add(key);
    checkDuplicateKeys(c, value, full);
  }
}
