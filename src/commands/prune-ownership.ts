/**
 * `command: prune` deletes only what is provably this repository's (INTERFACE v1.2): a
 * deployment whose `source_config.repo_url` names this repository (case-insensitive, with or
 * without `.git`), or, for one without a repository (`upload`, `external_docker`), one whose
 * ID this repository's own GitHub deployments of the `environment` record (the action writes
 * it into the payload of each GitHub deployment it creates). Anything else is kept, with the
 * reason, `dry-run` or not.
 */
import type { GithubContext } from '../inputs/config.js';
import type { Deployment } from '../api/schemas.js';
import { normalizeRepoUrl } from '../deployment/requests.js';
import type { Logger } from '../lib/untrusted.js';
import { fillTemplate } from '../inputs/prune-template.js';
import { recordedDeploymentIds } from '../report/github/github-deployment.js';

export type Ownership = { owned: true } | { owned: false; reason: string };

export interface OwnershipContext {
  /** `<server>/<owner>/<repo>` of the workflow. */
  repositoryUrl: string;
  /** The `environment` template (with `{pr}`), when given. */
  environment: string | undefined;
  token: string | undefined;
  github: GithubContext;
  logger: Logger;
  /** The run's `timeout`: GitHub is not asked past it (unread means not proven, kept). */
  deadline?: { remainingMs(): number };
}

/** Decides, for each deployment (with its PR number), whether this repository owns it. */
export async function proveOwnership(
  ctx: OwnershipContext,
  candidates: readonly { deployment: Deployment; pr: number }[],
): Promise<Ownership[]> {
  const recorded = new Map<
    string,
    Promise<{ ok: true; ids: Set<string> } | { ok: false; reason: string }>
  >();
  const ours = normalizeRepoUrl(ctx.repositoryUrl);
  const results: Ownership[] = [];
  for (const { deployment, pr } of candidates) {
    const theirs = deployment.source_config?.repo_url;
    if (theirs) {
      results.push(
        normalizeRepoUrl(theirs) === ours
          ? { owned: true }
          : { owned: false, reason: `its repository is ${theirs}, not ${ctx.repositoryUrl}` },
      );
      continue;
    }
    if (!ctx.environment) {
      results.push({
        owned: false,
        reason:
          'it names no repository (`upload` or `external_docker`), and without `environment` ' +
          "this repository's GitHub deployments that would record its ID cannot be read",
      });
      continue;
    }
    const environment = fillTemplate(ctx.environment, pr);
    if (!recorded.has(environment)) {
      recorded.set(
        environment,
        recordedDeploymentIds({
          token: ctx.token,
          github: ctx.github,
          environment,
          logger: ctx.logger,
          ...(ctx.deadline ? { deadline: ctx.deadline } : {}),
        }),
      );
    }
    const found = await recorded.get(environment)!;
    results.push(
      !found.ok
        ? {
            owned: false,
            reason:
              `it names no repository, and this repository's GitHub deployments of ` +
              `${environment} could not be read (${found.reason})`,
          }
        : found.ids.has(deployment.id)
          ? { owned: true }
          : {
              owned: false,
              reason:
                'it names no repository, and no GitHub deployment of this repository ' +
                `(environment ${environment}) records its ID`,
            },
    );
  }
  return results;
}
