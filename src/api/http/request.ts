/**
 * The one HTTP layer of the action: every control-plane and agent-server call goes through
 * `request()` (or, for `@langchain/langgraph-sdk`, through `createResilientFetch()`), on the
 * platform's `fetch`.
 *
 * What it guarantees:
 * - one per-request timeout (`requestTimeoutMs`, never past the run's deadline), combined with
 *   the run's cancel signal; a cancel rejects at once with `CancelledError` and is never retried;
 * - bounded retries with full-jitter backoff (`maxAttempts`, never sleeping past the deadline),
 *   `Retry-After` honoured as given (seconds or HTTP date);
 * - retry rules by request kind (`RetryMode`): a request that may have changed something on the
 *   server (POST/PATCH) is only retried when it certainly was not processed; otherwise the caller
 *   gets `OutcomeUnknownError` and decides (the deploy flow looks up and adopts);
 * - redirects are never followed (one to another host would carry `X-Api-Key` along): a 3xx
 *   fails at once, naming the target's host;
 * - answers are read with a size cap (`MAX_ANSWER_BYTES`, 16 MiB), counted as they stream in;
 * - logs: one debug line per retry (method, path, status or error code, delay), never headers,
 *   query strings or bodies;
 * - a proxy (`proxy.ts`) from `HTTPS_PROXY`/`HTTP_PROXY` (with `NO_PROXY`) through `@actions/http-client`,
 *   which is only loaded when such a variable is set.
 */
import { formatSeconds as seconds } from '../../lib/text.js';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../../lib/errors.js';
import { redact } from '../../lib/untrusted.js';
import type { RunBasics } from '../../lib/time.js';
import { isRedirect, readCapped, redirectError, RefusedAnswerError } from './limits.js';
import { classify, type Failure } from './failures.js';
import { dispatcherFor } from './proxy.js';
import {
  backoffDelay,
  DEFAULTS,
  parseRetryAfter,
  retrying,
  retryAfterSpread,
  type Attempted,
  type RetryLoop,
} from './retry-policy.js';

export interface HttpContext extends RunBasics {
  /** In [0, 1); `Math.random` by default. Tests pass a fixed value. */
  random?: () => number;
  fetchImpl?: typeof fetch;
  /** Timeout of one attempt (headers and body). Default 30000. */
  requestTimeoutMs?: number;
  /** Attempts per request, the first included. Default 5. */
  maxAttempts?: number;
  /** Default 1000. */
  baseDelayMs?: number;
  /** Default 20000. */
  maxDelayMs?: number;
  /** Wait after a 429 without `Retry-After`. Default 5000. */
  default429DelayMs?: number;
}

/**
 * - `idempotent` (GET, DELETE, `/ok`): retry 5xx, 408, 429, connection resets and timeouts.
 * - `unsafe` (POST, PATCH): retry only what certainly was not processed (429; connection
 *   refused, DNS failures); a reset, timeout, 408 or 5xx after sending throws
 *   `OutcomeUnknownError`.
 * - `never` (a stream POST that starts a run): one attempt.
 */
export type RetryMode = 'idempotent' | 'unsafe' | 'never';

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; throws `ApiError` ("invalid response (not JSON)") otherwise. */
  json(): unknown;
  /** Attempts made for this answer, this one included. */
  attempts: number;
  /**
   * Earlier attempts of this request whose outcome is unknown (reset, timeout, 408 or 5xx):
   * the server may have applied them. A DELETE that answers 404 after one of those did delete.
   */
  attemptsWithUnknownOutcome: number;
}

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON (`Content-Type: application/json` unless a header says otherwise). */
  body?: unknown;
  retry: RetryMode;
  /** What is being done, for messages: e.g. `GET deployment 1234`. */
  describe: string;
}

