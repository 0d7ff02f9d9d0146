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
 * - a proxy from `HTTPS_PROXY`/`HTTP_PROXY` (with `NO_PROXY`) through `@actions/http-client`,
 *   which is only loaded when such a variable is set.
 */
import { ActionError, ApiError, CancelledError, DeadlineError } from './errors.js';
import { formatSeconds } from './lib/text.js';
import { redact, type Logger } from './runner.js';
import type { Clock, Deadline } from './time.js';

export interface HttpContext {
  clock: Clock;
  deadline: Deadline;
  /** Aborted when the run is cancelled (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  logger: Logger;
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

const DEFAULTS = {
  requestTimeoutMs: 30_000,
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
  default429DelayMs: 5_000,
};

/** `Retry-After` (delay in seconds, or an HTTP date) → milliseconds from `nowMs`. */
/**
 * A little jitter on top of `Retry-After` (up to a fifth of it, at most 1 s, and never past
 * the deadline): runs that share a key and were told the same moment do not all come back
 * at once. The wait is still at least what the server asked for.
 */
export function retryAfterSpread(retryAfterMs: number, ctx: HttpContext): number {
  // At most half the time left after the wait, so the retry itself still fits.
  const room = Math.max(0, ctx.deadline.remainingMs() - retryAfterMs) / 2;
  return Math.min(room, (ctx.random ?? Math.random)() * Math.min(1000, retryAfterMs / 5));
}

export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  if (/^[-+]/.test(v) || /^\d/.test(v)) return undefined; // negative or malformed number
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/** Full jitter: `random() * min(maxDelay, base * 2^attempt)`; `attempt` counts retries from 0. */
export function backoffDelay(
  attempt: number,
  ctx: Pick<HttpContext, 'random' | 'baseDelayMs' | 'maxDelayMs'>,
): number {
  const base = ctx.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const max = ctx.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const ceiling = Math.min(max, base * 2 ** Math.max(0, attempt));
  const r = (ctx.random ?? Math.random)();
  return Math.floor(Math.min(1, Math.max(0, r)) * ceiling);
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The API key may go to this URL: https, or plain http to a loopback host. */
export function keyAllowedFor(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}

// ---------------------------------------------------------------------------------------------
// Proxy

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
type HttpClientModule = typeof import('@actions/http-client');
let httpClientModule: Promise<HttpClientModule> | undefined;
const dispatchers = new Map<string, unknown>();

function proxyConfigured(): boolean {
  return PROXY_VARIABLES.some((name) => (process.env[name] ?? '') !== '');
}

/** The proxy dispatcher for this URL, or undefined (no proxy set, or `NO_PROXY` matches). */
async function dispatcherFor(url: URL): Promise<unknown> {
  if (!proxyConfigured()) return undefined;
  httpClientModule ??= import('@actions/http-client');
  const mod = await httpClientModule;
  const proxy = mod.getProxyUrl(url.href);
  if (!proxy) return undefined;
  let dispatcher = dispatchers.get(proxy);
  if (dispatcher === undefined) {
    dispatcher = new mod.HttpClient('langgraph-deploy-action').getAgentDispatcher(url.href);
    if (dispatcher !== undefined) dispatchers.set(proxy, dispatcher);
  }
  return dispatcher;
}

// ---------------------------------------------------------------------------------------------
// Errors of fetch

/** Codes that prove the request never reached the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

type FailureKind = 'not-sent' | 'unknown' | 'fatal';

interface Failure {
  kind: FailureKind;
  /** Short: `ECONNRESET`, `timeout`, `CERT_HAS_EXPIRED`. */
  code: string;
  /** For messages: what happened, in words. */
  text: string;
  cause: unknown;
}

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number) => {
    if (depth > 6 || e === null || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') codes.push(code);
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
    visit((e as { cause?: unknown }).cause, depth + 1);
  };
  visit(err, 0);
  return codes;
}

function isTlsCode(code: string): boolean {
  return (
    code.startsWith('CERT_') ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('UNABLE_TO_') ||
    code === 'DEPTH_ZERO_SELF_SIGNED_CERT' ||
    code === 'SELF_SIGNED_CERT_IN_CHAIN' ||
    code === 'HOSTNAME_MISMATCH'
  );
}

