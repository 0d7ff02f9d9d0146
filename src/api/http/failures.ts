/** What a failed `fetch` means: certainly not sent, outcome unknown, or fatal (TLS, DNS). */
import { proxyConfigured } from './proxy.js';

/** Codes that prove the request never reached the server, and what each says happened. */
const NOT_SENT: Record<string, (url: URL) => string> = {
  ECONNREFUSED: (url) => `connection to ${url.host} refused`,
  ENOTFOUND: (url) => `host name ${url.hostname} not found (DNS)`,
  EAI_AGAIN: (url) => `DNS lookup of ${url.hostname} failed`,
  UND_ERR_CONNECT_TIMEOUT: (url) => `could not connect to ${url.host} in time`,
};

const TLS_CODE =
  /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_)|^(DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)$/;

export interface Failure {
  kind: 'not-sent' | 'unknown' | 'fatal';
  /** Short: `ECONNRESET`, `timeout`, `CERT_HAS_EXPIRED`. */
  code: string;
  /** For messages: what happened, in words. */
  text: string;
  cause: unknown;
}

/** The `code` of the error, of its `cause`s and of the `errors` it aggregates, outermost first. */
function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number) => {
    if (depth > 6 || e === null || typeof e !== 'object' || seen.has(e)) return;
    seen.add(e);
    const { code, errors, cause } = e as { code?: unknown; errors?: unknown; cause?: unknown };
    if (typeof code === 'string' && code !== '') codes.push(code);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
    visit(cause, depth + 1);
  };
  visit(err, 0);
  return codes;
}

export function classify(err: unknown, url: URL): Failure {
  const codes = errorCodes(err);
  const failure = (kind: Failure['kind'], code: string, text: string): Failure => ({
    kind,
    code,
    text,
    cause: err,
  });
  const notSent = codes.find((c) => Object.hasOwn(NOT_SENT, c));
  if (notSent !== undefined) return failure('not-sent', notSent, NOT_SENT[notSent]!(url));
  const tls = codes.find((c) => TLS_CODE.test(c));
  if (tls !== undefined) {
    return failure('fatal', tls, `TLS certificate of ${url.host} not accepted (${tls})`);
  }
  if (codes.includes('UND_ERR_INVALID_ARG')) {
    const proxy = proxyConfigured()
      ? '; the proxy set in HTTPS_PROXY/HTTP_PROXY may be the cause'
      : '';
    const text = `the HTTP client refused the request (UND_ERR_INVALID_ARG)${proxy}`;
    return failure('fatal', 'UND_ERR_INVALID_ARG', text);
  }
  if (codes.includes('ERR_INVALID_URL') || err instanceof RangeError) {
    return failure('fatal', codes[0] ?? 'invalid request', 'invalid request');
  }
  const code = codes[0] ?? (err instanceof Error ? err.name : 'network error');
  return failure('unknown', code, `connection to ${url.host} failed (${code})`);
}
