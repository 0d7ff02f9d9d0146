/** The rule for where the API key may go: https, or plain http to a loopback host. */
import { ActionError } from '../../lib/errors.js';
import { redact } from '../../lib/untrusted.js';

export const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The API key may go to this URL: https, or plain http to a loopback host. */
export function keyAllowedFor(url: URL): boolean {
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
}

/**
 * The control-plane URL, refused before any request when it is not a URL or the key may not
 * go to it (`control-plane-url`).
 */
export function checkControlPlaneUrl(baseUrl: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(baseUrl);
  } catch {
    throw new ActionError(
      redact(`The control-plane URL "${baseUrl}" is not a valid URL. Check \`control-plane-url\`.`),
      'Invalid input',
    );
  }
  if (!keyAllowedFor(parsed)) {
    throw new ActionError(
      redact(
        `The control-plane URL ${parsed.origin} uses plain http to a host that is not loopback: ` +
          'the API key would cross the network in clear text. Use an https URL in `control-plane-url`.',
      ),
      'Invalid input',
    );
  }
  return parsed;
}
