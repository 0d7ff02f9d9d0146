/**
 * The one retry rule and the one retry loop: what a failed `fetch` means (certainly not sent,
 * outcome unknown, or fatal), full-jitter backoff, `Retry-After` read and spread, and
 * `retrying()`, which the request loop (every request, the upload's PUT included) and the
 * health check run, with one call shape: the loop owns the deadline, the cancellation and their
 * wording.
 */
import { CancelledError, DeadlineError } from '../../lib/errors.js';
import { formatSeconds as seconds } from '../../lib/text.js';
import { redact } from '../../lib/untrusted.js';
import { proxied } from './proxy.js';
import type { HttpContext } from './request.js';

export const DEFAULTS = {
  /** Timeout of one attempt (headers and body). */
  requestTimeoutMs: 30_000,
  /** Attempts per request, the first included. */
  maxAttempts: 5,
  baseDelayMs: 1_000,
  maxDelayMs: 20_000,
  /** Wait after a 429 without `Retry-After`. */
  default429DelayMs: 5_000,
};

/** Codes that prove the request never reached the server, and what each says happened. */
const NOT_SENT: Record<string, (url: URL) => string> = {
  ECONNREFUSED: (url) => `connection to ${url.host} refused`,
  ENOTFOUND: (url) => `host name ${url.hostname} not found (DNS)`,
  EAI_AGAIN: (url) => `DNS lookup of ${url.hostname} failed`,
  UND_ERR_CONNECT_TIMEOUT: (url) => `could not connect to ${url.host} in time`,
};

const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_)|^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)$/;

export class Failure {
  constructor(
    readonly kind: 'not-sent' | 'unknown' | 'fatal',
    /** Short: `ECONNRESET`, `timeout`, `CERT_HAS_EXPIRED`. */
    readonly code: string,
    /** For messages: what happened, in words. */
    readonly text: string,
    readonly cause: unknown,
  ) {}
}

/** The `code` of the error, of its `cause`s and of the `errors` it aggregates, outermost first. */
export function errorCodes(e: unknown, depth = 0, seen = new Set<unknown>()): string[] {
  if (depth > 6 || e === null || typeof e !== 'object' || seen.has(e)) return [];
  seen.add(e);
  const { code, errors, cause } = e as { code?: unknown; errors?: unknown; cause?: unknown };
  const inner = Array.isArray(errors) ? [...errors, cause] : [cause];
  return [
    ...(typeof code === 'string' && code !== '' ? [code] : []),
    ...inner.flatMap((next) => errorCodes(next, depth + 1, seen)),
  ];
}

export function classify(err: unknown, url: URL): Failure {
  const codes = errorCodes(err);
  const notSent = codes.find((c) => Object.hasOwn(NOT_SENT, c));
  if (notSent !== undefined) return new Failure('not-sent', notSent, NOT_SENT[notSent]!(url), err);
  const tls = codes.find((c) => TLS_CODE.test(c));
  if (tls !== undefined) {
    return new Failure('fatal', tls, `TLS certificate of ${url.host} not accepted (${tls})`, err);
  }
  if (codes.includes('UND_ERR_INVALID_ARG')) {
    const proxy = proxied(url) ? '; the proxy set in HTTPS_PROXY/HTTP_PROXY may be the cause' : '';
    const text = `the HTTP client refused the request (UND_ERR_INVALID_ARG)${proxy}`;
    return new Failure('fatal', 'UND_ERR_INVALID_ARG', text, err);
  }
  if (codes.includes('ERR_INVALID_URL') || err instanceof RangeError) {
    return new Failure('fatal', codes[0] ?? 'invalid request', 'invalid request', err);
  }
  const code = codes[0] ?? (err instanceof Error ? err.name : 'network error');
  return new Failure('unknown', code, `connection to ${url.host} failed (${code})`, err);
}

/**
 * The wait the server asked for (`Retry-After`; after a 429 without one, `default429DelayMs`),
 * with a little jitter on top (up to a fifth of it, at most 1 s, and never past the deadline):
 * runs that share a key and were told the same moment do not all come back at once. The wait
 * is still at least what the server asked for.
 */
export function serverDelay(status: number, headers: Headers, ctx: HttpContext) {
  const after = parseRetryAfter(headers.get('retry-after'), ctx.clock.now());
  if (after === undefined) {
    return status === 429 ? (ctx.default429DelayMs ?? DEFAULTS.default429DelayMs) : undefined;
  }
  // At most half the time left after the wait, so the retry itself still fits.
  const room = Math.max(0, ctx.deadline.remainingMs() - after) / 2;
  return after + Math.min(room, (ctx.random ?? Math.random)() * Math.min(1000, after / 5));
}

