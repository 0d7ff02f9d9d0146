/**
 * The one HTTP layer of the action: every control-plane and agent-server call, and the upload's
 * PUT, goes through `request()` (for `@langchain/langgraph-sdk`, by way of
 * `createResilientFetch()`, at the end of this file), on the platform's `fetch` (a file body on
 * node:http(s), see `HttpRequest.file`): one per-request timeout (`requestTimeoutMs`, never past
 * the run's deadline) with the run's cancel signal (a cancel rejects at once with
 * `CancelledError`, never retried); bounded retries by request kind (`RetryMode`, the rules in
 * `retry-policy.ts`); the runner's proxy (`proxy.ts`); one debug line per retry (method, path,
 * status or error code, delay), never headers, query strings or bodies. And what it refuses:
 * the API key on a URL that is not https (or loopback; the `control-plane-url` input is refused
 * as such before any request), a redirect (never followed), and an answer over the size cap.
 */
import { formatSeconds as seconds } from '../../lib/text.js';
import { ActionError, ApiError, DeadlineError } from '../../lib/errors.js';
import { redact } from '../../lib/untrusted.js';
import type { RunBasics } from '../../lib/time.js';
import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import { agentFor, dispatcherFor } from './proxy.js';
import {
  classify,
  DEFAULTS,
  Failure,
  retrying,
  serverDelay,
  stopIfCancelledDuring,
  type Attempted,
} from './retry-policy.js';

/** The run's clock, deadline, signal and logger, and settings of the loop (`DEFAULTS`). */
export interface HttpContext extends RunBasics, Partial<typeof DEFAULTS> {
  /** In [0, 1); `Math.random` by default. Tests pass a fixed value. */
  random?: () => number;
  fetchImpl?: typeof fetch;
}

/**
 * - `idempotent` (GET, DELETE, `/ok`): retry 5xx, 408, 429, connection resets and timeouts.
 * - `unsafe` (POST, PATCH): retry only what certainly was not processed (429; connection
 *   refused, DNS failures); a reset, timeout, 408 or 5xx after sending throws
 *   `OutcomeUnknownError`.
 * - `never` (a stream POST that starts a run): one attempt.
 */
type RetryMode = 'idempotent' | 'unsafe' | 'never';

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** A `stream` request's body, unread (the size cap counts it as it is read); `text` is ''. */
  stream?: ReadableStream<Uint8Array> | null;
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
  url: string | URL;
  headers?: HeadersInit;
  /**
   * Sent as JSON (`Content-Type: application/json` unless a header says otherwise); a string
   * as it is (the SDK's own bodies, already JSON).
   */
  body?: unknown;
  /** By default GET, HEAD, OPTIONS and DELETE are `idempotent`, the rest `unsafe`. */
  retry?: RetryMode;
  /** What is being done, for messages: e.g. `GET deployment 1234`. */
  describe: string;
  /**
   * `return`: a 3xx comes back as an answer instead of failing, for the one caller that follows
   * a redirect itself (an image registry's blob download: `../registry.ts`).
   */
  redirect?: 'return';
  /** A caller's own signal (the SDK's): its abort rejects with its reason, like fetch. */
  signal?: AbortSignal | undefined;
  /**
   * A run's events: one attempt (`retry: 'never'`) bounded by the deadline alone, not by
   * `requestTimeoutMs`; the body comes back unread in `stream`, and a timeout is a
   * `DeadlineError`.
   */
  stream?: boolean;
  /**
   * A file as the body, read as it is sent (the upload's archive), on node:http(s), which adds
   * no header of its own (fetch would: a signed URL takes exactly the headers given). Bounded
   * by the deadline alone, and by `IDLE_TIMEOUT_MS` without progress.
   */
  file?: string;
}

/** The request as it is sent. */
type Sending = HttpRequest & { retry: RetryMode; url: URL; headers: Headers; body?: string };

export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The API key may go to this URL: https, or plain http to a loopback host. The one rule, kept by
 * `request()` for every call (the key headers never go to a URL it refuses); the input check
 * and the agent-server checks read it to say so before any request.
 */
export function keyAllowedFor(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}

/** Largest answer the action reads (control plane and agent server). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The request an answer is for, as messages name it. */
type Asked = Pick<Sending, 'method' | 'url' | 'describe'>;

/** An answer the action refuses (a redirect, or one over the size cap): never retried. */
export class RefusedAnswerError extends ApiError {
  override name = 'RefusedAnswerError';
}

/**
 * A redirect is never followed (it could carry the API key to another host): a 3xx (but 304, a
 * cache answer) fails at once, not retried, naming the target's host, never its path, query or
 * credentials.
 */
async function refuseRedirect(res: Response, req: Asked): Promise<void> {
  if (res.status < 300 || res.status >= 400 || res.status === 304) return;
  await res.body?.cancel().catch(() => undefined);
  const location = res.headers.get('location')?.trim();
  const target = !location
    ? 'no Location given'
    : URL.canParse(location, req.url)
      ? `to ${new URL(location, req.url).host || 'an address without a host'}`
      : 'to an invalid Location';
  throw new RefusedAnswerError(
    redact(
      `${req.describe} answered HTTP ${res.status}, a redirect (${target}), which the action does ` +
        'not follow: the API key must not travel to another address. Check the URL (scheme, ' +
        'host, path prefix, trailing slash) and set it to the final address.',
    ),
    { status: res.status, title: 'Redirect refused' },
  );
}

