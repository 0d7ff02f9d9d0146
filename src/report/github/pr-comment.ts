/**
 * One pull-request comment per PR and deployment name, found again by a hidden marker and
 * updated in place on every run. Best effort: nothing here throws, failures are one warning.
 */
import type { GithubContext } from '../../inputs/config.js';
import { inert, redact, type Logger } from '../../lib/untrusted.js';
import { codeFence, codeSpan, formatTime, markdownLink } from '../markdown.js';
import {
  createOctokit,
  DEFAULT_GITHUB_TIMEOUT_MS,
  describeGithubError,
  splitRepository,
  workflowRunUrl,
  type Octokit,
} from './octokit.js';
import {
  detailsTable,
  headline,
  logBlock,
  rollbackSection,
  preflightList,
  sections,
  timelineTable,
  warningsList,
} from '../render.js';
import { testsSection } from '../tests-table.js';
import type { RunReport } from '../record.js';
import { accessSection } from '../access.js';

/** The login comments made with the workflow's `GITHUB_TOKEN` carry. */
export const GITHUB_ACTIONS_BOT = 'github-actions[bot]';

/** Well under GitHub's 65,536-character limit for a comment body. */
const COMMENT_LOG_CHARS = 20_000;
const COMMENT_ERROR_CHARS = 8_000;
/** 100 comments a page: 5,000 comments. */
const MAX_COMMENT_PAGES = 50;

/** The hidden marker that identifies this action's comment for one deployment. */
export function commentMarker(nameOrId: string): string {
  const key = nameOrId.replace(/[^A-Za-z0-9._-]/g, (c) => encodeURIComponent(c));
  return `<!-- langgraph-deploy:${key} -->`;
}

export function renderComment(
  report: RunReport,
  marker: string,
  options: { runUrl?: string; now?: number } = {},
): string {
  const timeline = timelineTable(report);
  const error = report.error
    ? codeFence(
        report.error.length > COMMENT_ERROR_CHARS
          ? `${report.error.slice(0, COMMENT_ERROR_CHARS)} …`
          : report.error,
      )
    : '';
  const removed =
    report.outcome === 'deleted'
      ? 'The preview deployment was removed.'
      : report.outcome === 'not_found'
        ? 'The preview deployment no longer exists.'
        : '';
  const warnings = warningsList(report);
  const footer = [
    `Updated ${formatTime(report.finishedAt ?? options.now ?? Date.now())}`,
    options.runUrl ? markdownLink('workflow run', options.runUrl) : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return sections(
    marker,
    `### ${headline(report)}`,
    accessSection(report),
    removed,
    detailsTable(report, { links: false }),
    timeline
      ? ['<details>', '<summary>Status timeline</summary>', '', timeline, '', '</details>'].join(
          '\n',
        )
      : '',
    rollbackSection(report),
    testsSection(report, 50),
    error,
    preflightList(report),
    logBlock(report, COMMENT_LOG_CHARS),
    warnings,
    `<sub>${footer}</sub>`,
  );
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
  if (login === GITHUB_ACTIONS_BOT) return true;
  const slug = comment.performed_via_github_app?.slug;
  return comment.user?.type === 'Bot' && !!slug && login === `${slug}[bot]`;
}

async function viewerLogin(octokit: Octokit, logger: Logger): Promise<string | undefined> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return data.login;
  } catch {
    // Expected with the workflow token (403): fall back to the bot identities.
    logger.debug('GET /user is not allowed for this token: matching bot-authored comments.');
    return undefined;
  }
}

/**
 * Whether the comment's first line is exactly `marker`, as the action writes it: a marker
 * quoted anywhere else (a reply, a code block, another deployment's comment) never matches.
 */
export function startsWithMarker(body: string | null | undefined, marker: string): boolean {
  if (typeof body !== 'string' || !body.startsWith(marker)) return false;
  const rest = body.slice(marker.length);
  return rest === '' || rest.startsWith('\n') || rest.startsWith('\r\n');
}

async function findComment(
  octokit: Octokit,
  params: { owner: string; repo: string; issue_number: number },
  marker: string,
  login: string | undefined,
): Promise<CommentLike | undefined> {
  let pages = 0;
  for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
    ...params,
    per_page: 100,
  })) {
    const found = (page.data as CommentLike[]).find(
      (c) => startsWithMarker(c.body, marker) && isOwnComment(c, login),
    );
    if (found) return found;
    if (++pages >= MAX_COMMENT_PAGES) break;
  }
  return undefined;
}

/**
 * Creates or updates this deployment's comment on the pull request of the event. Does nothing
 * outside `pull_request`/`pull_request_target` events (`github.pullRequest` unset). With
 * `delete`, only an existing comment is updated (none is created on a closed PR). Never throws.
 */
export async function upsertPrComment(opts: {
  token: string | undefined;
  github: GithubContext;
  report: RunReport;
  logger: Logger;
  timeoutMs?: number;
}): Promise<void> {
  const { github, report, logger } = opts;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GITHUB_TIMEOUT_MS;
  const pr = github.pullRequest;
  if (!pr) {
    logger.debug('Not a pull-request event: no PR comment.');
    return;
  }
  const key = report.name ?? report.deploymentId;
  if (!key) {
    logger.debug('No deployment name or ID: no PR comment.');
    return;
  }
  if (!opts.token) {
    logger.warning(
      'The pull-request comment was skipped: `github-token` is empty. Pass a token (the default is `${{ github.token }}`) or set `pr-comment: false`. The deploy result is unchanged.',
      { title: 'PR comment not updated' },
    );
    return;
  }
  const marker = commentMarker(key);
  const body = redact(renderComment(report, marker, { runUrl: workflowRunUrl(github) }));
  const { owner, repo } = splitRepository(github.repository);
  try {
    const octokit = await createOctokit(opts.token, github.apiUrl, logger, timeoutMs);
    const login = await viewerLogin(octokit, logger);
    const params = { owner, repo, issue_number: pr.number };
    const existing = await findComment(octokit, params, marker, login);
    if (existing) {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
      logger.info(`Updated the comment on pull request #${pr.number}.`);
    } else if (report.command === 'delete') {
      logger.debug(`No comment for ${key} on pull request #${pr.number}: nothing to update.`);
    } else {
      await octokit.rest.issues.createComment({ ...params, body });
      logger.info(`Commented on pull request #${pr.number}.`);
    }
  } catch (error) {
    const failure = describeGithubError(error);
    const what = `Could not create or update the comment on pull request #${pr.number} (${codeSpan(key)})`;
    let advice: string;
    switch (failure.kind) {
      case 'permission':
        advice =
          'The token may not write pull-request comments: add `permissions: pull-requests: write` to the job (`issues: write` also works), or pass a `github-token` that has it; on pull requests from forks the workflow token is read-only. Set `pr-comment: false` to turn the comment off.';
        break;
      case 'rate_limit':
        advice = 'The GitHub API rate limit is exhausted; the next run updates the comment.';
        break;
      case 'not_found':
        advice = 'Check that the token can read this repository and its pull requests.';
        break;
      default:
        advice = 'The next run updates the comment.';
    }
    logger.warning(
      `${what}: ${inert(failure.message, 300)}. ${advice} The deploy result is unchanged.`,
      {
        title: 'PR comment not updated',
      },
    );
  }
}
