/**
 * A GitHub deployment (`environment` input) that mirrors the run: `in_progress` while the
 * revision is built, then `success` with the agent server URL, `failure`, `inactive` when the
 * revision was superseded, `error` on cancellation. Best effort: nothing here throws; a
 * missing permission is one warning, after which the object stops calling GitHub.
 */
import * as z from 'zod/mini';
import { httpUrl, truncate } from '../lib/text.js';
import { collapseWhitespace, redact } from '../lib/untrusted.js';
import {
  bestEffort,
  connectGithub,
  describeGithubError,
  warnGithub,
  workflowRunUrl,
  type GithubContext,
  type GithubFailure,
  type GithubRepo,
  type GithubRun,
  type SideEffect,
} from './octokit.js';

type DeploymentState = 'in_progress' | 'success' | 'failure' | 'inactive' | 'error';
type StatusDetails = { environmentUrl?: string; description?: string };

/** 100 deployments a page. */
const MAX_DEPLOYMENT_PAGES = 10;
/** The payload key under which a GitHub deployment records the LangSmith deployment's ID. */
const PAYLOAD_KEY = 'langsmith_deployment_id';
const Payload = z.object({ [PAYLOAD_KEY]: z.string().check(z.minLength(1)) });

const GITHUB_DEPLOYMENT: SideEffect = {
  title: 'GitHub deployment not updated',
  permission:
    'The token may not write deployments: add `permissions: deployments: write` to the job, or pass a `github-token` that has it; on pull requests from forks the workflow token is read-only. Leave `environment` empty to turn GitHub deployments off.',
  notFound: 'Check that the token can read this repository and that the commit exists on GitHub.',
  retry: 'The next run tries again.',
};

/** One line, secrets masked, at most 140 characters (GitHub's limit for a description). */
function shortDescription(text: string): string {
  return truncate(collapseWhitespace(redact(text)), 140);
}

/** A refusal that every further call would meet too: a missing permission, the rate limit. */
const refused = ({ kind }: GithubFailure) => kind === 'permission' || kind === 'rate_limit';

/**
 * Adds a status to GitHub deployment `id`; `log_url` is the workflow run, `environmentUrl`
 * (http(s) only) the agent server URL.
 */
async function postStatus(
  gh: GithubRepo,
  github: GithubContext,
  id: number,
  state: DeploymentState,
  details: StatusDetails = {},
): Promise<void> {
  const logUrl = workflowRunUrl(github);
  const environmentUrl = httpUrl(details.environmentUrl);
  await gh.octokit.rest.repos.createDeploymentStatus({
    owner: gh.owner,
    repo: gh.repo,
    deployment_id: id,
    state,
    ...(logUrl ? { log_url: logUrl } : {}),
    ...(environmentUrl ? { environment_url: environmentUrl } : {}),
    ...(details.description ? { description: shortDescription(details.description) } : {}),
  });
}

/** A started GitHub deployment: its ID, and `setStatus`, which never throws. */
export type GithubDeployment = NonNullable<Awaited<ReturnType<typeof createGithubDeployment>>>;

/**
 * Creates a deployment of the workflow's commit (the PR head SHA on pull requests, else
 * `GITHUB_SHA`) for `environment` (the caller then sets `in_progress`), described by the
 * LangSmith deployment's name; its ID, when known, is recorded in the payload (`prune`'s proof of
 * ownership). On pull requests it is a transient, non-production environment (a preview);
 * otherwise GitHub's defaults apply (production when the environment is named `production`).
 * `undefined` (after one warning) when GitHub refuses.
 */
