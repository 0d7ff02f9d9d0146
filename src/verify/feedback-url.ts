/**
 * Where a conversation test's verdict may be sent (INTERFACE v1.2): only to a pre-signed URL
 * of the form `https://<host>/api/v1/feedback/tokens/<id>`, where `<host>` is the LangSmith API
 * host of the configured region, or the control plane's own host when `control-plane-url` is
 * set (a self-hosted install serves both); plain `http` only for a loopback host. The agent
 * stream names the URL, so anything else (another host, path, credentials, a query) gets no
 * request.
 */
import { LOOPBACK_HOSTS } from '../api/http/limits.js';
import type { Region } from '../inputs/config.js';
import { REGION_CONTROL_PLANE_URLS } from '../inputs/validate.js';

/** The LangSmith API host of each region (where its feedback tokens live). */
const REGION_API_HOSTS: Readonly<Record<Region, string>> = {
  us: 'api.smith.langchain.com',
  eu: 'eu.api.smith.langchain.com',
  apac: 'apac.api.smith.langchain.com',
  'aws-us': 'aws.api.smith.langchain.com',
};

/** The host (with its port, when it has one) feedback may go to for this run's settings. */
export function feedbackHostFor(controlPlaneUrl: string, region: Region): string {
  const regional = REGION_CONTROL_PLANE_URLS[region];
  if (controlPlaneUrl.replace(/\/+$/, '') === regional) return REGION_API_HOSTS[region];
  try {
    return new URL(controlPlaneUrl).host.toLowerCase();
  } catch {
    return REGION_API_HOSTS[region];
  }
}

const TOKEN_PATH = /^\/api\/v1\/feedback\/tokens\/[A-Za-z0-9_-]{1,100}$/;

/** Why feedback may not be sent to `url`, or undefined when it may. */
export function feedbackUrlProblem(url: URL, allowedHost: string): string | undefined {
  const loopback = LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    return 'not https';
  }
  if (url.host.toLowerCase() !== allowedHost) return `not the LangSmith API host ${allowedHost}`;
  if (url.username !== '' || url.password !== '') return 'it holds credentials';
  if (!TOKEN_PATH.test(url.pathname) || url.search !== '' || url.hash !== '') {
    return 'not a /api/v1/feedback/tokens/<id> URL';
  }
  return undefined;
}

/** The URL to POST a verdict to, or why there is none (a phrase for the one warning). */
export function feedbackTarget(
  raw: string,
  allowedHost: string | undefined,
): { ok: true; url: URL } | { ok: false; problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, problem: 'the feedback URL is not a URL' };
  }
  const refused =
    allowedHost === undefined
      ? 'no LangSmith API host is known'
      : feedbackUrlProblem(url, allowedHost);
  return refused === undefined
    ? { ok: true, url }
    : {
        ok: false,
        problem: `a feedback URL on ${url.protocol}//${url.host} was not called (${refused})`,
      };
}
