/**
 * A proxy from `HTTPS_PROXY`/`HTTP_PROXY` (with `NO_PROXY`) through `@actions/http-client`,
 * which is only loaded when such a variable is set.
 */

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
type HttpClientModule = typeof import('@actions/http-client');
let httpClientModule: Promise<HttpClientModule> | undefined;
const dispatchers = new Map<string, unknown>();

export function proxyConfigured(): boolean {
  return PROXY_VARIABLES.some((name) => (process.env[name] ?? '') !== '');
}

/** The proxy dispatcher for this URL, or undefined (no proxy set, or `NO_PROXY` matches). */
export async function dispatcherFor(url: URL): Promise<unknown> {
  if (!proxyConfigured()) return undefined;
  httpClientModule ??= import('@actions/http-client');
  const mod = await httpClientModule;
  const proxy = mod.getProxyUrl(url.href);
  if (!proxy) return undefined;
  let dispatcher = dispatchers.get(proxy);
  if (dispatcher === undefined) {
    dispatcher = new mod.HttpClient('langgraph-deploy-action').getAgentDispatcher(url.href);
    if (dispatcher !== undefined) dispatchers.set(proxy, dispatcher);
  }
  return dispatcher;
}