function classify(err: unknown, url: URL): Failure {
  const codes = errorCodes(err);
  const host = url.host;
  const notSent = codes.find((c) => NOT_SENT_CODES.has(c));
  if (notSent !== undefined) {
    const text =
      notSent === 'ECONNREFUSED'
        ? `connection to ${host} refused`
        : notSent === 'ENOTFOUND'
          ? `host name ${url.hostname} not found (DNS)`
          : notSent === 'EAI_AGAIN'
            ? `DNS lookup of ${url.hostname} failed`
            : `could not connect to ${host} in time`;
    return { kind: 'not-sent', code: notSent, text, cause: err };
  }
  const tls = codes.find(isTlsCode);
  if (tls !== undefined) {
    return {
      kind: 'fatal',
      code: tls,
      text: `TLS certificate of ${host} not accepted (${tls})`,
      cause: err,
    };
  }
  if (codes.includes('UND_ERR_INVALID_ARG')) {
    return {
      kind: 'fatal',
      code: 'UND_ERR_INVALID_ARG',
      text:
        'the HTTP client refused the request (UND_ERR_INVALID_ARG)' +
        (proxyConfigured() ? '; the proxy set in HTTPS_PROXY/HTTP_PROXY may be the cause' : ''),
      cause: err,
    };
  }
  if (codes.includes('ERR_INVALID_URL') || err instanceof RangeError) {
    return {
      kind: 'fatal',
      code: codes[0] ?? 'invalid request',
      text: 'invalid request',
      cause: err,
    };
  }
  const code = codes[0] ?? (err instanceof Error ? err.name : 'network error');
  return { kind: 'unknown', code, text: `connection to ${host} failed (${code})`, cause: err };
}

// ---------------------------------------------------------------------------------------------
// The request loop

interface SendOptions {
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

function throwIfAborted(ctx: HttpContext, callerSignal: AbortSignal | undefined, describe: string) {
  if (ctx.signal?.aborted)
    throw new CancelledError(redact(`The run was cancelled during ${describe}.`));
  if (callerSignal?.aborted) throw callerSignal.reason;
}

function signalsOf(...signals: (AbortSignal | undefined)[]): AbortSignal[] {
  return signals.filter((s): s is AbortSignal => s !== undefined);
}

async function attemptOnce(
  ctx: HttpContext,
  req: SendOptions,
  timeoutMs: number,
): Promise<Attempt> {
  const timeout = AbortSignal.timeout(Math.max(1, Math.round(timeoutMs)));
  const signal = AbortSignal.any(signalsOf(timeout, ctx.signal, req.signal));
  const fetchImpl = ctx.fetchImpl ?? fetch;
  try {
    const init: RequestInit & { dispatcher?: unknown } = {
      method: req.method,
      headers: req.headers,
      signal,
      redirect: 'manual',
    };
    if (req.body !== undefined) init.body = req.body;
    const dispatcher = await dispatcherFor(req.url);
    if (dispatcher !== undefined) init.dispatcher = dispatcher;
    const res = await fetchImpl(req.url, init);
    if (isRedirect(res.status)) {
      await res.body?.cancel().catch(() => undefined);
      throw redirectError(req.method, req.url, req.describe, res);
    }
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
          text: `no answer within ${formatSeconds(timeoutMs)}`,
          cause: err,
        },
      };
    }
    return { ok: false, timedOut: false, failure: classify(err, req.url) };
  }
}

// ---------------------------------------------------------------------------------------------
// Answers: no redirects, a size cap

/** Largest answer the action reads (control plane and agent server). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** An answer the action refuses (a redirect, or one over the size cap): never retried. */
export class RefusedAnswerError extends ApiError {
  constructor(
    message: string,
    options: { status: number; method: string; path: string; title: string },
  ) {
    super(message, options);
    this.name = 'RefusedAnswerError';
  }
}

/** 3xx with a target (304 is a cache answer, not a redirect). */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

/** The host a redirect points at, never its path, query or credentials. */
function redirectTarget(location: string | null, from: URL): string {
  if (location === null || location.trim() === '') return 'no Location given';
  try {
    return `to ${new URL(location, from).host || 'an address without a host'}`;
  } catch {
    return 'to an invalid Location';
  }
}

/**
 * A redirect is never followed (it could carry the API key to another host): a 3xx fails at
 * once, not retried, naming the target's host.
 */
function redirectError(method: string, url: URL, describe: string, res: Response): ApiError {
  const target = redirectTarget(res.headers.get('location'), url);
  return new RefusedAnswerError(
    redact(
      `${describe} answered HTTP ${res.status}, a redirect (${target}), which the action does ` +
        'not follow: the API key must not travel to another address. Check the URL (scheme, ' +
        'host, path prefix, trailing slash) and set it to the final address.',
    ),
    { status: res.status, method, path: url.pathname, title: 'Redirect refused' },
  );
}

