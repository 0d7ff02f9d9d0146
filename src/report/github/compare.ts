/**
 * The files changed between two commits, from GitHub's compare API
 * (`GET /repos/{owner}/{repo}/compare/{base}...{head}`), for `skip-unchanged` across commits.
 *
 * GitHub lists the changed files on the first page only, at most 300 for the whole comparison:
 * a list of 300 may be cut, so it is not trusted. The three-dot form compares `head` with the
 * merge base; only `ahead` (base is an ancestor of head) or `identical` means the list is the
 * whole difference between the two commits. Nothing here throws.
 */
import type { GithubContext } from '../../inputs/config.js';
import type { ChangedFile } from '../../deployment/agent-files.js';
import type { Logger } from '../../lib/untrusted.js';
import {
  createOctokit,
  DEFAULT_GITHUB_TIMEOUT_MS,
  describeGithubError,
  splitRepository,
} from './octokit.js';
import { gitChanges, GIT_TIMEOUT_MS } from './git-history.js';

/** GitHub's cap on the files of one comparison. */
export const COMPARE_FILE_CAP = 300;

export type Comparison = { files: ChangedFile[] } | { unreadable: string };

/** Reads the answer's `status` and `files` (pure, for the tests). */
export function readComparison(data: unknown, base: string, head: string): Comparison {
  const answer = (data ?? {}) as { status?: unknown; files?: unknown };
  const short = `${base.slice(0, 12)}...${head.slice(0, 12)}`;
  if (answer.status !== 'ahead' && answer.status !== 'identical') {
    return {
      unreadable:
        `GitHub's compare of ${short} says ${typeof answer.status === 'string' ? answer.status : 'nothing'}` +
        ' (the live commit is not an ancestor of this one, e.g. after a force-push)',
    };
  }
  if (!Array.isArray(answer.files)) {
    return { unreadable: `GitHub's compare of ${short} lists no files` };
  }
  if (answer.files.length >= COMPARE_FILE_CAP) {
    return {
      unreadable: `GitHub's compare of ${short} lists ${answer.files.length} files, its cap: the list may be cut`,
    };
  }
  const files: ChangedFile[] = [];
  for (const f of answer.files as {
    filename?: unknown;
    status?: unknown;
    previous_filename?: unknown;
  }[]) {
    if (typeof f?.filename !== 'string' || typeof f.status !== 'string') {
      return {
        unreadable: `GitHub's compare of ${short} has a file entry without a name or status`,
      };
    }
    files.push({
      filename: f.filename,
      status: f.status,
      ...(typeof f.previous_filename === 'string'
        ? { previous_filename: f.previous_filename }
        : {}),
    });
  }
  return { files };
}

export async function compareCommits(opts: {
  token: string | undefined;
  github: GithubContext;
  base: string;
  head: string;
  logger: Logger;
  timeoutMs?: number;
}): Promise<Comparison> {
  if (!opts.token)
    return { unreadable: '`github-token` is empty, so the compare API cannot be read' };
  const { owner, repo } = splitRepository(opts.github.repository);
  try {
    const octokit = await createOctokit(
      opts.token,
      opts.github.apiUrl,
      opts.logger,
      opts.timeoutMs,
    );
    // One commit a page: the files of the whole comparison come with the first page.
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
      owner,
      repo,
      basehead: `${opts.base}...${opts.head}`,
      per_page: 1,
      page: 1,
    });
    return readComparison(data, opts.base, opts.head);
  } catch (error) {
    const failure = describeGithubError(error);
    const advice =
      failure.kind === 'permission' || failure.kind === 'not_found'
        ? ' (the token needs `contents: read` on this repository)'
        : '';
    return { unreadable: `GitHub's compare API answered: ${failure.message}${advice}` };
  }
}

/**
 * The change between two commits: GitHub's compare API first, then the checkout's history;
 * unreadable (both reasons) only when neither can tell.
 */
export async function readChanges(opts: {
  token: string | undefined;
  github: GithubContext;
  base: string;
  head: string;
  logger: Logger;
  /** The run's `timeout`: neither the API call nor `git` may outlive it. */
  deadline?: { remainingMs(): number };
}): Promise<Comparison> {
  const within = (ms: number) =>
    Math.max(1, Math.ceil(Math.min(ms, opts.deadline?.remainingMs() ?? ms)));
  const api = await compareCommits({ ...opts, timeoutMs: within(DEFAULT_GITHUB_TIMEOUT_MS) });
  if ('files' in api) return api;
  if (opts.deadline && opts.deadline.remainingMs() <= 0) {
    return {
      unreadable: `${api.unreadable}; and the \`timeout\` ran out before the checkout's history was read`,
    };
  }
  const local = await gitChanges(
    opts.github.workspace,
    opts.base,
    opts.head,
    within(GIT_TIMEOUT_MS),
  );
  if ('files' in local) {
    opts.logger.debug(`skip-unchanged: ${api.unreadable}; read the checkout's history instead.`);
    return local;
  }
  return { unreadable: `${api.unreadable}; and ${local.unreadable}` };
}
