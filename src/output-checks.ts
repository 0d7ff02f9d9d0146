/**
 * Outputs built from answers are checked before they are written: a later step may paste
 * them into a shell (`run: echo "${{ steps.deploy.outputs.url }}"`), so a value the platform
 * sent must have the shape its name promises, or it is not written (a warning says why).
 */

/** The platform's deployment name rule (the `name` input's). */
const NAME = /^[a-z0-9-]+$/;
const HEX = /^[0-9a-f]{7,64}$/i;
/** Printable ASCII without whitespace, quotes, backquotes, `$` or backslashes. */
const ID = /^[A-Za-z0-9._:@/+=-]{1,200}$/;
const STATUS = /^[A-Za-z0-9_-]{1,64}$/;
const BOOLEAN = /^(true|false)$/;

/**
 * Why `value` cannot be the output `name`, or undefined when it can. Outputs this module does
 * not know are the action's own and pass.
 */
export function outputProblem(name: string, value: string): string | undefined {
  switch (name) {
    case 'name':
      return NAME.test(value)
        ? undefined
        : 'it is not a deployment name (lowercase letters, digits and hyphens)';
    case 'commit-sha':
      return HEX.test(value) ? undefined : 'it is not a hexadecimal commit SHA';
    case 'deployment-id':
    case 'revision-id':
      return ID.test(value) ? undefined : 'it is not an ID (printable, without whitespace)';
    case 'status':
      return STATUS.test(value) ? undefined : 'it is not a status (letters, digits, _ and -)';
    case 'created':
    case 'skipped-build':
      return BOOLEAN.test(value) ? undefined : 'it is not true or false';
    case 'url':
    case 'ui-url':
      return urlProblem(value);
    default:
      return undefined;
  }
}

/**
 * A URL output must be an `http(s)` URL without credentials, written exactly as the URL
 * standard serializes it (so quotes, spaces and other shell-active characters are encoded).
 */
export function urlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'it is not a URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'it is not an http(s) URL';
  if (url.username !== '' || url.password !== '') return 'it holds credentials';
  const serialized = url.href;
  // `new URL` adds a slash to a bare origin; the action trims trailing slashes.
  if (serialized !== value && serialized.replace(/\/+$/, '') !== value) {
    return 'it is not in the URL standard’s serialized form (characters a shell could read)';
  }
  if (/["'`$\\\s<>|;&(){}]/.test(value)) return 'it holds characters a shell could read';
  return undefined;
}

/**
 * A URL from an answer without its `user:password@` part, and the values to mask (the
 * password, and `user:password`, encoded and decoded); the URL as given when it has none.
 */
export function withoutCredentials(value: string): { url: string; credentials: string[] } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { url: value, credentials: [] };
  }
  if (url.username === '' && url.password === '') return { url: value, credentials: [] };
  const forms =
    url.password === '' ? [url.username] : [url.password, `${url.username}:${url.password}`];
  const credentials = new Set<string>();
  for (const form of forms) {
    if (form === '') continue;
    credentials.add(form);
    try {
      credentials.add(decodeURIComponent(form));
    } catch {
      // not percent-encoded text: the encoded form is masked
    }
  }
  url.username = '';
  url.password = '';
  const clean = url.href;
  return {
    url: /\/$/.test(value) ? clean : clean.replace(/\/$/, ''),
    credentials: [...credentials],
  };
}
