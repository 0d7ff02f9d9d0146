/**
 * A GitHub deployment (`environment` input) that mirrors the run: `in_progress` while the
 * revision is built, then `success` with the agent server URL, `failure`, `inactive` when the
 * revision was superseded, `error` on cancellation. Best effort: nothing here throws; a
 * missing permission is one warning, after which the object stops calling GitHub.
 */
import type { GithubContext } from '../../inputs/config.js';
import type { Logger } from '../../lib/untrusted.js';
import { inert, redact } from '../../lib/untrusted.js';
import {
  createOctokit,
  DEFAULT_GITHUB_TIMEOUT_MS,
  describeGithubError,
  splitRepository,
  workflowRunUrl,
  type GithubFailure,
  type Octokit,
} from './octokit.js';

export type DeploymentState = 'in_progress' | 'success' | 'failure' | 'inactive' | 'error';

const TITLE = 'GitHub deployment not updated';
/** GitHub's limit for a deployment or status description. */
const MAX_DESCRIPTION = 140;
/** 100 deployments a page. */
const MAX_DEPLOYMENT_PAGES = 10;
/** The payload key under which a GitHub deployment records the LangSmith deployment's ID. */
export const PAYLOAD_KEY = 'langsmith_deployment_id';

function shortDescription(text: string): string {
  const one = redact(text).replace(/\s+/g, ' ').trim();
  return one.length > MAX_DESCRIPTION ? `${one.slice(0, MAX_DESCRIPTION - 1)}…` : one;
}

function httpUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

function warn(logger: Logger, doing: string, failure: GithubFailure): void {
  let advice: string;
  switch (failure.kind) {
    case 'permission':
      advice =
        'The token may not write deployments: add `permissions: deployments: write` to the job, or pass a `github-token` that has it; on pull requests from forks the workflow token is read-only. Leave `environment` empty to turn GitHub deployments off.';
      break;
    case 'rate_limit':
      advice = 'The GitHub API rate limit is exhausted.';
      break;
    case 'not_found':
      advice =
        'Check that the token can read this repository and that the commit exists on GitHub.';
      break;
    default:
      advice = 'The next run tries again.';
  }
  logger.warning(
    `${doing}: ${inert(failure.message, 300)}. ${advice} The deploy result is unchanged.`,
    {
      title: TITLE,
    },
  );
}

export class GithubDeployment {
  /** Set after a permission or rate-limit failure: further calls would fail the same way. */
  private disabled = false;

  private constructor(
    private readonly octokit: Octokit,
    private readonly owner: string,
    private readonly repo: string,
    /** The GitHub deployment's ID. */
    readonly id: number,
    readonly environment: string,
    private readonly logUrl: string | undefined,
    private readonly logger: Logger,
  ) {}

  /**
   * Creates a deployment of the workflow's commit (the PR head SHA on pull requests, else
   * `GITHUB_SHA`) for `environment` (the caller then sets `in_progress`). On pull requests it is a
   * transient, non-production environment (a preview); otherwise GitHub's defaults apply
   * (production when the environment is named `production`). `undefined` (after one
   * warning) when GitHub refuses.
   */
  static async start(opts: {
    token: string | undefined;
    github: GithubContext;
    environment: string;
    logger: Logger;
    description?: string;
    /** The LangSmith deployment's ID, recorded in the payload: `prune`'s proof of ownership. */
    deploymentId?: string;
    timeoutMs?: number;
  }): Promise<GithubDeployment | undefined> {
    const { github, environment, logger } = opts;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS;
    const doing = `Could not create a GitHub deployment for environment "${environment}"`;
    if (!opts.token) {
      logger.warning(
        `${doing}: \`github-token\` is empty. Pass a token (the default is \`\${{ github.token }}\`) or leave \`environment\` empty. The deploy result is unchanged.`,
        { title: TITLE },
      );
      return undefined;
    }
    const { owner, repo } = splitRepository(github.repository);
    const sha = github.pullRequest?.headSha || github.sha;
    const preview = github.pullRequest !== undefined;
    try {
      const octokit = await createOctokit(opts.token, github.apiUrl, logger, timeoutMs);
      const { data } = await octokit.rest.repos.createDeployment({
        owner,
        repo,
        ref: sha,
        environment,
        required_contexts: [],
        auto_merge: false,
        description: shortDescription(opts.description ?? 'LangGraph deployment'),
        ...(opts.deploymentId ? { payload: { [PAYLOAD_KEY]: opts.deploymentId } } : {}),
        ...(preview ? { transient_environment: true, production_environment: false } : {}),
      });
      if (!('id' in data) || typeof data.id !== 'number') {
        warn(logger, doing, { kind: 'other', message: 'GitHub created no deployment' });
        return undefined;
      }
      logger.debug(`GitHub deployment ${data.id} created for environment ${environment}.`);
      return new GithubDeployment(
        octokit,
        owner,
        repo,
        data.id,
        environment,
        workflowRunUrl(github),
        logger,
      );
    } catch (error) {
      warn(logger, doing, describeGithubError(error));
      return undefined;
    }
  }