function tooLargeError(status: number, method: string, url: URL, describe: string): ApiError {
  return new RefusedAnswerError(
    redact(
      `${describe}: answer too large (over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB); the action ` +
        'stopped reading it. Check the URL points at the API (not a file or a proxy page).',
    ),
    { status, method, path: url.pathname, title: 'Answer too large' },
  );
}

/**
 * Reads a body as UTF-8 text, counting bytes as they arrive: past `MAX_ANSWER_BYTES` the read
 * is cancelled and an "answer too large" error thrown, so memory stays bounded whatever the
 * server sends (a `Content-Length` over the cap fails before reading).
 */
async function readCapped(
  res: Response,
  describe: string,
  method: string,
  url: URL,
): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLargeError(res.status, method, url, describe);
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      chunks.length = 0;
      await reader.cancel().catch(() => undefined);
      throw tooLargeError(res.status, method, url, describe);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

/** The same cap on a streamed answer (a run's events), passed through as it is read. */
function cappedStream(res: Response, describe: string, method: string, url: URL): Response {
  if (!res.body) return res;
  let size = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        controller.error(tooLargeError(res.status, method, url, describe));
        return;
      }
      controller.enqueue(chunk);
    },
  });
  return new Response(res.body.pipeThrough(counter), {
    status: res.status,
    statusText: res.statusText,
    headers: res.headers,
  });
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

