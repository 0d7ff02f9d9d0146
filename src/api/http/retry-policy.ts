/**
 * The one retry rule, pure: full-jitter backoff, `Retry-After` read and spread. The request
 * loop and the health check both follow it; the upload's PUT uses it too.
 */
import type { HttpContext } from './request.js';

export const DEFAULTS = {
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
  const max = ctx.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const ceiling = backoffCeiling(attempt, base, max);
  const r = (ctx.random ?? Math.random)();
  return Math.floor(Math.min(1, Math.max(0, r)) * ceiling);
}
