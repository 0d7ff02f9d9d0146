/**
 * The state of each pull request behind a preview, from `GET /repos/{owner}/{repo}/pulls/{n}`.
 * Never throws: a failure for one pull request is `unknown` with the reason (its preview is
 * then kept). A 404 means "does not exist" only when the repository itself is readable with
 * the same token (a token that cannot see a private repository also gets 404s).
 */
import { connectGithub, describeGithubError, type GithubCall, type GithubRepo } from './octokit.js';

export type PullState =
  | { kind: 'open' | 'closed' | 'merged'; title: string }
  | { kind: 'missing' }
  | { kind: 'unknown'; reason: string };

/** Pull requests read at the same time. */
const CONCURRENCY = 4;

/** With the run's `timeout` as `deadline`: no request outlives it (what is left unread is `unknown`). */
export async function readPullStates(
  numbers: readonly number[],
  opts: GithubCall,
): Promise<Map<number, PullState>> {
  const states = new Map<number, PullState>();
  if (numbers.length === 0) return states;
  const gh = await connectGithub(opts).catch((error: unknown) => describeGithubError(error));
  if ('kind' in gh)
    return new Map(numbers.map((n) => [n, { kind: 'unknown', reason: gh.message }]));
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
  const reason = `GitHub answered 404, but the repository ${opts.github.repository} is not readable with this token either (${doubt})`;
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
    if (data.state === 'closed') return { kind: 'closed', title };
    if (data.state === 'open') return { kind: 'open', title };
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