/** `Retry-After` (delay in seconds, or an HTTP date) → milliseconds from `nowMs`. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  const v = (value ?? '').trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.ceil(Number(v) * 1000);
  if (v === '' || /^[-+\d]/.test(v)) return undefined; // none, negative or malformed number
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** The longest wait before retry number `attempt` (from 0): `min(max, base * 2^attempt)`. */
export function backoffCeiling(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
}

/** Full jitter: `random() * min(maxDelay, base * 2^attempt)`; `attempt` counts retries from 0. */
export function backoffDelay(attempt: number, ctx: Partial<HttpContext>): number {
  const base = ctx.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const ceiling = backoffCeiling(attempt, base, ctx.maxDelayMs ?? DEFAULTS.maxDelayMs);
  return Math.floor(Math.min(1, Math.max(0, (ctx.random ?? Math.random)())) * ceiling);
}

/** What one attempt came to: its result, or why to try again (and when, if the server said). */
export type Attempted<T> = { done: T } | { again: string; afterMs?: number | undefined };

/** One call of the loop: the run's context, what it does, and what differs from the defaults. */
export interface RetryCall {
  http: HttpContext;
  /** What is being done, as the messages name it: `GET deployment 1234`, `the upload to …`. */
  what: string;
  signal?: AbortSignal | undefined;
  /** For the debug line ("attempt 2 of 5"); the attempt itself decides when they are spent. */
  maxAttempts?: number;
  /** What the debug line names (a request: its method and path); by default `what`. */
  logAs?: string;
  /** The wait before retry number `retry` (from 0) when the attempt named none. */
  backoff?: (retry: number) => number;
  /** The error when the deadline stops the loop; by default a `DeadlineError` that says so. */
  outOfTime?: (last: string) => Error;
}

/** Throws when the run (or the caller's own signal) was cancelled during `what`. */
export function stopIfCancelledDuring({ http, what, signal }: RetryCall): void {
  if (http.signal?.aborted)
    throw new CancelledError(redact(`The run was cancelled during ${what}.`));
  if (signal?.aborted) throw signal.reason;
}

/**
 * Runs `attempt` until it is done: between attempts, the wait it named or the backoff (by
 * default full jitter), ending before the deadline. A cancelled run stops it with
 * `CancelledError`, the deadline with `outOfTime` (or a `DeadlineError` naming `what`), both
 * before an attempt and instead of a wait. An attempt throws to stop for good, and decides
 * itself when its attempts are spent (the request loop then returns the last answer, the
 * upload fails).
 */
export async function retrying<T>(
  call: RetryCall,
  attempt: (n: number) => Promise<Attempted<T>>,
): Promise<T> {
  const { http, what } = call;
  const signals = [http.signal, call.signal].filter((s) => s !== undefined);
  const outOfTime = (last: string, text: string) =>
    call.outOfTime?.(last) ?? new DeadlineError(redact(text));
  let last = '';
  for (let n = 1; ; n++) {
    stopIfCancelledDuring(call);
    if (http.deadline.remainingMs() <= 0) {
      throw outOfTime(
        last,
        `The \`timeout\` ran out before ${what} could be ${n > 1 ? 'retried' : 'sent'}` +
          `${last ? ` (last: ${last})` : ''}. Raise \`timeout\` if the platform needs longer.`,
      );
    }
    const result = await attempt(n);
    if ('done' in result) return result.done;
    last = result.again;
    const delay = result.afterMs ?? (call.backoff ?? ((r) => backoffDelay(r, http)))(n - 1);
    const left = http.deadline.remainingMs();
    if (delay >= left) {
      throw outOfTime(
        last,
        `The \`timeout\` would run out before the next attempt of ${what} (last: ${last}; ` +
          `next attempt in ${seconds(delay)}, ${seconds(left)} left). Re-run the job later, ` +
          'or raise `timeout`.',
      );
    }
    const of = call.maxAttempts ? ` of ${call.maxAttempts}` : '';
    http.logger.debug(
      redact(
        `Retrying ${call.logAs ?? what} after ${last} in ${seconds(delay)} (attempt ${n + 1}${of})`,
      ),
    );
    await http.clock.sleep(delay, AbortSignal.any(signals)).catch((error: unknown) => {
      stopIfCancelledDuring(call);
      throw error;
    });
  }
}