function tooLarge(status: number, req: Asked): ApiError {
  return new RefusedAnswerError(
    redact(
      `${req.describe}: answer too large (over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB); the action ` +
        'stopped reading it. Check the URL points at the API (not a file or a proxy page).',
    ),
    { status, title: 'Answer too large' },
  );
}

/**
 * Reads a body as UTF-8 text, counting bytes as they arrive: past `MAX_ANSWER_BYTES` the read
 * is cancelled and an "answer too large" error thrown, so memory stays bounded whatever the
 * server sends (a `Content-Length` over the cap fails before reading).
 */
export async function readCapped(res: Response, req: Asked): Promise<string> {
  if (Number(res.headers.get('content-length')) > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(res.status, req);
  }
  return new Response(cappedBody(res, req)).text();
}

/** The body with the same cap, passed through as it is read (a run's events). */
function cappedBody(res: Response, req: Asked): ReadableStream<Uint8Array> | null {
  let size = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > MAX_ANSWER_BYTES) controller.error(tooLarge(res.status, req));
      else controller.enqueue(chunk);
    },
  });
  return res.body && res.body.pipeThrough(counter);
}

/** A POST/PATCH was sent but no usable answer came back: it may or may not have been applied. */
export class OutcomeUnknownError extends ActionError {
  override name = 'OutcomeUnknownError';
  constructor(
    readonly method: string,
    describe: string,
    /** `HTTP 502`, `ECONNRESET`, `no answer within 30 s`, … */
    readonly reason: string,
    /** The HTTP status when the server answered 408/5xx; undefined for resets and timeouts. */
    readonly status?: number,
    override readonly cause?: unknown,
  ) {
    super(
      redact(
        `${describe} was sent, but no usable answer came back (${reason}): it is unknown ` +
          'whether the platform applied it. Look the deployment up before trying again, or ' +
          're-run the job.',
      ),
      'Outcome of a request unknown',
    );
  }
}

type Answer = Omit<HttpResponse, 'attempts' | 'attemptsWithUnknownOutcome'>;

/** One `fetch` of the request within `ms`: its answer, or what went wrong. */
async function attemptOnce(ctx: HttpContext, req: Sending, ms: number): Promise<Answer | Failure> {
  const timeout = AbortSignal.timeout(Math.max(1, Math.round(ms)));
  const signal = AbortSignal.any([timeout, ctx.signal, req.signal].filter((s) => s !== undefined));
  try {
    const res = req.file
      ? await sendFile(req, req.file, signal)
      : await (ctx.fetchImpl ?? fetch)(req.url, {
          method: req.method,
          headers: req.headers,
          signal,
          redirect: 'manual',
          // The runner's proxy (undici's own option: not in the DOM's `RequestInit`).
          dispatcher: await dispatcherFor(req.url),
          body: req.body,
        } as RequestInit);
    if (req.redirect !== 'return') await refuseRedirect(res, req);
    const stream = req.stream ? cappedBody(res, req) : undefined;
    const text = req.stream ? '' : await readCapped(res, req);
    return { status: res.status, headers: res.headers, text, stream };
  } catch (err) {
    if (err instanceof ActionError) throw err; // refused, or the file could not be read
    stopIfCancelledDuring({ http: ctx, what: req.describe, signal: req.signal });
    if (!timeout.aborted) return classify(err, req.url);
    if (req.stream)
      throw new DeadlineError(redact(`The \`timeout\` ran out during ${req.describe}.`));
    return new Failure('unknown', 'timeout', `no answer within ${seconds(ms)}`, err);
  }
}

/** No byte for this long on a connection sending a file: the attempt failed. */
const IDLE_TIMEOUT_MS = 60_000;

/** One send of `file` (see `HttpRequest.file`), through the runner's proxy, as a `Response`. */
async function sendFile(req: Sending, file: string, signal: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = {};
  req.headers.forEach((value, name) => (headers[name] = value));
  // No pooled keep-alive socket: it would hold the process open after the run.
  const options = { method: req.method, headers, signal, agent: agentFor(req.url) ?? false };
  const sent = (req.url.protocol === 'https:' ? httpsRequest : httpRequest)(req.url, options);
  const source = createReadStream(file).on('error', (error: NodeJS.ErrnoException) =>
    sent.destroy(new ActionError(`${req.describe}: the file could not be read (${error.code}).`)),
  );
  sent.setTimeout(IDLE_TIMEOUT_MS, () =>
    sent.destroy(Object.assign(new Error('no progress'), { code: 'ETIMEDOUT' })),
  );
  source.pipe(sent.on('error', () => source.destroy()));
  const [res] = (await once(sent, 'response')) as [IncomingMessage];
  const init = { status: res.statusCode, headers: res.headers as Record<string, string> };
  return new Response(Readable.toWeb(res) as ReadableStream, init);
}

