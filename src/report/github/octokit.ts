/**
 * The GitHub REST client for the best-effort side effects (PR comment, GitHub deployment).
 * `@actions/github` is loaded lazily, when a run first talks to GitHub: at import it reads and
 * parses the event payload (`GITHUB_EVENT_PATH`) and throws on a broken one, which must not
 * end a run that does not need GitHub, nor any run before its input checks.
 *
 * `@actions/github` 9 adds no retry or throttling plugin (only REST endpoint methods and
 * pagination), so a failed call fails once; each request is bounded by a timeout.
 */
import type { GithubContext } from '../../inputs/config.js';
import { readCapped } from '../../api/http/limits.js';
import { inert, type Logger } from '../../lib/untrusted.js';

export type Octokit = ReturnType<(typeof import('@actions/github'))['getOctokit']>;

export const DEFAULT_GITHUB_TIMEOUT_MS = 10_000;

/**
 * An Octokit for `apiUrl` (`GITHUB_API_URL`; `getOctokit` would otherwise take it from the
 * environment at import time), whose requests each time out after `timeoutMs`. Octokit's own
 * log goes to debug.
 */
export async function createOctokit(
  token: string,
  apiUrl: string,
  logger: Logger,
  timeoutMs = DEFAULT_GITHUB_TIMEOUT_MS,
  /** The run's `timeout`, for calls that must not outlive it: each request gets what is left. */
  deadline?: { remainingMs(): number },
): Promise<Octokit> {
  const { getOctokit } = await import('@actions/github');
  const debug = (message: string) => logger.debug(`GitHub API: ${inert(message, 300)}`);
  const octokit = getOctokit(token, {
    baseUrl: (apiUrl || 'https://api.github.com').replace(/\/+$/, ''),
    log: { debug: () => {}, info: () => {}, warn: debug, error: debug },
  });
  octokit.hook.wrap('request', async (request, options) => {
    const budget = Math.ceil(Math.min(timeoutMs, deadline?.remainingMs() ?? timeoutMs));
    if (budget <= 0) throw new GithubTimeoutError(0);
    const signal = AbortSignal.timeout(budget);
    // The fetch the defaults chose (the proxy's), its answers capped like the control plane's.
    const inner = (options.request?.fetch ?? globalThis.fetch) as typeof fetch;
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
      cappedGithubAnswer(await inner(input, init), init?.method ?? 'GET', input);
    // A fresh object per request: the endpoint defaults are merged into a new one each time.
    options.request = { ...options.request, signal, fetch };
    try {
      return await request(options);
    } catch (error) {
      if (signal.aborted) throw new GithubTimeoutError(budget);
      throw error;
    }
  });
  return octokit;
}

/**
 * A GitHub answer read whole, but at most up to the answer cap (`http/answers.ts`), before
 * Octokit sees it: a hostile or broken API must not make the runner hold gigabytes, and a
 * body cut while streaming would reach Octokit as an empty answer (it reads a failed JSON
 * body as `""`), so the refusal is thrown here, from the fetch.
 */
async function cappedGithubAnswer(
  res: Response,
  method: string,
  input: string | URL | Request,
): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const describe = `GitHub's answer to ${method} ${url.pathname}`;
  const text = await readCapped(res, { method, url, describe });
  // Statuses without a body (204, 304) take none.
  const body = [101, 204, 205, 304].includes(res.status) ? null : text;
  return new Response(body, {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
}

export class GithubTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(
      timeoutMs <= 0
        ? 'the `timeout` had run out, so GitHub was not asked'
        : `GitHub did not answer within ${Math.round(timeoutMs / 100) / 10} s`,
    );
    this.name = 'GithubTimeoutError';
  }
}

export function splitRepository(repository: string): { owner: string; repo: string } {
  const [owner = '', repo = ''] = repository.split('/');
  return { owner, repo };
}

/** The workflow run's page: `<server>/<owner>/<repo>/actions/runs/<id>`. */
export function workflowRunUrl(github: GithubContext): string | undefined {
  if (!github.serverUrl || !github.repository || !github.runId) return undefined;
  return `${github.serverUrl.replace(/\/+$/, '')}/${github.repository}/actions/runs/${github.runId}`;
}

export type GithubFailureKind = 'permission' | 'rate_limit' | 'not_found' | 'timeout' | 'other';

export interface GithubFailure {
  kind: GithubFailureKind;
  status?: number;
  /** One line, for a warning. */
  message: string;
}

/** Classifies an Octokit error without touching its request (which holds the token). */
export function describeGithubError(error: unknown): GithubFailure {
  const err = error as {
    status?: unknown;
    message?: unknown;
    name?: unknown;
    response?: { headers?: Record<string, unknown> };
  };
  const status = typeof err?.status === 'number' ? err.status : undefined;
  const raw = typeof err?.message === 'string' ? err.message : String(error);
  // GitHub appends " - https://docs.github.com/..." to its messages.
  const message = raw
    .split(/\r?\n/)[0]!
    .replace(/ - https:\/\/docs\.github\.com\S*$/, '')
    .replace(/\.+$/, '');
  const remaining = err?.response?.headers?.['x-ratelimit-remaining'];
  if ((status === 403 || status === 429) && (remaining === '0' || /rate limit/i.test(message))) {
    return { kind: 'rate_limit', status, message };
  }
  if (status === 403) return { kind: 'permission', status, message };
  if (status === 404) return { kind: 'not_found', status, message };
  if (error instanceof GithubTimeoutError) return { kind: 'timeout', message };
  return { kind: 'other', status, message: status ? `HTTP ${status}: ${message}` : message };
}
