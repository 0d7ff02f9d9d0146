/**
 * The runner's proxy, the one look-up for every request the action makes: `@actions/http-client`
 * reads `HTTPS_PROXY`/`HTTP_PROXY` (upper or lower case) and `NO_PROXY` for a URL, and builds
 * the undici dispatcher (`fetch`: the control plane, the agent server) or the Node agent
 * (`node:https`: the upload PUT) that goes through it. `@actions/github` does the same for
 * the GitHub API.
 */
import type { Agent } from 'node:http';
import { getProxyUrl, HttpClient } from '@actions/http-client';

/** One `fetch` dispatcher per proxy URL, reused by every request through it. */
const dispatchers = new Map<string, unknown>();

/** Whether requests to this URL go through a proxy (failure messages name it as a possible cause). */
export function proxied(url: URL): boolean {
  return getProxyUrl(url.href) !== '';
}

/** The proxy dispatcher for `fetch` to this URL, or undefined (no proxy, or `NO_PROXY`). */
export async function dispatcherFor(url: URL): Promise<unknown> {
  const proxy = getProxyUrl(url.href);
  if (!proxy) return undefined;
  if (!dispatchers.has(proxy))
    dispatchers.set(proxy, new HttpClient().getAgentDispatcher(url.href));
  return dispatchers.get(proxy);
}

export function agentFor(url: URL): Agent | undefined {
  return proxied(url) ? (new HttpClient().getAgent(url.href) as Agent) : undefined;
}