function networkError(req: Sending, failure: Failure, attempts: number): ApiError {
  const tried = attempts > 1 ? ` after ${attempts} attempts` : '';
  const advice =
    failure.kind === 'fatal'
      ? 'Check the URL and, for a self-hosted install, that its certificate is trusted ' +
        '(NODE_EXTRA_CA_CERTS).'
      : "Check the URL and the runner's network access (proxy: HTTPS_PROXY / NO_PROXY), " +
        'then re-run the job.';
  const error = new ApiError(redact(`${req.describe} failed${tried}: ${failure.text}. ${advice}`), {
    title: 'Network error',
  });
  return Object.assign(error, { cause: failure.cause });
}

/**
 * Sends one request with the retry rules of `req.retry`. Returns any status that is not
 * retried (4xx included: callers map them) and, once the attempts are spent, the last
 * 5xx/408/429 answer. Throws `OutcomeUnknownError` (unsafe requests), `DeadlineError`,
 * `CancelledError`, or `ApiError` for network failures that outlived the retries.
 */
export async function request(ctx: HttpContext, options: HttpRequest): Promise<HttpResponse> {
  const headers = new Headers(options.headers);
  // The headers that carry the API key (the control plane's, the SDK's).
  const keyRefused = !keyAllowedFor(new URL(options.url));
  if (keyRefused) for (const key of ['x-api-key', 'authorization']) headers.delete(key);
  const json = options.body !== undefined && typeof options.body !== 'string';
  const body = json ? JSON.stringify(options.body) : (options.body as string | undefined);
  if (json && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const method = options.method.toUpperCase();
  const retry =
    options.retry ??
    (['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method) ? 'idempotent' : 'unsafe');
  const req: Sending = { ...options, method, retry, url: new URL(options.url), headers, body };
  const maxAttempts =
    req.retry === 'never' ? 1 : Math.max(1, Math.floor(ctx.maxAttempts ?? DEFAULTS.maxAttempts));
  let unknownOutcomes = 0;
  const logAs = `${method} ${req.url.pathname}`;
  const call = { http: ctx, what: req.describe, logAs, signal: req.signal, maxAttempts };
  return retrying(call, async (attempt): Promise<Attempted<HttpResponse>> => {
    const left = ctx.deadline.remainingMs();
    const perRequest = ctx.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
    const got = await attemptOnce(ctx, req, req.stream ? left : Math.min(perRequest, left));
    if (!('kind' in got)) {
      const { status } = got;
      const again = (status >= 500 || status === 408 || status === 429) && req.retry !== 'never';
      if (again && req.retry === 'unsafe' && status !== 429) {
        throw new OutcomeUnknownError(method, req.describe, `HTTP ${status}`, status);
      }
      if (again && status !== 429) unknownOutcomes++;
      if (again && attempt < maxAttempts) {
        return { again: `HTTP ${status}`, afterMs: serverDelay(status, got.headers, ctx) };
      }
      return { done: { ...got, attempts: attempt, attemptsWithUnknownOutcome: unknownOutcomes } };
    }
    const failure = got;
    if (failure.kind === 'unknown' && req.retry !== 'idempotent') {
      const reason = failure.code === 'timeout' ? failure.text : failure.code;
      throw new OutcomeUnknownError(method, req.describe, reason, undefined, failure.cause);
    }
    if (failure.kind === 'unknown') unknownOutcomes++;
    if (failure.kind === 'fatal' || req.retry === 'never' || attempt >= maxAttempts) {
      throw networkError(req, failure, attempt);
    }
    return { again: failure.code };
  });
}

/**
 * A `fetch` for `@langchain/langgraph-sdk` (whose own retries must be off) on `request()`: the
 * same retries, deadline, cancellation, caps and key rule. GET/DELETE (and HEAD/OPTIONS) are
 * retried as `idempotent`, POST/PATCH/PUT as `unsafe`, and any path ending in `/stream`
 * (`/runs/stream`, a run's `/stream`) is sent once with its body passed through untouched.
 */
export function createResilientFetch(ctx: HttpContext): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // The platform's own merge of `input` and `init` (URL, method, headers, body, signal).
    const asked = new Request(input, init);
    const url = new URL(asked.url);
    const method = asked.method.toUpperCase();
    const path = url.pathname.replace(/\/+$/, '');
    const stream = path.endsWith('/stream');
    const res = await request(ctx, {
      method,
      url,
      headers: asked.headers,
      body: asked.body ? await asked.text() : undefined,
      // `POST …/search` only reads (assistants, threads): safe to retry like a GET.
      retry: stream ? 'never' : path.endsWith('/search') ? 'idempotent' : undefined,
      describe: `${method} ${url.origin}${url.pathname}`,
      signal: asked.signal,
      stream,
    });
    const answerHeaders = new Headers(res.headers);
    // The body is already decoded.
    for (const name of ['content-encoding', 'content-length']) answerHeaders.delete(name);
    const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
    return new Response(nullBody ? null : (res.stream ?? res.text), {
      status: res.status,
      headers: answerHeaders,
    });
  }) as typeof fetch;
}
