/** The rule for where the API key may go: https, or plain http to a loopback host. */

export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The API key may go to this URL: https, or plain http to a loopback host. */
export function keyAllowedFor(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}