export async function createGithubDeployment(
  run: GithubRun,
  environment: string,
  { name, deploymentId }: { name?: string | undefined; deploymentId?: string | undefined },
) {
  const { github } = run.config;
  const { logger } = run;
  const doing = `Could not create a GitHub deployment for environment "${environment}"`;
  return bestEffort(run, GITHUB_DEPLOYMENT, doing, async (gh) => {
    const { data } = await gh.octokit.rest.repos.createDeployment({
      owner: gh.owner,
      repo: gh.repo,
      ref: github.pullRequest?.headSha || github.sha,
      environment,
      required_contexts: [],
      auto_merge: false,
      description: shortDescription(`LangSmith deployment ${name ?? ''}`.trim()),
      ...(deploymentId ? { payload: { [PAYLOAD_KEY]: deploymentId } } : {}),
      ...(github.pullRequest ? { transient_environment: true, production_environment: false } : {}),
    });
    if (!('id' in data) || typeof data.id !== 'number') {
      throw new Error('GitHub created no deployment');
    }
    const { id } = data;
    logger.debug(`GitHub deployment ${id} created for environment ${environment}.`);
    /** Set after a permission or rate-limit failure: further calls would fail the same way. */
    let disabled = false;
    const setStatus = async (state: DeploymentState, details?: StatusDetails) => {
      if (disabled) return;
      try {
        await postStatus(gh, github, id, state, details);
        logger.debug(`GitHub deployment ${id}: ${state}.`);
      } catch (error) {
        const failure = describeGithubError(error);
        disabled = refused(failure);
        const doing = `Could not mark the GitHub deployment of environment "${environment}" ${state}`;
        warnGithub(logger, GITHUB_DEPLOYMENT, doing, failure);
      }
    };
    return { id, setStatus };
  });
}

/** This repository's GitHub deployments of `environment`: the newest `MAX_DEPLOYMENT_PAGES` pages. */
async function environmentDeployments(gh: GithubRepo, environment: string) {
  let pages = 0;
  return gh.octokit.paginate(
    gh.octokit.rest.repos.listDeployments,
    { owner: gh.owner, repo: gh.repo, environment, per_page: 100 },
    (page, done) => {
      if (++pages >= MAX_DEPLOYMENT_PAGES) done();
      return page.data;
    },
  );
}

/**
 * Marks every GitHub deployment of `environment` inactive (`command: delete`). Never throws;
 * all failures together are one warning.
 */
export async function deactivateEnvironment(run: GithubRun, environment: string): Promise<void> {
  const { github } = run.config;
  const { logger } = run;
  const doing = `Could not mark the GitHub deployments of environment "${environment}" inactive`;
  await bestEffort(run, GITHUB_DEPLOYMENT, doing, async (gh) => {
    const ids = (await environmentDeployments(gh, environment)).map((d) => d.id);
    if (ids.length >= MAX_DEPLOYMENT_PAGES * 100) {
      logger.debug(`More than ${ids.length} GitHub deployments: only the newest are marked.`);
    }
    let failed: GithubFailure | undefined;
    let marked = 0;
    for (const id of ids) {
      try {
        await postStatus(gh, github, id, 'inactive', { description: 'Preview removed' });
        marked++;
      } catch (error) {
        failed ??= describeGithubError(error);
        // The same refusal would repeat for every deployment.
        if (refused(failed)) break;
      }
    }
    if (failed) {
      const notMarked = `(${ids.length - marked} of ${ids.length} not marked)`;
      warnGithub(logger, GITHUB_DEPLOYMENT, `${doing} ${notMarked}`, failed);
    } else {
      logger.info(
        `Marked ${ids.length} GitHub deployment${ids.length === 1 ? '' : 's'} of environment "${environment}" inactive.`,
      );
    }
  });
}

/**
 * The LangSmith deployment IDs that this repository's GitHub deployments of `environment`
 * record (those this action created: `payload.langsmith_deployment_id`), newest
 * `MAX_DEPLOYMENT_PAGES` pages. `prune` deletes a deployment without a repository only when it
 * is among them. Never throws: a failure is the reason, and nothing is proven.
 */
export async function recordedDeploymentIds(
  run: GithubRun,
  environment: string,
): Promise<{ ok: true; ids: Set<string> } | { ok: false; reason: string }> {
  if (!run.config.githubToken) return { ok: false, reason: '`github-token` is empty' };
  try {
    const gh = await connectGithub(run, run.deadline);
    const deployments = await environmentDeployments(gh, environment);
    return { ok: true, ids: new Set(deployments.flatMap((d) => payloadDeploymentId(d.payload))) };
  } catch (error) {
    return { ok: false, reason: describeGithubError(error).message };
  }
}

/** The ID recorded in a deployment's payload (an object, or its JSON), as a list of 0 or 1. */
function payloadDeploymentId(payload: unknown): string[] {
  try {
    const value: unknown = typeof payload === 'string' ? JSON.parse(payload) : payload;
    const id = Payload.safeParse(value).data?.[PAYLOAD_KEY];
    return id ? [id] : [];
  } catch {
    return [];
  }
}
