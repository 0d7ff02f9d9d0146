/** What a failed `fetch` means: certainly not sent, outcome unknown, or fatal (TLS, DNS). */
import { proxyConfigured } from './proxy.js';

/** Codes that prove the request never reached the server. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export type FailureKind = 'not-sent' | 'unknown' | 'fatal';

export interface Failure {
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

export function classify(err: unknown, url: URL): Failure {
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
