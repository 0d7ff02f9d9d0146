/**
 * What the HTTP layer refuses: the API key on a URL that is not https (or loopback; the
 * `control-plane-url` input is refused as such before any request), a redirect (never
 * followed), and an answer over the size cap.
 */
import { ApiError } from '../../lib/errors.js';
import { redact } from '../../lib/untrusted.js';

export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The API key may go to this URL: https, or plain http to a loopback host. */
export function keyAllowedFor(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}

/** Largest answer the action reads (control plane and agent server). */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** The request an answer is for, as messages name it. */
type Asked = { method: string; url: URL; describe: string };

/** An answer the action refuses (a redirect, or one over the size cap): never retried. */
export class RefusedAnswerError extends ApiError {
  override name = 'RefusedAnswerError';
}

/**
 * A redirect is never followed (it could carry the API key to another host): a 3xx (but 304, a
 * cache answer) fails at once, not retried, naming the target's host, never its path, query or
 * credentials.
 */
export async function refuseRedirect(res: Response, req: Asked): Promise<void> {
  if (res.status < 300 || res.status >= 400 || res.status === 304) return;
  await res.body?.cancel().catch(() => undefined);
  const location = res.headers.get('location')?.trim();
  let target = 'no Location given';
  try {
    if (location) target = `to ${new URL(location, req.url).host || 'an address without a host'}`;
  } catch {
    target = 'to an invalid Location';
  }
  throw new RefusedAnswerError(
    redact(
      `${req.describe} answered HTTP ${res.status}, a redirect (${target}), which the action does ` +
        'not follow: the API key must not travel to another address. Check the URL (scheme, ' +
        'host, path prefix, trailing slash) and set it to the final address.',
    ),
    { status: res.status, method: req.method, path: req.url.pathname, title: 'Redirect refused' },
  );
}

function tooLarge(status: number, req: Asked): ApiError {
  return new RefusedAnswerError(
    redact(
      `${req.describe}: answer too large (over ${MAX_ANSWER_BYTES / 1024 / 1024} MiB); the action ` +
        'stopped reading it. Check the URL points at the API (not a file or a proxy page).',
    ),
    { status, method: req.method, path: req.url.pathname, title: 'Answer too large' },
  );
}

/**
 * Reads a body as UTF-8 text, counting bytes as they arrive: past `MAX_ANSWER_BYTES` the read
 * is cancelled and an "answer too large" error thrown, so memory stays bounded whatever the
 * server sends (a `Content-Length` over the cap fails before reading).
 */
export async function readCapped(res: Response, req: Asked): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge(res.status, req);
  }
  return new Response(cappedBody(res, req)).text();
}

/** The body with the same cap, passed through as it is read (a run's events). */
export function cappedBody(res: Response, req: Asked): ReadableStream<Uint8Array> | null {
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
