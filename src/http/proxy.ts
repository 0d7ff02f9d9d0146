/**
 * The runner's proxy, the one look-up for every request the action makes: `@actions/http-client`
 * reads `HTTPS_PROXY`/`HTTP_PROXY` (upper or lower case) and `NO_PROXY` for a URL, and builds
 * the undici dispatcher (`fetch`: the control plane, the agent server) or the Node agent
 * (`node:https`: the upload PUT) that goes through it. `@actions/github` does the same for
 * the GitHub API.
 */
import type { Agent } from 'node:http';
import { getProxyUrl, HttpClient } from '@actions/http-client';

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
/** One client per proxy URL: each keeps its own dispatcher and agent for reuse. */
const clients = new Map<string, HttpClient>();

/** Whether a proxy variable is set at all (failure messages name it as a possible cause). */
export function proxyConfigured(): boolean {
  return PROXY_VARIABLES.some((name) => (process.env[name] ?? '') !== '');
}

/** The client for this URL's proxy, or undefined (no proxy set, or `NO_PROXY` matches). */
function proxyClientFor(url: URL): HttpClient | undefined {
  const proxy = getProxyUrl(url.href);
  if (!proxy) return undefined;
  let client = clients.get(proxy);
  if (client === undefined) {
    client = new HttpClient('langgraph-deploy-action');
    clients.set(proxy, client);
  }
  return client;
}

/** The proxy dispatcher for `fetch` to this URL, or undefined. */
export async function dispatcherFor(url: URL): Promise<unknown> {
  return proxyClientFor(url)?.getAgentDispatcher(url.href);
}

/** The proxy agent for a `node:https` request to this URL, or undefined. */
export function agentFor(url: URL): Agent | undefined {
  return proxyClientFor(url)?.getAgent(url.href) as Agent | undefined;
}
