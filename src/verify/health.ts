/**
 * The health check: `GET <url>/ok` with the API key until it answers `{"ok": true}`, through
 * the action's HTTP layer (one deadline, the run's cancel signal, `Retry-After`).
 */
import { ApiError, CancelledError, DeadlineError } from '../lib/errors.js';
import { RefusedAnswerError } from '../api/http/limits.js';
import { OutcomeUnknownError, request, type HttpContext } from '../api/http/request.js';
import {
  backoffCeiling,
  parseRetryAfter,
  retrying,
  type Attempted,
  type RetryLoop,
} from '../api/http/retry-policy.js';
import { formatSeconds as seconds } from '../lib/text.js';
import { redact } from '../lib/untrusted.js';
import {
  CheckError,
  requireCheckableUrl,
  baseUrl,
  shortError,
  type VerifyContext,
} from './shared.js';

/** Longest single wait between two `/ok` requests, in multiples of the base delay. */
const HEALTH_MAX_DELAY_FACTOR = 5;
/** Timeout of one `/ok` request: a server that hangs is retried rather than waited for. */
const HEALTH_REQUEST_TIMEOUT_MS = 10_000;

function isHealthy(body: string): boolean {
  try {
    return (JSON.parse(body) as { ok?: unknown } | null)?.ok === true;
  } catch {
    return false;
  }
}

/**
 * `GET <url>/ok` with the API key until it answers 200 `{"ok": true}`: a fresh revision can
 * take a while to serve. Waits grow from the base delay to 5× it; `Retry-After` on 429 is
 * honoured. Throws `ActionError` naming the URL and the last answer when the deadline would
 * pass, or at once when the key is refused (401/403); `CancelledError` on cancellation.
 * `attempts`: the requests made, the successful one included.
 */
export async function healthCheck(
  ctx: VerifyContext,
  url: string,
): Promise<{ ok: true; attempts: number }> {
  requireCheckableUrl(url, 'health check');
  const okUrl = `${baseUrl(url)}/ok`;
  const http = ctx.http;
  const base = http.baseDelayMs ?? 1000;
  const started = http.clock.now();
  const oneRequest: HttpContext = {
    ...http,
    requestTimeoutMs: Math.min(http.requestTimeoutMs ?? 30_000, HEALTH_REQUEST_TIMEOUT_MS),
  };
  let last = 'no answer yet';
  let attempts = 0;
  const failed = (message: string) => new CheckError(redact(message), 'Health check failed');
  /** The deadline came first. */
  const outOfTime = () =>
    failed(
      `Health check failed: ${okUrl} did not answer {"ok": true} before the \`timeout\` ran out ` +
        `(${attempts} request${attempts === 1 ? '' : 's'} in ` +
        `${seconds(Math.round(http.clock.now() - started))}; last answer: ${last}). The ` +
        "revision is DEPLOYED but its agent server is not serving: check the deployment's " +
        'logs in the LangSmith UI, or raise `timeout` if it needs longer to start.',
    );
  const loop: RetryLoop = {
    clock: http.clock,
    deadline: http.deadline,
    signal: http.signal,
    backoff: (retry) => backoffCeiling(retry, base, base * HEALTH_MAX_DELAY_FACTOR),
    tooLate: outOfTime,
    atDeadline: true,
    log: (_, delay, attempt) =>
      ctx.logger.debug(
        `Health check: ${okUrl} answered ${last}; next try in ${seconds(delay)} ` +
          `(attempt ${attempt + 1}).`,
      ),
    interrupted: () =>
      http.signal?.aborted
        ? new CancelledError('The run was cancelled during the health check.')
        : undefined,
  };
  return retrying(loop, async (attempt): Promise<Attempted<{ ok: true; attempts: number }>> => {
    attempts = attempt;
    try {
      const res = await request(oneRequest, {
        method: 'GET',
        url: okUrl,
        headers: { 'x-api-key': ctx.config.apiKey, accept: 'application/json' },
        retry: 'never',
        describe: `GET ${okUrl}`,
      });
      if (res.status === 200 && isHealthy(res.text)) return { done: { ok: true, attempts } };
      if (res.status === 401 || res.status === 403) {
        throw failed(
          `Health check of ${okUrl} failed: the agent server refused the API key ` +
            `(HTTP ${res.status}). Check that \`api-key\` has access to the deployment's ` +
            'workspace (and `workspace-id`).',
        );
      }
      last =
        res.status === 200 ? 'HTTP 200 with a body other than {"ok": true}' : `HTTP ${res.status}`;
      const retryAfterMs =
        res.status === 429
          ? parseRetryAfter(res.headers.get('retry-after'), http.clock.now())
          : undefined;
      return { again: last, afterMs: retryAfterMs };
    } catch (error) {
      if (error instanceof DeadlineError) {
        attempts--; // it was never sent
        throw outOfTime();
      }
      // A network fault or an unknown outcome: retried. Anything else (cancellation, the
      // key refused) ends the check.
      if (!(error instanceof ApiError || error instanceof OutcomeUnknownError)) throw error;
      // A redirect or an oversized answer will not change on a retry: fail at once.
      if (error instanceof RefusedAnswerError) {
        throw failed(`Health check of ${okUrl} failed: ${error.message}`);
      }
      last = shortError(error);
      return { again: last };
    }
  });
}
