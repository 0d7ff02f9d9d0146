/**
 * What GitHub tells a run before it acts, within the run's `timeout` (`deadline`); nothing here
 * throws. The files changed between two commits, for `skip-unchanged` across commits (the README
 * says when each source is read): GitHub's compare API, else the checkout's own git history. The
 * three-dot compare is against the merge base, so only `ahead` (base is an ancestor of head) or
 * `identical` means its list is the whole difference; GitHub lists the files on the first page
 * only, at most 300 for the whole comparison, so 300 is not trusted. `git` is bounded by a
 * timeout; it lists a rename as a removal and an addition. And the state of each pull request
 * behind a preview, for `prune`: a failure for one pull request is `unknown` with the reason (its
 * preview is then kept); a 404 means "does not exist" only when the repository itself is readable
 * with the same token (a token that cannot see a private repository also gets 404s).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as z from 'zod';
import { inert } from '../lib/untrusted.js';
import { connectGithub, describeGithubError, type GithubRepo, type GithubRun } from './octokit.js';

/** GitHub's cap on the files of one comparison. */
export const COMPARE_FILE_CAP = 300;
const GIT_TIMEOUT_MS = 10_000;
const HEX = /^[0-9a-f]{7,64}$/i;

export type Comparison = { files: ChangedFile[] } | { unreadable: string };

const CompareFiles = z.array(
  z.object({
    filename: z.string(),
    status: z.string(),
    previous_filename: z.string().optional().catch(undefined),
  }),
);
/** One changed file as GitHub lists it (`previous_filename`: where a rename came from). */
export type ChangedFile = z.infer<typeof CompareFiles>[number];

/** Reads the answer's `status` and `files` (pure, for the tests). */
export function readComparison(data: unknown, base: string, head: string): Comparison {
  const answer = (data ?? {}) as { status?: unknown; files?: unknown };
  const no = (why: string): Comparison => ({
    unreadable: `GitHub's compare of ${inert(base.slice(0, 12))}...${inert(head.slice(0, 12))} ${why}`,
  });
  if (answer.status !== 'ahead' && answer.status !== 'identical') {
    const says = typeof answer.status === 'string' ? inert(answer.status, 40) : 'nothing';
    return no(
      `says ${says} (the live commit is not an ancestor of this one, e.g. after a force-push)`,
    );
  }
  if (!Array.isArray(answer.files)) return no('lists no files');
  if (answer.files.length >= COMPARE_FILE_CAP) {
    return no(`lists ${answer.files.length} files, its cap: the list may be cut`);
  }
  const files = CompareFiles.safeParse(answer.files);
  return files.success ? { files: files.data } : no('has a file entry without a name or status');
}

async function compareCommits(run: GithubRun, base: string, head: string): Promise<Comparison> {
  if (!run.config.githubToken)
    return { unreadable: '`github-token` is empty, so the compare API cannot be read' };
  try {
    const { octokit, owner, repo } = await connectGithub(run, run.deadline);
    // One commit a page: the files of the whole comparison come with the first page.
    const { data } = await octokit.request('GET /repos/{owner}/{repo}/compare/{basehead}', {
      owner,
      repo,
      basehead: `${base}...${head}`,
      per_page: 1,
      page: 1,
    });
    return readComparison(data, base, head);
  } catch (error) {
    const { kind, message } = describeGithubError(error);
    const advice =
      kind === 'permission' || kind === 'not_found'
        ? ' (the token needs `contents: read` on this repository)'
        : '';
    return { unreadable: `GitHub's compare API answered: ${inert(message, 300)}${advice}` };
  }
}

/**
 * The change between two commits: GitHub's compare API first, then the checkout's history;
 * unreadable (both reasons) only when neither can tell.
 */
export async function readChanges(run: GithubRun, base: string, head: string): Promise<Comparison> {
  const { deadline, config, logger } = run;
  const api = await compareCommits(run, base, head);
  if ('files' in api) return api;
  const left = deadline?.remainingMs() ?? GIT_TIMEOUT_MS;
  if (left <= 0) {
    return {
      unreadable: `${api.unreadable}; and the \`timeout\` ran out before the checkout's history was read`,
    };
  }
  const timeoutMs = Math.ceil(Math.min(GIT_TIMEOUT_MS, left));
  const local = await gitChanges(config.github.workspace, base, head, timeoutMs);
  if ('files' in local) {
    logger.debug(`skip-unchanged: ${api.unreadable}; read the checkout's history instead.`);
    return local;
  }
  return { unreadable: `${api.unreadable}; and ${local.unreadable}` };
}

