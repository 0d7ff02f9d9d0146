/**
 * A `fetch` for `@langchain/langgraph-sdk` (whose own retries must be off) on `request()`: the
 * same retries, deadline, cancellation, caps and key rule. GET/DELETE (and HEAD/OPTIONS) are
 * retried as `idempotent`, POST/PATCH/PUT as `unsafe`, and any path ending in `/stream`
 * (`/runs/stream`, a run's `/stream`) is sent once with its body passed through untouched. The
 * key headers (`X-Api-Key`, `Authorization`) are dropped for URLs `allowKeyFor` refuses
 * (default `keyAllowedFor`).
 */
import { keyAllowedFor } from './key-policy.js';
import { request, type HttpContext, type RetryMode } from './request.js';

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
    const path = url.pathname.replace(/\/+$/, '');
    const stream = path.endsWith('/stream');
    // `POST …/search` only reads (assistants, threads): safe to retry like a GET.
    const retry: RetryMode = stream
      ? 'never'
      : ['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(method) || path.endsWith('/search')
        ? 'idempotent'
        : 'unsafe';
    const res = await request(ctx, {
      method,
      url,
      headers,
      rawBody: body,
      retry,
      describe: `${method} ${url.origin}${url.pathname}`,
      signal: init.signal ?? asRequest?.signal ?? undefined,
      stream,
    });
    const answerHeaders = new Headers(res.headers);
    // The body is already decoded.
    answerHeaders.delete('content-encoding');
    answerHeaders.delete('content-length');
    const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
    return new Response(nullBody ? null : (res.stream ?? res.text), {
      status: res.status,
      headers: answerHeaders,
    });
  };
  return resilientFetch as typeof fetch;
}
