/**
 * The one retry rule and the one retry loop: full-jitter backoff, `Retry-After` read and
 * spread, and `retrying()`, which the request loop, the upload's PUT and the health check all
 * run (each with its own words for what went wrong).
 */
import type { Clock, Deadline } from '../../lib/time.js';
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
export function backoffDelay(
  attempt: number,
  ctx: Pick<HttpContext, 'random' | 'baseDelayMs' | 'maxDelayMs'>,
): number {
  const base = ctx.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const ceiling = backoffCeiling(attempt, base, ctx.maxDelayMs ?? DEFAULTS.maxDelayMs);
  return Math.floor(Math.min(1, Math.max(0, (ctx.random ?? Math.random)())) * ceiling);
}

/** What one attempt came to: its result, or why to try again (and when, if the server said). */
export type Attempted<T> = { done: T } | { again: string; afterMs?: number | undefined };

export interface RetryLoop {
  clock: Clock;
  deadline: Deadline;
  /** Cuts a wait short (cancellation). */
  signal?: AbortSignal | undefined;
  /** The wait before retry number `retry` (from 0) when the attempt named none. */
  backoff: (retry: number) => number;
  /** Before each attempt (from 1): throws when it must not start. `last`: why the previous failed. */
  before?: (attempt: number, last: string) => void;
  /** The error when the wait would not end before the deadline (`atDeadline`: nor at it). */
  tooLate: (last: string, delayMs: number, attempt: number) => Error;
  atDeadline?: boolean;
  /** The one debug line before a wait. */
  log: (last: string, delayMs: number, attempt: number) => void;
  /** The error for a wait cut short (cancellation); none: the sleep's own error. */
  interrupted?: (error: unknown) => Error | undefined;
}

/**
 * Runs `attempt` until it is done: between attempts, the wait it named or the backoff, never
 * past the deadline. An attempt throws to stop for good, and decides itself when its attempts
 * are spent (the request loop then returns the last answer, the upload fails).
 */
export async function retrying<T>(
  loop: RetryLoop,
  attempt: (n: number) => Promise<Attempted<T>>,
): Promise<T> {
  let last = '';
  for (let n = 1; ; n++) {
    loop.before?.(n, last);
    const result = await attempt(n);
    if ('done' in result) return result.done;
    last = result.again;
    const delay = result.afterMs ?? loop.backoff(n - 1);
    const left = loop.deadline.remainingMs();
    if (delay > left || (loop.atDeadline && delay === left)) throw loop.tooLate(last, delay, n);
    loop.log(last, delay, n);
    try {
      await loop.clock.sleep(delay, loop.signal);
    } catch (error) {
      throw loop.interrupted?.(error) ?? error;
    }
  }
}