function networkError(req: SendOptions, failure: Failure, attempts: number): ApiError {
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

async function send(ctx: HttpContext, req: SendOptions): Promise<HttpResponse> {
  const s = settings(ctx);
  const maxAttempts = req.retry === 'never' ? 1 : s.maxAttempts;
  const path = req.url.pathname;
  let unknownOutcomes = 0;
  let last = '';
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(ctx, req.signal, req.describe);
    const remaining = ctx.deadline.remainingMs();
    if (remaining <= 0) {
      throw new DeadlineError(
        redact(
          `The \`timeout\` ran out before ${req.describe} could be ${attempt > 1 ? 'retried' : 'sent'}` +
            `${last ? ` (last: ${last})` : ''}. Raise \`timeout\` if the platform needs longer.`,
        ),
      );
    }
    const a = await attemptOnce(ctx, req, Math.min(s.requestTimeoutMs, remaining));
    let delay: number;
    if (a.ok) {
      const { status } = a;
      const transient = status >= 500 || status === 408 || status === 429;
      if (!transient || req.retry === 'never') {
        return makeResponse(req, a, attempt, unknownOutcomes);
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
      last = `HTTP ${status}`;
      if (attempt >= maxAttempts) return makeResponse(req, a, attempt, unknownOutcomes);
      const retryAfter = parseRetryAfter(a.headers.get('retry-after'), ctx.clock.now());
      delay =
        retryAfter !== undefined
          ? retryAfter + retryAfterSpread(retryAfter, ctx)
          : status === 429
            ? s.default429DelayMs
            : backoffDelay(attempt - 1, ctx);
    } else {
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
      last = failure.code;
      if (attempt >= maxAttempts) throw networkError(req, failure, attempt);
      delay = backoffDelay(attempt - 1, ctx);
    }
    if (delay > ctx.deadline.remainingMs()) {
      throw new DeadlineError(
        redact(
          `The \`timeout\` would run out before the next attempt of ${req.describe} ` +
            `(last: ${last}; next attempt in ${formatSeconds(delay)}, ` +
            `${formatSeconds(ctx.deadline.remainingMs())} left). ` +
            'Re-run the job later, or raise `timeout`.',
        ),
      );
    }
    ctx.logger.debug(
      redact(
        `Retrying ${req.method} ${path} after ${last} in ${formatSeconds(delay)} ` +
          `(attempt ${attempt + 1} of ${maxAttempts})`,
      ),
    );
    try {
      const sleepSignal = signalsOf(ctx.signal, req.signal);
      await ctx.clock.sleep(
        delay,
        sleepSignal.length > 0 ? AbortSignal.any(sleepSignal) : undefined,
      );
    } catch (err) {
      throwIfAborted(ctx, req.signal, req.describe);
      throw err;
    }
  }
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

// ---------------------------------------------------------------------------------------------
// fetch for @langchain/langgraph-sdk

function isStreamPath(pathname: string): boolean {
  const p = pathname.replace(/\/+$/, '');
  return p.endsWith('/stream');
}

function isSearchPath(pathname: string): boolean {
  return pathname.replace(/\/+$/, '').endsWith('/search');
}

function toResponse(res: HttpResponse): Response {
  const headers = new Headers(res.headers);
  // The text is already decoded.
  headers.delete('content-encoding');
  headers.delete('content-length');
  const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
  return new Response(nullBody ? null : res.text, { status: res.status, headers });
}

/**
 * A `fetch` for `@langchain/langgraph-sdk` (whose own retries must be off): GET/DELETE (and
 * HEAD/OPTIONS) retried as `idempotent`, POST/PATCH/PUT as `unsafe`, and any path ending in
 * `/stream` (`/runs/stream`, a run's `/stream`) sent once with its body passed through
 * untouched. The key headers (`X-Api-Key`, `Authorization`) are dropped for URLs
 * `allowKeyFor` refuses (default `keyAllowedFor`).
 */
export function createResilientFetch(
  ctx: HttpContext,
  options: { allowKeyFor?(url: URL): boolean } = {},
): typeof fetch {
  const allowKeyFor = options.allowKeyFor ?? keyAllowedFor;
  const resilientFetch = async (
    input: string | URL | Request,
    init: RequestInit = {},
  ): Promise<Response> => {
    const asRequest = input instanceof Request ? input : undefined;
    const url = new URL(asRequest ? asRequest.url : String(input));
    const method = (init.method ?? asRequest?.method ?? 'GET').toUpperCase();
    const headers = new Headers(asRequest?.headers);
    new Headers(init.headers).forEach((value, name) => headers.set(name, value));
    if (!allowKeyFor(url)) {
      headers.delete('x-api-key');
      headers.delete('authorization');
    }
    let body: string | ArrayBuffer | undefined;
    if (init.body !== undefined && init.body !== null) {
      body =
        typeof init.body === 'string' ? init.body : await new Response(init.body).arrayBuffer();
    } else if (asRequest?.body) {
      body = await asRequest.arrayBuffer();
    }
    const callerSignal = init.signal ?? asRequest?.signal ?? undefined;
    const describe = `${method} ${url.origin}${url.pathname}`;

    if (isStreamPath(url.pathname)) {
      throwIfAborted(ctx, callerSignal, describe);
      const remaining = ctx.deadline.remainingMs();
      if (remaining <= 0) {
        throw new DeadlineError(
          redact(`The \`timeout\` ran out before ${describe} could be sent.`),
        );
      }
      const deadlineSignal = AbortSignal.timeout(Math.max(1, Math.round(remaining)));
      const signal = AbortSignal.any(signalsOf(deadlineSignal, ctx.signal, callerSignal));
      const fetchInit: RequestInit & { dispatcher?: unknown } = {
        method,
        headers,
        signal,
        redirect: 'manual',
      };
      if (body !== undefined) fetchInit.body = body;
      const dispatcher = await dispatcherFor(url);
      if (dispatcher !== undefined) fetchInit.dispatcher = dispatcher;
      let res: Response;
      try {
        res = await (ctx.fetchImpl ?? fetch)(url, fetchInit);
      } catch (err) {
        throwIfAborted(ctx, callerSignal, describe);
        if (deadlineSignal.aborted) {
          throw new DeadlineError(redact(`The \`timeout\` ran out during ${describe}.`));
        }
        const failure = classify(err, url);
        if (failure.kind === 'unknown') {
          throw new OutcomeUnknownError({
            method,
            path: url.pathname,
            describe,
            reason: failure.code,
            cause: err,
          });
        }
        throw networkError({ method, url, headers, retry: 'never', describe }, failure, 1);
      }
      if (isRedirect(res.status)) {
        await res.body?.cancel().catch(() => undefined);
        throw redirectError(method, url, describe, res);
      }
      return cappedStream(res, describe, method, url);
    }

    // `POST …/search` only reads (assistants, threads): safe to retry like a GET.
    const retry: RetryMode =
      ['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method) || isSearchPath(url.pathname)
        ? 'idempotent'
        : 'unsafe';
    const res = await send(ctx, {
      method,
      url,
      headers,
      ...(body !== undefined ? { body } : {}),
      retry,
      describe,
      ...(callerSignal ? { signal: callerSignal } : {}),
    });
    return toResponse(res);
  };
  return resilientFetch as typeof fetch;
}
