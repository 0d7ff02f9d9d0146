/**
 * The GitHub REST client of the reads and the best-effort side effects (`side-effects.ts`).
 * `@actions/github` loads only when a run first talks to GitHub (the README's bundle paragraph
 * says why). It adds no retry or throttling plugin (only REST endpoint methods and pagination),
 * so a failed call fails once; each request is bounded by a timeout.
 */
import { readCapped } from '../api/http/request.js';
import { formatSeconds } from '../lib/text.js';
import { inert, type Logger } from '../lib/untrusted.js';

/** The workflow run as GitHub describes it (`inputs/config.ts` reads it). */
export interface GithubContext {
  eventName: string;
  /** `GITHUB_REF`, e.g. `refs/heads/main`, `refs/tags/v1.2.0`, `refs/pull/7/merge`. */
  ref: string;
  /** `GITHUB_SHA`. */
  sha: string;
  /** `owner/name`. */
  repository: string;
  serverUrl: string;
  apiUrl: string;
  runId: string;
  runAttempt: string;
  workspace: string;
  /** Set on `pull_request` / `pull_request_target` events (from the event payload). */
  pullRequest?: {
    number: number;
    headRef: string;
    headSha: string;
    headRepoFullName: string;
    baseRepoFullName: string;
  };
}

/**
 * What the GitHub helpers take from the run (its `RunContext` is one). Only the reads that decide
 * what the run does are held to its `deadline` (each of their requests gets what is left); the
 * reports on GitHub still go out after it.
 */
export interface GithubRun {
  config: { githubToken?: string | undefined; github: GithubContext };
  logger: Logger;
  deadline?: { remainingMs(): number };
  githubTimeoutMs?: number;
}

/** An Octokit, and the owner and name of the workflow's repository that every call names. */
export type GithubRepo = Awaited<ReturnType<typeof connectGithub>>;

/**
 * An Octokit for `github.apiUrl` (`GITHUB_API_URL`; `getOctokit` would otherwise take it from
 * the environment at import time), whose requests each time out after `githubTimeoutMs`, or
 * what is left of `deadline` when given. Octokit's own log goes to debug.
 */
export async function connectGithub(run: GithubRun, deadline?: GithubRun['deadline']) {
  const { getOctokit } = await import('@actions/github');
  const { config, logger, githubTimeoutMs: timeoutMs = 10_000 } = run;
  const debug = (message: string) => logger.debug(`GitHub API: ${inert(message, 300)}`);
  const octokit = getOctokit(config.githubToken ?? '', {
    baseUrl: (config.github.apiUrl || 'https://api.github.com').replace(/\/+$/, ''),
    log: { debug: () => {}, info: () => {}, warn: debug, error: debug },
  });
  // Each answer is read whole, but at most up to the answer cap (`http/answers.ts`), before
  // Octokit sees it: a hostile or broken API must not make the runner hold gigabytes, and a body
  // cut while streaming would reach Octokit as an empty answer (it reads a failed JSON body as
  // `""`), so the refusal is thrown from the fetch.
  octokit.hook.wrap('request', async (request, options) => {
    const budget = Math.ceil(Math.min(timeoutMs, deadline?.remainingMs() ?? timeoutMs));
    if (budget <= 0) throw new Error('the `timeout` had run out, so GitHub was not asked');
    const signal = AbortSignal.timeout(budget);
    // The fetch the defaults chose (the proxy's), its answers capped like the control plane's.
    const inner = (options.request?.fetch ?? globalThis.fetch) as typeof fetch;
    const capped = async (input: string | URL | Request, init?: RequestInit) => {
      const res = await inner(input, init);
      const method = init?.method ?? 'GET';
      const url = new URL(input instanceof Request ? input.url : input);
      const describe = `GitHub's answer to ${method} ${url.pathname}`;
      const text = await readCapped(res, { method, url, describe });
      // Statuses without a body (204, 304) take none.
      return new Response([101, 204, 205, 304].includes(res.status) ? null : text, res);
    };
    // A fresh object per request: the endpoint defaults are merged into a new one each time.
    options.request = { ...options.request, signal, fetch: capped };
    try {
      return await request(options);
    } catch (error) {
      if (signal.aborted) throw new Error(`GitHub did not answer within ${formatSeconds(budget)}`);
      throw error;
    }
  });
  const [owner = '', repo = ''] = config.github.repository.split('/');
  return { octokit, owner, repo };
}

/** Classifies an Octokit error without touching its request (which holds the token). */
export function describeGithubError(error: unknown) {
  const err = (error ?? {}) as {
    status?: unknown;
    message?: unknown;
    response?: { headers?: Record<string, unknown> };
  };
  const status = typeof err.status === 'number' ? err.status : undefined;
  // GitHub appends " - https://docs.github.com/..." to its messages.
  const message = (typeof err.message === 'string' ? err.message : String(error))
    .split(/\r?\n/)[0]!
    .replace(/ - https:\/\/docs\.github\.com\S*$/, '')
    .replace(/\.+$/, '');
  const remaining = err.response?.headers?.['x-ratelimit-remaining'];
  if ((status === 403 || status === 429) && (remaining === '0' || /rate limit/i.test(message))) {
    return { kind: 'rate_limit', message } as const;
  }
  if (status === 403) return { kind: 'permission', message } as const;
  if (status === 404) return { kind: 'not_found', message } as const;
  return { kind: 'other', message: status ? `HTTP ${status}: ${message}` : message } as const;
}
