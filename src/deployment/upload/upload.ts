/**
 * The PUT of the archive to the signed URL the control plane issued: a streamed file body with
 * exactly `Content-Type`, `Content-Length` and `X-Goog-Content-Length-Range`, and no API key
 * or other credential (the URL is signed). Retried on 5xx, 408, 429 and connection failures
 * within the run's deadline (at most 5 attempts); an expired or refused URL is an error at
 * once. On node:http(s) rather than fetch, which would add headers of its own; through the
 * runner's proxy (`HTTPS_PROXY`) when one is set.
 */
import { createReadStream } from 'node:fs';
import { request as httpRequest, type Agent, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { CancelledError, DeadlineError } from '../../lib/errors.js';
import { agentFor } from '../../api/http/proxy.js';
import type { HttpContext } from '../../api/http/request.js';
import {
  backoffDelay,
  parseRetryAfter,
  retrying,
  type Attempted,
  type RetryLoop,
} from '../../api/http/retry-policy.js';
import { inert, setSecret } from '../../lib/untrusted.js';
import { MAX_BYTES } from './archive.js';

/** The run's HTTP settings (backoff, attempts) and how long a connection may stay idle. */
export interface PutContext extends HttpContext {
  /** No byte for this long on a connection: the attempt failed. Default 60 s. */
  idleTimeoutMs?: number;
}

export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

/** The three headers, and no other, that the signed URL was issued for. */
export function uploadHeaders(bytes: number): Record<string, string> {
  return {
    'Content-Type': 'application/gzip',
    'Content-Length': String(bytes),
    'X-Goog-Content-Length-Range': `0,${MAX_BYTES}`,
  };
}

type Attempt =
  | { kind: 'ok' }
  | { kind: 'retry'; reason: string; retryAfterMs?: number }
  | { kind: 'refused'; status: number; code?: string };

/** Uploads `file` (`bytes` long) to the signed `url`. Throws `UploadError` with advice. */
export async function putArchive(
  ctx: PutContext,
  url: string,
  file: string,
  bytes: number,
): Promise<void> {
  // The signature is a credential while it is valid: never printed.
  setSecret(url);
  const target = new URL(url);
  if (target.search.length > 1) setSecret(target.search.slice(1));
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    throw new UploadError(
      `the upload URL the control plane issued is not http(s) (${inert(target.protocol, 20)}).`,
    );
  }
  const host = inert(target.host, 200);
  const agent = agentFor(target);
  const maxAttempts = ctx.maxAttempts ?? 5;
  const loop: RetryLoop = {
    clock: ctx.clock,
    deadline: ctx.deadline,
    signal: ctx.signal,
    backoff: (retry) => backoffDelay(retry, ctx),
    before: (_, last) => {
      if (ctx.signal?.aborted) throw new CancelledError('The run was cancelled during the upload.');
      if (!ctx.deadline.passed()) return;
      throw new DeadlineError(
        `The \`timeout\` ran out before the upload to ${host} finished` +
          `${last ? ` (last: ${last})` : ''}. Raise \`timeout\`.`,
      );
    },
    tooLate: (last) =>
      new DeadlineError(
        `The \`timeout\` would run out before the upload to ${host} could be retried ` +
          `(last: ${last}). Re-run the job later, or raise \`timeout\`.`,
      ),
    log: (last, _, attempt) =>
      ctx.logger.debug(
        `Retrying the upload after ${last} (attempt ${attempt + 1} of ${maxAttempts})`,
      ),
  };
  await retrying(loop, async (attempt): Promise<Attempted<void>> => {
    const result = await putOnce(ctx, target, file, bytes, agent);
    if (result.kind === 'ok') return { done: undefined };
    if (result.kind === 'refused') {
      const code = result.code ? ` ${inert(result.code, 60)}` : '';
      const expired = /expired/i.test(result.code ?? '');
      throw new UploadError(
        `${host} refused the upload with HTTP ${result.status}${code}. ` +
          (expired || result.status === 400 || result.status === 403
            ? 'The signed upload URL has expired or does not accept this request; it is issued ' +
              'for one upload shortly before it, so re-run the job. If it persists, a proxy may ' +
              'be changing the request.'
            : 'Re-run the job; if it persists, report it with the status above.'),
      );
    }
    if (attempt >= maxAttempts) {
      throw new UploadError(
        `the upload to ${host} failed after ${attempt} attempts (last: ${result.reason}). Check ` +
          "the runner's network access to it (proxy: HTTPS_PROXY / NO_PROXY), then re-run the job.",
      );
    }
    return { again: result.reason, afterMs: result.retryAfterMs };
  });
}

function putOnce(
  ctx: PutContext,
  target: URL,
  file: string,
  bytes: number,
  agent: Agent | undefined,
): Promise<Attempt> {
  return new Promise<Attempt>((resolve, reject) => {
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (a: Attempt | Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadlineTimer);
      ctx.signal?.removeEventListener('abort', onAbort);
      source.destroy();
      if (a instanceof Error) reject(a);
      else resolve(a);
    };
    const req = send(target, {
      method: 'PUT',
      headers: uploadHeaders(bytes),
      // No pooled keep-alive socket: it would hold the process open after the run.
      agent: agent ?? false,
    });
    const source = createReadStream(file);
    const onAbort = () => {
      req.destroy();
      finish(new CancelledError('The run was cancelled during the upload.'));
    };
    ctx.signal?.addEventListener('abort', onAbort, { once: true });
    const deadlineTimer = setTimeout(
      () => {
        req.destroy();
        finish({ kind: 'retry', reason: 'timeout' });
      },
      Math.max(1, ctx.deadline.remainingMs()),
    );
    req.setTimeout(ctx.idleTimeoutMs ?? 60_000, () => {
      req.destroy();
      finish({ kind: 'retry', reason: 'no progress (timeout)' });
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      finish({ kind: 'retry', reason: error.code ?? error.message });
    });
    source.on('error', (error: NodeJS.ErrnoException) => {
      req.destroy();
      finish(new UploadError(`the archive could not be read (${error.code ?? error.message}).`));
    });
    req.on('response', (res: IncomingMessage) => {
      void readSome(res).then((body) => finish(classify(res, body, ctx.clock.now())));
    });
    source.pipe(req);
  });
}

function classify(res: IncomingMessage, body: string, now: number): Attempt {
  const status = res.statusCode ?? 0;
  if (status >= 200 && status < 300) return { kind: 'ok' };
  if (status >= 500 || status === 408 || status === 429) {
    const retryAfter = parseRetryAfter(headerOf(res, 'retry-after') ?? null, now);
    return {
      kind: 'retry',
      reason: `HTTP ${status}`,
      ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
    };
  }
  // Storage answers carry an XML or JSON error code (`ExpiredToken`, `AccessDenied`, …).
  const code =
    /<Code>([A-Za-z]{1,60})<\/Code>/.exec(body)?.[1] ??
    /"(?:code|error)"\s*:\s*"([A-Za-z]{1,60})"/.exec(body)?.[1];
  if (status >= 300 && status < 400)
    return { kind: 'refused', status, code: code ?? 'redirect (not followed)' };
  return { kind: 'refused', status, ...(code ? { code } : {}) };
}

/** The first 4 KiB of an answer (enough for an error code), then the rest is discarded. */
async function readSome(res: IncomingMessage): Promise<string> {
  let text = '';
  try {
    for await (const chunk of res) {
      if (text.length < 4096) text += (chunk as Buffer).toString('utf8');
    }
  } catch {
    // a reset after the status line: the status decides
  }
  return text.slice(0, 4096);
}

function headerOf(res: IncomingMessage, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
