/**
 * `resource-spec` on update: the platform replaces `source_config.resource_spec` whole, so the
 * keys given are merged over the live ones (as LangChain's Terraform provider does before each
 * revision), and the log says which keys change.
 */
import type { Deployment } from '../api/schemas.js';
import type { DeployConfig } from '../inputs/config.js';
import { inert, type Logger } from '../lib/untrusted.js';
import { canonicalJson } from '../lib/keyed.js';

export function mergeResourceSpec(
  config: DeployConfig,
  found: Deployment,
  logger: Logger,
): DeployConfig {
  const given = config.resourceSpec;
  const live = found.source_config.resource_spec;
  if (!given || !live) return config;
  const same = (key: string) => canonicalJson(given[key]) === canonicalJson(live[key]);
  const changed = Object.keys(given).filter((key) => !same(key));
  const kept = Object.keys(live).filter((key) => !Object.hasOwn(given, key));
  logger.info(
    inert(
      `resource-spec: merged with the live resource spec of '${found.name}': ` +
        `changes ${changed.join(', ') || 'no key'}` +
        (kept.length > 0 ? `; keeps ${kept.join(', ')}` : '') +
        ' (the platform replaces the whole object, so the keys not given are sent as they are live).',
      2000,
    ),
  );
  return { ...config, resourceSpec: { ...live, ...given } };
}
