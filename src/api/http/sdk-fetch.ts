/**
 * A `fetch` for `@langchain/langgraph-sdk` on the action's HTTP layer: the same retries,
 * deadline, cancellation, caps and key rule as `request()`.
 */
import { DeadlineError } from '../../lib/errors.js';
import { redact } from '../../lib/untrusted.js';
import { cappedStream, RefusedAnswerError } from './limits.js';
import { classify } from './failures.js';
import { keyAllowedFor } from './key-policy.js';
import {
  fetchOnce,
  networkError,
  OutcomeUnknownError,
  send,
  throwIfAborted,
  type HttpContext,
  type HttpResponse,
  type RetryMode,
  type SendOptions,
} from './request.js';

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
      const once: SendOptions = {
        method,
        url,
        headers,
        ...(body !== undefined ? { body } : {}),
        retry: 'never',
        describe,
        ...(callerSignal ? { signal: callerSignal } : {}),
      };
      let res: Response;
      try {
        res = await fetchOnce(ctx, once, deadlineSignal);
      } catch (err) {
        if (err instanceof RefusedAnswerError) throw err;
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
        throw networkError(once, failure, 1);
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