  /**
   * Adds a status. `log_url` is always the workflow run; `environmentUrl` (http(s) only) is
   * the agent server URL. Never throws.
   */
  async setStatus(
    state: DeploymentState,
    opts: { environmentUrl?: string; description?: string } = {},
  ): Promise<void> {
    if (this.disabled) return;
    const environmentUrl = httpUrl(opts.environmentUrl);
    try {
      await this.octokit.rest.repos.createDeploymentStatus({
        owner: this.owner,
        repo: this.repo,
        deployment_id: this.id,
        state,
        ...(this.logUrl ? { log_url: this.logUrl } : {}),
        ...(environmentUrl ? { environment_url: environmentUrl } : {}),
        ...(opts.description ? { description: shortDescription(opts.description) } : {}),
      });
      this.logger.debug(`GitHub deployment ${this.id}: ${state}.`);
    } catch (error) {
      const failure = describeGithubError(error);
      if (failure.kind === 'permission' || failure.kind === 'rate_limit') this.disabled = true;
      warn(
        this.logger,
        `Could not mark the GitHub deployment of environment "${this.environment}" ${state}`,
        failure,
      );
    }
  }
}

/**
 * Marks every GitHub deployment of `environment` inactive (`command: delete`). Never throws;
 * all failures together are one warning.
 */
export async function deactivateEnvironment(opts: {
  token: string | undefined;
  github: GithubContext;
  environment: string;
  logger: Logger;
  timeoutMs?: number;
}): Promise<void> {
  const { github, environment, logger } = opts;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS;
  const doing = `Could not mark the GitHub deployments of environment "${environment}" inactive`;
  if (!opts.token) {
    logger.warning(
      `${doing}: \`github-token\` is empty. Pass a token (the default is \`\${{ github.token }}\`) or leave \`environment\` empty. The deploy result is unchanged.`,
      { title: TITLE },
    );
    return;
  }
  const { owner, repo } = splitRepository(github.repository);
  const logUrl = workflowRunUrl(github);
  try {
    const octokit = await createOctokit(opts.token, github.apiUrl, logger, timeoutMs);
    const ids: number[] = [];
    let pages = 0;
    for await (const page of octokit.paginate.iterator(octokit.rest.repos.listDeployments, {
      owner,
      repo,
      environment,
      per_page: 100,
    })) {
      ids.push(...page.data.map((d) => d.id));
      if (++pages >= MAX_DEPLOYMENT_PAGES) {
        logger.debug(`More than ${ids.length} GitHub deployments: only the newest are marked.`);
        break;
      }
    }
    let failed: GithubFailure | undefined;
    let marked = 0;
    for (const id of ids) {
      try {
        await octokit.rest.repos.createDeploymentStatus({
          owner,
          repo,
          deployment_id: id,
          state: 'inactive',
          description: 'Preview removed',
          ...(logUrl ? { log_url: logUrl } : {}),
        });
        marked++;
      } catch (error) {
        failed ??= describeGithubError(error);
        // The same refusal would repeat for every deployment.
        if (failed.kind === 'permission' || failed.kind === 'rate_limit') break;
      }
    }
    if (failed) {
      warn(logger, `${doing} (${ids.length - marked} of ${ids.length} not marked)`, failed);
    } else {
      logger.info(
        `Marked ${ids.length} GitHub deployment${ids.length === 1 ? '' : 's'} of environment "${environment}" inactive.`,
      );
    }
  } catch (error) {
    warn(logger, doing, describeGithubError(error));
  }
}

/**
 * The LangSmith deployment IDs that this repository's GitHub deployments of `environment`
 * record (those this action created: `payload.langsmith_deployment_id`), newest
 * `MAX_DEPLOYMENT_PAGES` pages. `prune` deletes a deployment without a repository only when it
 * is among them. Never throws: a failure is the reason, and nothing is proven.
 */
export async function recordedDeploymentIds(opts: {
  token: string | undefined;
  github: GithubContext;
  environment: string;
  logger: Logger;
  timeoutMs?: number;
  deadline?: { remainingMs(): number };
}): Promise<{ ok: true; ids: Set<string> } | { ok: false; reason: string }> {
  if (!opts.token) return { ok: false, reason: '`github-token` is empty' };
  const { owner, repo } = splitRepository(opts.github.repository);
  try {
    const octokit = await createOctokit(
      opts.token,
      opts.github.apiUrl,
      opts.logger,
      opts.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS,
      opts.deadline,
    );
    const ids = new Set<string>();
    let pages = 0;
    for await (const page of octokit.paginate.iterator(octokit.rest.repos.listDeployments, {
      owner,
      repo,
      environment: opts.environment,
      per_page: 100,
    })) {
      for (const d of page.data) {
        const id = payloadDeploymentId(d.payload);
        if (id !== undefined) ids.add(id);
      }
      if (++pages >= MAX_DEPLOYMENT_PAGES) break;
    }
    return { ok: true, ids };
  } catch (error) {
    return { ok: false, reason: describeGithubError(error).message };
  }
}

function payloadDeploymentId(payload: unknown): string | undefined {
  let value = payload;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  const id =
    value && typeof value === 'object'
      ? (value as Record<string, unknown>)[PAYLOAD_KEY]
      : undefined;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
