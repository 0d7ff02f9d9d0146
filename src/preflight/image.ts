/**
 * `image-uri` against the Docker reference grammar (distribution/reference):
 *
 *   reference  := name [ ":" tag ] [ "@" digest ]
 *   name       := [ domain "/" ] path-component ( "/" path-component )*
 *   domain     := host [ ":" port ]        (the first component, when it has "." or ":",
 *                                           is "localhost", or has capitals)
 *   path-component := [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
 *   tag        := [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
 *   digest     := algorithm ":" hex        (sha256: 64 hex digits, sha512: 128)
 *
 * Decision: a reference with neither tag nor digest is valid but gets a warning — the
 * runtime pulls `:latest`, so what runs can change without a new revision.
 */
import type { Finding } from './document.js';

const KEY = 'image-uri';
const EXAMPLE = 'ghcr.io/my-org/my-agent:1.2.0 or ghcr.io/my-org/my-agent@sha256:<64 hex digits>';
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
/** host[:port], the host a bracketed IPv6 address or dot-separated labels. */
const DOMAIN = new RegExp(`^(?:\\[[0-9A-Fa-f:.]+\\]|${LABEL}(?:\\.${LABEL})*)(?::\\d+)?$`);
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^([a-z0-9]+(?:[+._-][a-z0-9]+)*):([A-Za-z0-9=_-]+)$/;
const DIGEST_HEX: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

function problem(imageUri: string): string | undefined {
  if (imageUri.trim() === '')
    return `${KEY} is empty: set it to the image to deploy, e.g. ${EXAMPLE}.`;
  if (/\s/.test(imageUri))
    return `${KEY} "${imageUri}" contains whitespace: give one image reference, e.g. ${EXAMPLE}.`;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(imageUri))
    return `${KEY} "${imageUri}" starts with a URL scheme: give the image reference without it, e.g. ${EXAMPLE}.`;
  let name = imageUri;
  const at = name.indexOf('@');
  if (at >= 0) {
    const digest = name.slice(at + 1);
    name = name.slice(0, at);
    const [, algorithm = '', hex = ''] = DIGEST.exec(digest) ?? [];
    const length = DIGEST_HEX[algorithm]; // of the algorithms known here; the others: any
    if (!algorithm || (length !== undefined && !new RegExp(`^[a-f0-9]{${length}}$`).test(hex)))
      return `${KEY} "${imageUri}" has an invalid digest "${digest}": write it as <algorithm>:<hex>, e.g. sha256: followed by 64 lowercase hex digits.`;
  }
  const colon = name.lastIndexOf(':');
  if (colon > name.lastIndexOf('/')) {
    const tag = name.slice(colon + 1);
    name = name.slice(0, colon);
    if (!TAG.test(tag))
      return `${KEY} "${imageUri}" has an invalid tag "${tag}": a tag is 1 to 128 letters, digits, "_", "." or "-", not starting with "." or "-".`;
  }
  if (name.length > 255) return `${KEY} "${imageUri}" has a name longer than 255 characters.`;
  const components = name.split('/');
  const first = components[0] ?? '';
  if (
    components.length > 1 &&
    (/[.:]/.test(first) || first === 'localhost' || first !== first.toLowerCase())
  ) {
    if (!DOMAIN.test(first))
      return `${KEY} "${imageUri}" has an invalid registry "${first}": write host[:port], e.g. ghcr.io or registry.example.com:5000.`;
    components.shift();
  }
  for (const component of components) {
    if (PATH_COMPONENT.test(component)) continue;
    if (PATH_COMPONENT.test(component.toLowerCase()))
      return `${KEY} "${imageUri}": the repository name must be lowercase ("${component}" → "${component.toLowerCase()}").`;
    return `${KEY} "${imageUri}" has an invalid repository name part "${component}": use lowercase letters and digits, separated by ".", "_", "__" or "-" (e.g. ${EXAMPLE}).`;
  }
  return undefined;
}

/** Checks `image-uri` before the create/update call (pure; the caller annotates). */
export function checkImageUri(imageUri: string): Finding[] {
  const error = problem(imageUri);
  if (error) return [{ level: 'error', key: KEY, message: error }];
  const name = imageUri.split('@')[0] ?? imageUri;
  if (imageUri.includes('@') || name.lastIndexOf(':') > name.lastIndexOf('/')) return [];
  const message = `${KEY} "${imageUri}" has no tag or digest, so the "latest" tag is pulled and what runs can change without a new revision. Pin a version tag or a digest, e.g. ${imageUri}:1.2.0 or ${imageUri}@sha256:<digest>.`;
  return [{ level: 'warning', key: KEY, message }];
}
