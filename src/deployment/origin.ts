/**
 * The origin record (`ORIGIN_NAME` in the deployment's environment): written when the action
 * creates a deployment, it says whether that was a pull-request run, of which pull request of
 * which repository. `command: prune` deletes only what it proves a preview of that pull
 * request (INTERFACE v1.3, "Prune deletes previews only"). Its value is keyed like the skip
 * record (`keyedValue`): only a holder of the API key can write or check it. Later runs that
 * send `secrets` (which replace the environment) carry it over.
 */
import type { Deployment } from '../api/schemas.js';
import type { DeployConfig, SecretEntry } from '../inputs/config.js';
import { ORIGIN_NAME } from '../inputs/secrets.js';
import { canonicalJson, keyedValue } from '../lib/text.js';

const INFO = 'langgraph-deploy-action/origin/v1';

/** The record's value for a deployment created in `repository` on a run of pull request `pr`. */
export function originValue(apiKey: string, name: string, repository: string, pr?: number) {
  const origin = { repository: repository.toLowerCase(), pr: pr ?? null };
  return keyedValue(apiKey, name, INFO, canonicalJson(origin));
}

/**
 * `secrets` with the origin record of this run: written anew by a create (`found` undefined),
 * carried over from the deployment by an update that sends secrets.
 */
export function withOrigin(
  config: Pick<DeployConfig, 'apiKey' | 'name' | 'github'>,
  secrets: readonly SecretEntry[],
  found?: Deployment,
): SecretEntry[] {
  const { apiKey, name = '', github } = config;
  const value = originValue(apiKey, name, github.repository, github.pullRequest?.number);
  const origin = found
    ? found.secrets.filter((s) => s.name === ORIGIN_NAME)
    : [{ name: ORIGIN_NAME, value }];
  return [...secrets.filter((s) => s.name !== ORIGIN_NAME), ...origin];
}

/**
 * Why `deployment` is not provably a preview this action created on a run of pull request `pr`
 * of `repository`, or `undefined` when its record proves it.
 */
export function notAPreview(
  apiKey: string,
  repository: string,
  deployment: Deployment,
  pr: number,
): string | undefined {
  const { name } = deployment;
  const recorded = deployment.secrets.find((s) => s.name === ORIGIN_NAME)?.value;
  if (recorded === originValue(apiKey, name, repository, pr)) return undefined;
  if (recorded === originValue(apiKey, name, repository)) {
    return 'this action created it outside a pull-request run (a production deployment whose name fits the template)';
  }
  if (recorded !== undefined) {
    return `its origin record names another pull request or repository than #${pr} of ${repository} (or another API key wrote it)`;
  }
  return (
    'it carries no record that this action created it on a run of that pull request (made ' +
    'before v1.3 of the action, or by another tool). To remove it, run `command: delete` with ' +
    `\`name: ${name}\`, or delete it in the LangSmith UI`
  );
}
