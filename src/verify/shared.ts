/**
 * What every check of the agent server shares: its context, its error, whether the API key
 * may go to the URL (https, or http on loopback), and short wordings of what went wrong.
 */
import { ActionError } from '../lib/errors.js';
import { keyAllowedFor } from '../api/http/key-policy.js';
import { OutcomeUnknownError, type HttpContext } from '../api/http/request.js';
import type { Logger } from '../lib/untrusted.js';

/** A check failed; the message is written for the workflow's author. */
export class CheckError extends ActionError {
  constructor(message: string, title: string) {
    super(message, title);
    this.name = 'CheckError';
  }
}

/** What the checks take from the run: its HTTP settings, logger and API key (a `RunContext` is one). */
export interface VerifyContext {
  http: HttpContext;
  logger: Logger;
  config: { apiKey: string };
}

/**
 * Why the checks cannot run against this URL (no URL, not a URL, or plain http to a
 * non-loopback host, where the API key must not go), or undefined when they can.
 */
export function skipReason(url: string | undefined): string | undefined {
  if (url === undefined || url.trim() === '') {
    return 'The deployment has no agent server URL (source_config.custom_url)';
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The agent server URL "${url}" is not a valid URL`;
  }
  if (!keyAllowedFor(parsed)) {
    return (
      `The agent server URL ${parsed.origin} is plain http on a non-loopback host, where ` +
      'the API key is never sent'
    );
  }
  return undefined;
}

export function skipAdvice(url: string | undefined): string {
  if (url === undefined || url.trim() === '') {
    return 'For `source: external_docker`, set `custom-url` to the address the agent server is reached at.';
  }
  return 'Serve the agent server over https.';
}

/** Refuses (before any request) a URL the key may not go to. */
export function requireCheckableUrl(url: string, check: string): void {
  const reason = skipReason(url);
  if (reason !== undefined) {
    throw new CheckError(
      `${reason}: the ${check} cannot run. ${skipAdvice(url)}`,
      `${check[0]?.toUpperCase()}${check.slice(1)} not run`,
    );
  }
}

export function baseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

export { formatSeconds as seconds } from '../lib/text.js';

/** A short name for what went wrong: `ECONNREFUSED`, `timeout`, `HTTP 503`, … */
export function shortError(error: unknown): string {
  if (error instanceof OutcomeUnknownError) return error.reason;
  const seen = new Set<unknown>();
  let e: unknown = error;
  for (let depth = 0; depth < 6 && e !== null && typeof e === 'object' && !seen.has(e); depth++) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    e = (e as { cause?: unknown }).cause;
  }
  if (typeof error === 'object' && error !== null) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number') return `HTTP ${status}`;
  }
  return error instanceof Error ? error.name : 'error';
}