/** A POST/PATCH was sent but no usable answer came back: it may or may not have been applied. */
export class OutcomeUnknownError extends ActionError {
  readonly method: string;
  readonly path: string;
  readonly describe: string;
  /** The HTTP status when the server answered 408/5xx; undefined for resets and timeouts. */
  readonly status: number | undefined;
  /** `HTTP 502`, `ECONNRESET`, `timeout`, … */
  readonly reason: string;
  constructor(options: {
    method: string;
    path: string;
    describe: string;
    status?: number;
    reason: string;
    cause?: unknown;
  }) {
    super(
      redact(
        `${options.describe} was sent, but no usable answer came back (${options.reason}): ` +
          'it is unknown whether the platform applied it. Look the deployment up before ' +
          'trying again, or re-run the job.',
      ),
      'Outcome of a request unknown',
    );
    this.name = 'OutcomeUnknownError';
    this.method = options.method;
    this.path = options.path;
    this.describe = options.describe;
    this.status = options.status;
    this.reason = options.reason;
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

// ---------------------------------------------------------------------------------------------
// The request loop

export interface SendOptions {
  method: string;
  url: URL;
  headers: Headers;
  body?: string | ArrayBuffer;
  retry: RetryMode;
  describe: string;
  /** A caller's own signal (the SDK's): its abort rejects with its reason, like fetch. */
  signal?: AbortSignal;
}

type Attempt =
  | { ok: true; status: number; headers: Headers; text: string }
  | { ok: false; failure: Failure; timedOut: boolean };

function settings(ctx: HttpContext) {
  return {
    requestTimeoutMs: ctx.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
    maxAttempts: Math.max(1, Math.floor(ctx.maxAttempts ?? DEFAULTS.maxAttempts)),
    default429DelayMs: ctx.default429DelayMs ?? DEFAULTS.default429DelayMs,
  };
}

export function throwIfAborted(
  ctx: HttpContext,
  callerSignal: AbortSignal | undefined,
  describe: string,
) {
  if (ctx.signal?.aborted)
    throw new CancelledError(redact(`The run was cancelled during ${describe}.`));
  if (callerSignal?.aborted) throw callerSignal.reason;
}

export function signalsOf(...signals: (AbortSignal | undefined)[]): AbortSignal[] {
  return signals.filter((s): s is AbortSignal => s !== undefined);
}

/**
 * One `fetch` of the request, nothing read yet: bounded by `timeout`, the run's and the
 * caller's signals, through the proxy when one is set, and a redirect refused at once.
 */
export async function fetchOnce(
  ctx: HttpContext,
  req: SendOptions,
  timeout: AbortSignal,
): Promise<Response> {
  const init: RequestInit & { dispatcher?: unknown } = {
    method: req.method,
    headers: req.headers,
    signal: AbortSignal.any(signalsOf(timeout, ctx.signal, req.signal)),
    redirect: 'manual',
  };
  if (req.body !== undefined) init.body = req.body;
  const dispatcher = await dispatcherFor(req.url);
  if (dispatcher !== undefined) init.dispatcher = dispatcher;
  const res = await (ctx.fetchImpl ?? fetch)(req.url, init);
  if (isRedirect(res.status)) {
    await res.body?.cancel().catch(() => undefined);
    throw redirectError(req.method, req.url, req.describe, res);
  }
  return res;
}

async function attemptOnce(
  ctx: HttpContext,
  req: SendOptions,
  timeoutMs: number,
): Promise<Attempt> {
  const timeout = AbortSignal.timeout(Math.max(1, Math.round(timeoutMs)));
  try {
    const res = await fetchOnce(ctx, req, timeout);
    const text = await readCapped(res, req.describe, req.method, req.url);
    return { ok: true, status: res.status, headers: res.headers, text };
  } catch (err) {
    if (err instanceof RefusedAnswerError) throw err;
    throwIfAborted(ctx, req.signal, req.describe);
    if (timeout.aborted) {
      return {
        ok: false,
        timedOut: true,
        failure: {
          kind: 'unknown',
          code: 'timeout',
          text: `no answer within ${seconds(timeoutMs)}`,
          cause: err,
        },
      };
    }
    return { ok: false, timedOut: false, failure: classify(err, req.url) };
  }
}

function makeResponse(
  req: SendOptions,
  a: { status: number; headers: Headers; text: string },
  attempts: number,
  attemptsWithUnknownOutcome: number,
): HttpResponse {
  let parsed: { value: unknown } | undefined;
  return {
    status: a.status,
    headers: a.headers,
    text: a.text,
    attempts,
    attemptsWithUnknownOutcome,
    json() {
      if (parsed === undefined) {
        try {
          parsed = { value: JSON.parse(a.text) as unknown };
        } catch {
          throw new ApiError(
            redact(
              `Invalid response from ${req.describe} (HTTP ${a.status}): the body is not JSON. ` +
                'The URL may not point at the API (a proxy or sign-in page may have answered ' +
                'instead); check the URL, and re-run the job if it was a passing fault.',
            ),
            { status: a.status, method: req.method, path: req.url.pathname },
          );
        }
      }
      return parsed.value;
    },
  };
}

export function networkError(req: SendOptions, failure: Failure, attempts: number): ApiError {
  const tried = attempts > 1 ? ` after ${attempts} attempts` : '';
  const advice =
    failure.kind === 'fatal'
      ? 'Check the URL and, for a self-hosted install, that its certificate is trusted ' +
        '(NODE_EXTRA_CA_CERTS).'
      : "Check the URL and the runner's network access (proxy: HTTPS_PROXY / NO_PROXY), " +
        'then re-run the job.';
  const error = new ApiError(redact(`${req.describe} failed${tried}: ${failure.text}. ${advice}`), {
    method: req.method,
    path: req.url.pathname,
    title: 'Network error',
  });
  (error as { cause?: unknown }).cause = failure.cause;
  return error;
}

export async function send(ctx: HttpContext, req: SendOptions): Promise<HttpResponse> {
  const s = settings(ctx);
  const maxAttempts = req.retry === 'never' ? 1 : s.maxAttempts;
  const path = req.url.pathname;
  const sleepSignal = signalsOf(ctx.signal, req.signal);
  let unknownOutcomes = 0;
  const loop: RetryLoop = {
    clock: ctx.clock,
    deadline: ctx.deadline,
    signal: sleepSignal.length > 0 ? AbortSignal.any(sleepSignal) : undefined,
    backoff: (retry) => backoffDelay(retry, ctx),
    before: (attempt, last) => {
      throwIfAborted(ctx, req.signal, req.describe);
      if (ctx.deadline.remainingMs() > 0) return;
      throw new DeadlineError(
        redact(
          `The \`timeout\` ran out before ${req.describe} could be ${attempt > 1 ? 'retried' : 'sent'}` +
            `${last ? ` (last: ${last})` : ''}. Raise \`timeout\` if the platform needs longer.`,
        ),
      );
    },
    tooLate: (last, delay) =>
      new DeadlineError(
        redact(
          `The \`timeout\` would run out before the next attempt of ${req.describe} ` +
            `(last: ${last}; next attempt in ${seconds(delay)}, ` +
            `${seconds(ctx.deadline.remainingMs())} left). ` +
            'Re-run the job later, or raise `timeout`.',
        ),
      ),
    log: (last, delay, attempt) =>
      ctx.logger.debug(
        redact(
          `Retrying ${req.method} ${path} after ${last} in ${seconds(delay)} ` +
            `(attempt ${attempt + 1} of ${maxAttempts})`,
        ),
      ),
    interrupted: () => {
      throwIfAborted(ctx, req.signal, req.describe);
      return undefined;
    },
  };
  return retrying(loop, async (attempt): Promise<Attempted<HttpResponse>> => {
    const a = await attemptOnce(ctx, req, Math.min(s.requestTimeoutMs, ctx.deadline.remainingMs()));
    if (a.ok) {
      const { status } = a;
      const transient = status >= 500 || status === 408 || status === 429;
      if (!transient || req.retry === 'never') {
        return { done: makeResponse(req, a, attempt, unknownOutcomes) };
      }
      if (req.retry === 'unsafe' && status !== 429) {
        throw new OutcomeUnknownError({
          method: req.method,
          path,
          describe: req.describe,
          status,
          reason: `HTTP ${status}`,
        });
      }
      if (status !== 429) unknownOutcomes++;
      if (attempt >= maxAttempts) return { done: makeResponse(req, a, attempt, unknownOutcomes) };
      const retryAfter = parseRetryAfter(a.headers.get('retry-after'), ctx.clock.now());
      return {
        again: `HTTP ${status}`,
        afterMs:
          retryAfter !== undefined
            ? retryAfter + retryAfterSpread(retryAfter, ctx)
            : status === 429
              ? s.default429DelayMs
              : undefined,
      };
    }
    const { failure } = a;
    if (failure.kind === 'fatal') throw networkError(req, failure, attempt);
    if (failure.kind === 'unknown') {
      if (req.retry !== 'idempotent') {
        throw new OutcomeUnknownError({
          method: req.method,
          path,
          describe: req.describe,
          reason: failure.code === 'timeout' ? failure.text : failure.code,
          cause: failure.cause,
        });
      }
      unknownOutcomes++;
    } else if (req.retry === 'never') {
      throw networkError(req, failure, attempt);
    }
    if (attempt >= maxAttempts) throw networkError(req, failure, attempt);
    return { again: failure.code };
  });
}

/**
 * Sends one request with the retry rules of `req.retry`. Returns any status that is not
 * retried (4xx included: callers map them) and, once the attempts are spent, the last
 * 5xx/408/429 answer. Throws `OutcomeUnknownError` (unsafe requests), `DeadlineError`,
 * `CancelledError`, or `ApiError` for network failures that outlived the retries.
 */
export async function request(ctx: HttpContext, req: HttpRequest): Promise<HttpResponse> {
  const headers = new Headers(req.headers);
  let body: string | undefined;
  if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return send(ctx, {
    method: req.method.toUpperCase(),
    url: new URL(req.url),
    headers,
    ...(body !== undefined ? { body } : {}),
    retry: req.retry,
    describe: req.describe,
  });
}
