/**
 * One pull-request comment per PR and deployment name, found again by a hidden marker and
 * updated in place on every run. Best effort: nothing here throws, failures are one warning.
 */
import { inert, redact } from '../lib/untrusted.js';
import { bestEffort, workflowRunUrl, type GithubRun, type SideEffect } from './octokit.js';

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
 * outside `pull_request`/`pull_request_target` events (`github.pullRequest` unset). With
 * `updateOnly`, only an existing comment is updated. Never throws.
 */
export async function upsertPrComment(run: GithubRun, comment: PrComment): Promise<void> {
  const { github } = run.config;
  const { logger } = run;
  const pr = github.pullRequest;
  const { key } = comment;
  if (!pr || !key) {
    logger.debug(`${pr ? 'No deployment name or ID' : 'Not a pull-request event'}: no PR comment.`);
    return;
  }
  const marker = commentMarker(key);
  const body = redact(comment.render(marker, workflowRunUrl(github)));
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
