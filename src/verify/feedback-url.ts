/**
 * Where a conversation test's verdict may be sent (INTERFACE v1.2; the README's "Verdicts in
 * LangSmith"): the agent stream names the URL, so only a pre-signed token URL on the LangSmith
 * API host of this run's settings (a self-hosted install serves both) gets a request.
 */
import { keyAllowedFor } from '../api/http/key-policy.js';
import type { Region } from '../inputs/config.js';
import { REGION_CONTROL_PLANE_URLS } from '../inputs/validate.js';

/**
 * The host (with its port, when it has one) feedback may go to for this run's settings (a
 * validated `control-plane-url`). A region's LangSmith API host is its control plane's with
 * `host` for `smith`: `eu.api.host.langchain.com` → `eu.api.smith.langchain.com`.
 */
export function feedbackHostFor(controlPlaneUrl: string, region: Region): string {
  const regional = controlPlaneUrl === REGION_CONTROL_PLANE_URLS[region];
  const { host } = new URL(controlPlaneUrl);
  return regional ? host.replace('.host.', '.smith.') : host;
}

const TOKEN_PATH = /^\/api\/v1\/feedback\/tokens\/[A-Za-z0-9_-]{1,100}$/;

/** The URL to POST a verdict to, or why there is none (a phrase for the one warning). */
export function feedbackTarget(
  raw: string,
  allowedHost: string | undefined,
): { ok: true; url: URL } | { ok: false; problem: string } {
  if (!URL.canParse(raw)) return { ok: false, problem: 'the feedback URL is not a URL' };
  const url = new URL(raw);
  const refused = (
    [
      [allowedHost === undefined, 'no LangSmith API host is known'],
      [!keyAllowedFor(url), 'not https'],
      [url.host !== allowedHost, `not the LangSmith API host ${allowedHost}`],
      [url.username !== '' || url.password !== '', 'it holds credentials'],
      [
        !TOKEN_PATH.test(url.pathname) || url.search !== '' || url.hash !== '',
        'not a /api/v1/feedback/tokens/<id> URL',
      ],
    ] as const
  ).find(([refuses]) => refuses)?.[1];
  return refused === undefined
    ? { ok: true, url }
    : {
        ok: false,
        problem: `a feedback URL on ${url.protocol}//${url.host} was not called (${refused})`,
      };
}
