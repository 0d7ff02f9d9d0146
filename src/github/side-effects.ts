/**
 * What a run leaves on GitHub, best effort (nothing here throws; a failure is one warning): a
 * GitHub deployment (`environment` input) that mirrors the run (`in_progress` while the revision
 * is built, then `success` with the agent server URL, `failure`, `inactive` when the revision was
 * superseded, `error` on cancellation; after a missing permission it stops calling GitHub), and
 * one pull-request comment per PR and deployment name, found again by a hidden marker and
 * updated in place on every run.
 */
import * as z from 'zod';
import { httpUrl, truncate } from '../lib/text.js';
import { collapseWhitespace, inert, redact, type Logger } from '../lib/untrusted.js';
import { connectGithub, describeGithubError, type GithubRepo, type GithubRun } from './octokit.js';

/** What went wrong, in one line (`message`, for a warning), and of which `kind`. */
type GithubFailure = ReturnType<typeof describeGithubError>;

/** The workflow run's page: `<server>/<owner>/<repo>/actions/runs/<id>`. */
function workflowRunUrl({ config: { github } }: GithubRun): string | undefined {
  if (!github.serverUrl || !github.repository || !github.runId) return undefined;
  return `${github.serverUrl.replace(/\/+$/, '')}/${github.repository}/actions/runs/${github.runId}`;
}

/**
 * How the warnings of one best-effort side effect on GitHub read: their title, the advice when
 * GitHub refuses (403: the permission to add) or answers 404, and what happens next after any
 * other failure.
 */
type SideEffect = Record<'title' | 'permission' | 'notFound' | 'retry', string>;

/**
 * The one warning of a side effect that did not happen: what, why (GitHub's answer), the advice
 * for that failure, and that the deploy result stands.
 */
function warnGithub(logger: Logger, effect: SideEffect, doing: string, failure: GithubFailure) {
  const advice: Partial<Record<GithubFailure['kind'], string>> = {
    permission: effect.permission,
    not_found: effect.notFound,
    rate_limit: `The GitHub API rate limit is exhausted. ${effect.retry}`,
  };
  const why = `${inert(failure.message, 300)}. ${advice[failure.kind] ?? effect.retry}`;
  logger.warning(`${doing}: ${why} The deploy result is unchanged.`, { title: effect.title });
}

/**
 * Runs one best-effort side effect with a client: any failure is its one warning (`doing`: what
 * did not happen), never thrown; `undefined` then. Without a `github-token` (the callers skip
 * the side effect then) it does nothing.
 */
async function bestEffort<T>(
  run: GithubRun,
  effect: SideEffect,
  doing: string,
  act: (gh: GithubRepo) => Promise<T>,
): Promise<T | undefined> {
  if (!run.config.githubToken) return undefined;
  try {
    return await act(await connectGithub(run));
  } catch (error) {
    warnGithub(run.logger, effect, doing, describeGithubError(error));
    return undefined;
  }
}

type DeploymentState = 'in_progress' | 'success' | 'failure' | 'inactive' | 'error';
type StatusDetails = { environmentUrl?: string; description?: string };

