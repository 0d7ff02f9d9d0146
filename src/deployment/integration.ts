/**
 * `integration-id` left empty on a create with `source: github` (INTERFACE v1.3): the
 * workspace's GitHub integration whose repositories hold this repository (owner and name,
 * any case), found with `GET /v1/integrations/github/install` and `…/{id}/repos`.
 */
import { ActionError } from '../lib/errors.js';
import { inert } from '../lib/untrusted.js';
import type { CreatableConfig, UpsertContext } from './upsert.js';

const INSTALL =
  "install LangSmith's GitHub app on %s: in LangSmith, Deployments → + New Deployment → " +
  'Import from GitHub (Add new account), and grant it this repository';

export async function withIntegration(
  ctx: UpsertContext,
  config: CreatableConfig,
): Promise<CreatableConfig> {
  const { client, logger } = ctx;
  if (config.source !== 'github' || config.integrationId) return config;
  const repository = (config.repoUrl ?? '')
    .toLowerCase()
    .replace(/(\.git)?\/*$/, '')
    .split('/')
    .slice(-2)
    .join('/');
  const holding = [];
  for (const integration of await client.listGithubIntegrations()) {
    const repos = await client.listGithubRepos(integration.id);
    if (repos.some((r) => `${r.owner}/${r.name}`.toLowerCase() === repository)) {
      holding.push(integration);
    }
  }
  const named = holding.map((i) => `${inert(i.id, 100)} (${inert(i.name, 100)})`).join(', ');
  if (holding.length === 1) {
    logger.notice(
      `Input \`integration-id\` is empty: creating '${config.name}' through GitHub integration ` +
        `${named.replace(' (', ' (account ')}, whose repositories include ${repository}.`,
      { title: 'GitHub integration found' },
    );
    return { ...config, integrationId: holding[0]!.id };
  }
  throw new ActionError(
    holding.length === 0
      ? `No GitHub integration of this workspace may build ${repository}, so deployment ` +
          `'${config.name}' cannot be created: ${INSTALL.replace('%s', repository)}; then re-run. ` +
          'Or set input `integration-id`.'
      : `${holding.length} GitHub integrations of this workspace may build ${repository}: ` +
          `${named}. Set input \`integration-id\` to the one to create '${config.name}' with.`,
    holding.length === 0
      ? 'No GitHub integration for this repository'
      : 'Invalid input: integration-id',
  );
}
