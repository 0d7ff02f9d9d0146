/** Unknown top-level keys and keys given twice: suspicious, so warnings. */
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

/** A key given twice in one object: JSON readers keep the last one, silently. */
export function checkKeys(c: Checker, node: Node, path = ''): void {
  if (node === c.root) c.unknownKeys('', node, TOP_LEVEL_KEYS);
  const seen = new Set<string>();
  for (const { key, keyNode, value } of properties(node)) {
    const full = path ? `${path}.${key}` : key;
    const message = `${full} is given more than once; only the last one is used. Remove the others.`;
    if (seen.has(key)) c.warning(full, keyNode, message);
    seen.add(key);
    checkKeys(c, value, full);
  }
  if (node.type === 'array') node.children?.forEach((v, i) => checkKeys(c, v, `${path}[${i}]`));
}