/** `git diff --name-status -z` output: status, NUL, path, NUL, … (no renames: one path each). */
export function parseNameStatus(text: string): ChangedFile[] | undefined {
  const parts = text.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  if (parts.length % 2 !== 0) return undefined;
  const files: ChangedFile[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const code = parts[i]!.charAt(0);
    const status = code === 'A' ? 'added' : code === 'D' ? 'removed' : 'modified';
    files.push({ filename: parts[i + 1]!, status });
  }
  return files;
}

export async function gitChanges(
  workspace: string,
  base: string,
  head: string,
  timeoutMs = GIT_TIMEOUT_MS,
): Promise<Comparison> {
  if (!HEX.test(base) || !HEX.test(head)) return { unreadable: 'a commit ID is not hex' };
  /** `git -C workspace …`: its exit code (-1 when it did not run or timed out) and output. */
  const git = (...args: string[]) =>
    promisify(execFile)('git', ['-C', workspace, ...args], {
      timeout: timeoutMs,
      maxBuffer: 32 * 1024 * 1024,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_OPTIONAL_LOCKS: '0' },
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: unknown }) => ({ code: typeof error.code === 'number' ? error.code : -1 }),
    );
  const [from, to] = [base.slice(0, 12), head.slice(0, 12)];
  const short = `${from}..${to}`;
  const ancestor = await git('merge-base', '--is-ancestor', base, head);
  if (ancestor.code === 1) {
    return { unreadable: `in the checkout's history ${from} is not an ancestor of ${to}` };
  }
  if (ancestor.code !== 0) {
    return {
      unreadable: `the checkout's history does not hold both commits of ${short} (a shallow checkout: \`fetch-depth: 0\` gives it the history)`,
    };
  }
  const diff = await git('diff', '--name-status', '--no-renames', '-z', base, head, '--');
  const files = 'stdout' in diff ? parseNameStatus(diff.stdout) : undefined;
  if (!files) return { unreadable: `\`git diff\` of ${short} in the checkout failed` };
  return { files };
}

export type PullState =
  | { kind: 'open' | 'closed' | 'merged'; title: string }
  | { kind: 'missing' }
  | { kind: 'unknown'; reason: string };

/** Pull requests read at the same time. */
const CONCURRENCY = 4;

/** What is left unread when the run's `deadline` comes is `unknown`. */
export async function readPullStates(run: GithubRun, numbers: readonly number[]) {
  const states = new Map<number, PullState>();
  if (numbers.length === 0) return states;
  const gh = await connectGithub(run, run.deadline).catch(describeGithubError);
  if ('kind' in gh) {
    for (const n of numbers) states.set(n, { kind: 'unknown', reason: gh.message });
    return states;
  }
  const queue = [...new Set(numbers)];
  const worker = async () => {
    for (let n = queue.shift(); n !== undefined; n = queue.shift())
      states.set(n, await readOne(gh, n));
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));

  // A 404 proves nothing when the repository itself is not visible to this token.
  const missing = [...states].filter(([, s]) => s.kind === 'missing').map(([n]) => n);
  const doubt =
    missing.length > 0 &&
    (await gh.octokit.rest.repos.get({ owner: gh.owner, repo: gh.repo }).then(
      () => undefined,
      (error: unknown) => describeGithubError(error).message,
    ));
  const reason = `GitHub answered 404, but the repository ${run.config.github.repository} is not readable with this token either (${doubt})`;
  if (doubt) for (const n of missing) states.set(n, { kind: 'unknown', reason });
  return states;
}

async function readOne({ octokit, owner, repo }: GithubRepo, n: number): Promise<PullState> {
  try {
    const { data } = await octokit.rest.pulls.get({ owner, repo, pull_number: n });
    const title = typeof data.title === 'string' ? data.title : '';
    if (data.merged === true || (typeof data.merged_at === 'string' && data.merged_at !== '')) {
      return { kind: 'merged', title };
    }
    if (data.state === 'closed' || data.state === 'open') return { kind: data.state, title };
    return { kind: 'unknown', reason: `GitHub reported the state "${String(data.state)}"` };
  } catch (error) {
    const { kind, message } = describeGithubError(error);
    if (kind === 'not_found') return { kind: 'missing' };
    const advice = {
      permission: ' (the token may lack `permissions: pull-requests: read`)',
      rate_limit: ' (the GitHub API rate limit is exhausted)',
      other: '',
    }[kind];
    return { kind: 'unknown', reason: `${message}${advice}` };
  }
}