/** 100 deployments a page. */
const MAX_DEPLOYMENT_PAGES = 10;
/** The payload key under which a GitHub deployment records the LangSmith deployment's ID. */
const PAYLOAD_KEY = 'langsmith_deployment_id';
const Payload = z.object({ [PAYLOAD_KEY]: z.string().min(1) });

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
  run: GithubRun,
  id: number,
  state: DeploymentState,
  details: StatusDetails = {},
): Promise<void> {
  // Octokit leaves out a parameter that is undefined.
  await gh.octokit.rest.repos.createDeploymentStatus({
    owner: gh.owner,
    repo: gh.repo,
    deployment_id: id,
    state,
    log_url: workflowRunUrl(run),
    environment_url: httpUrl(details.environmentUrl),
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
    let disabled = false;
    const setStatus = async (state: DeploymentState, details?: StatusDetails) => {
      if (disabled) return;
      try {
        await postStatus(gh, run, id, state, details);
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
        await postStatus(gh, run, id, 'inactive', { description: 'Preview removed' });
        marked++;
      } catch (error) {
        failed ??= describeGithubError(error);
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
 * is among them. Never throws: a failure is its reason (a string), and nothing is proven.
 */
export async function recordedDeploymentIds(run: GithubRun, environment: string) {
  if (!run.config.githubToken) return '`github-token` is empty';
  try {
    const gh = await connectGithub(run, run.deadline);
    const deployments = await environmentDeployments(gh, environment);
    return new Set(deployments.flatMap((d) => payloadDeploymentId(d.payload)));
  } catch (error) {
    return describeGithubError(error).message;
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

/** 100 comments a page: 5,000 comments. */
const MAX_COMMENT_PAGES = 50;

const PR_COMMENT: SideEffect = {
  title: 'PR comment not updated',
  permission:
    'The token may not write pull-request comments: add `permissions: pull-requests: write` to the job (`issues: write` also works), or pass a `github-token` that has it; on pull requests from forks the workflow token is read-only. Set `pr-comment: false` to turn the comment off.',
  notFound: 'Check that the token can read this repository and its pull requests.',
  retry: 'The next run updates the comment.',
};

/** The hidden marker that identifies this action's comment for one deployment. */
export function commentMarker(nameOrId: string): string {
  const key = nameOrId.replace(/[^A-Za-z0-9._-]/g, (c) => encodeURIComponent(c));
  return `<!-- langgraph-deploy:${key} -->`;
}

interface CommentLike {
  id: number;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
  performed_via_github_app?: { slug?: string } | null;
}

/**
 * Whether a comment was written by the identity this run writes as: the `GET /user` login
 * when the token may ask (a personal access token), else `github-actions[bot]` (the workflow
 * token, whose `GET /user` answers 403) or a GitHub App's bot whose comment says it was made
 * via that app (an installation token).
 */
export function isOwnComment(comment: CommentLike, viewerLogin: string | undefined): boolean {
  const login = comment.user?.login;
  if (!login) return false;
  if (viewerLogin !== undefined) return login === viewerLogin;
  if (login === 'github-actions[bot]') return true;
  const slug = comment.performed_via_github_app?.slug;
  return comment.user?.type === 'Bot' && !!slug && login === `${slug}[bot]`;
}

/**
 * Whether the comment's first line is exactly `marker`, as the action writes it: a marker
 * quoted anywhere else (a reply, a code block, another deployment's comment) never matches.
 */
export function startsWithMarker(body: string | null | undefined, marker: string): boolean {
  const rest = typeof body === 'string' && body.startsWith(marker) && body.slice(marker.length);
  return rest !== false && /^(\r?\n|$)/.test(rest);
}

/** This deployment's comment: its key (name or ID), and its body for a marker and run URL. */
export interface PrComment {
  key: string | undefined;
  /** `command: delete`: only an existing comment is updated (none is created on a closed PR). */
  updateOnly: boolean;
  render: (marker: string, runUrl: string | undefined) => string;
}

/**
 * Creates or updates this deployment's comment on the pull request of the event. Does nothing
 * outside `pull_request`/`pull_request_target` events (`github.pullRequest` unset).
 */
export async function upsertPrComment(run: GithubRun, comment: PrComment): Promise<void> {
  const { logger } = run;
  const pr = run.config.github.pullRequest;
  const { key } = comment;
  if (!pr || !key) {
    logger.debug(`${pr ? 'No deployment name or ID' : 'Not a pull-request event'}: no PR comment.`);
    return;
  }
  const marker = commentMarker(key);
  const body = redact(comment.render(marker, workflowRunUrl(run)));
  const doing = `Could not create or update the comment on pull request #${pr.number} (${inert(key)})`;
  await bestEffort(run, PR_COMMENT, doing, async ({ octokit, owner, repo }) => {
    // This run's comment: its first line is `marker` and it was written as this run writes.
    // Expected to fail with the workflow token (403): then the bot identities match.
    const login = await octokit.rest.users.getAuthenticated().then(
      ({ data }) => data.login,
      () =>
        void logger.debug(
          'GET /user is not allowed for this token: matching bot-authored comments.',
        ),
    );
    const params = { owner, repo, issue_number: pr.number };
    let pages = 0;
    const [existing] = await octokit.paginate(
      octokit.rest.issues.listComments,
      { ...params, per_page: 100 },
      (page, done) => {
        const mine = (page.data as CommentLike[]).find(
          (c) => startsWithMarker(c.body, marker) && isOwnComment(c, login),
        );
        if (mine || ++pages >= MAX_COMMENT_PAGES) done();
        return mine ? [mine] : [];
      },
    );
    if (existing) {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
      logger.info(`Updated the comment on pull request #${pr.number}.`);
    } else if (comment.updateOnly) {
      logger.debug(
        `No comment for ${inert(key)} on pull request #${pr.number}: nothing to update.`,
      );
    } else {
      await octokit.rest.issues.createComment({ ...params, body });
      logger.info(`Commented on pull request #${pr.number}.`);
    }
  });
}
