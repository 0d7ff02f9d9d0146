/**
 * The platform's image registry (`source: internal_docker`): reading an image's manifest over
 * the OCI distribution API, and the docker CLI that logs the runner in and out.
 *
 * Reads go through `request()` (its timeout, retries, cancellation and size cap) with a push
 * token of `POST /v2/deployments/{id}/push-token`: `GET /v2/` → 401 with a `Bearer` challenge
 * → the token exchange at its realm (https, or http on loopback), the push token as the
 * password of user `oauth2accesstoken` (Basic auth) → `GET /v2/<name>/manifests/<ref>`. A
 * `Basic` challenge takes that Basic header directly. A single manifest's platform is in its
 * config blob; the one redirect followed anywhere is that blob's (registries answer it with a
 * signed storage address), to an https (or loopback) address and without credentials. The
 * registry is reached over https, or http when its host is loopback (as docker allows).
 * Everything the registry says is untrusted: cut, masked and made inert in messages.
 */
import { execFile, type ExecFileException } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { ActionError, ApiError } from '../lib/errors.js';
import { inert, redact, setSecret } from '../lib/untrusted.js';
import { parseJson } from './answers.js';
import { keyAllowedFor, LOOPBACK_HOSTS, request } from './http/request.js';
import type { HttpContext, HttpResponse } from './http/request.js';

export const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;
/** An image index or manifest list first, then the single manifests (OCI and Docker). */
const ACCEPT = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

const Platform = z.looseObject({ os: z.string(), architecture: z.string() });
const ManifestSchema = z.looseObject({
  manifests: z.optional(z.array(z.looseObject({ platform: z.optional(Platform) }))),
  config: z.optional(z.looseObject({ digest: z.string() })),
});
const TokenSchema = z
  .looseObject({ token: z.optional(z.string()), access_token: z.optional(z.string()) })
  .transform((answer) => answer.token || answer.access_token);

/** `registry_url` without a scheme or trailing slash: where the deployment's images go. */
export function registryPath(registryUrl: string): string {
  return registryUrl.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '');
}

/** The host `docker login` takes: the first path segment of `registry_url`. */
export function registryHost(registryUrl: string): string {
  return registryPath(registryUrl).split('/')[0]!;
}

/** An image reference as `<host>/<name>` and the tag or digest it names (`latest` if none). */
export function splitImage(uri: string) {
  const [named = '', digest] = uri.split('@');
  const colon = named.lastIndexOf(':');
  const tagged = colon > named.lastIndexOf('/');
  const repository = tagged ? named.slice(0, colon) : named;
  const slash = repository.indexOf('/');
  const reference = digest ?? (tagged ? named.slice(colon + 1) : 'latest');
  const [host, name] = [repository.slice(0, slash), repository.slice(slash + 1)];
  return { host, name, reference, byDigest: digest !== undefined };
}

/**
 * The image `ref` names, read with `pushToken`: its digest and platforms (`os/architecture`);
 * `undefined` when the registry does not know it (404). The digest is the SHA-256 of the
 * manifest read.
 */
export async function readImage(
  http: HttpContext,
  ref: ReturnType<typeof splitImage>,
  pushToken: string,
): Promise<{ digest: string; platforms: string[] } | undefined> {
  const scheme = LOOPBACK_HOSTS.has(new URL(`http://${ref.host}`).hostname) ? 'http' : 'https';
  const base = `${scheme}://${ref.host}`;
  const get = (url: string, headers: Record<string, string>, describe: string) =>
    request(http, { method: 'GET', url, headers, describe, redirect: 'return' });

  // The challenge of `GET /v2/`, and the token exchange it asks for.
  const basic = `Basic ${Buffer.from(`oauth2accesstoken:${pushToken}`).toString('base64')}`;
  setSecret(basic.slice(6));
  const ping = await get(`${base}/v2/`, {}, `GET /v2/ of ${ref.host}`);
  const challenge = ping.headers.get('www-authenticate') ?? '';
  const params = new Map([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
  const realm = URL.parse(params.get('realm') ?? '');
  let auth: Record<string, string> = {};
  if (ping.status === 401 && /^basic /i.test(challenge)) auth = { Authorization: basic };
  else if (ping.status === 401 && /^bearer /i.test(challenge) && realm && keyAllowedFor(realm)) {
    if (params.has('service')) realm.searchParams.set('service', params.get('service')!);
    realm.searchParams.set('scope', `repository:${ref.name}:pull`);
    const describe = `GET a registry token from ${realm.host}`;
    const issued = await get(realm.href, { Authorization: basic }, describe);
    const token = answer(TokenSchema, issued, describe);
    if (!token) failure(ping, describe, 'The answer holds no token.');
    setSecret(token);
    auth = { Authorization: `Bearer ${token}` };
  } else if (ping.status >= 300) {
    const why = 'It asks for no token exchange the action can make (Bearer with an https realm).';
    failure(ping, `GET /v2/ of ${ref.host}`, why);
  }

  const describe = `GET manifest ${ref.name}:${ref.reference} from ${ref.host}`;
  const url = `${base}/v2/${ref.name}/manifests/${ref.reference}`;
  const res = await get(url, { Accept: ACCEPT, ...auth }, describe);
  if (res.status === 404) return undefined;
  const manifest = answer(ManifestSchema, res, describe);
  // What is pinned is what was read: the content's SHA-256, which a header or the digest asked
  // for must agree with (else the checks below would speak for another image).
  const digest = `sha256:${createHash('sha256').update(res.text, 'utf8').digest('hex')}`;
  const named = ref.byDigest ? ref.reference : res.headers.get('docker-content-digest');
  if (named && named !== digest) {
    const why = `Its content is not the image of digest ${inert(named, 80)}: not deployed.`;
    failure(res, describe, why);
  }
  const platformOf = (p?: z.infer<typeof Platform>) => (p ? `${p.os}/${p.architecture}` : '?');
  if (manifest.manifests)
    return { digest, platforms: manifest.manifests.map((m) => platformOf(m.platform)) };

  // A single manifest: the platform is in its config blob.
  const config = manifest.config?.digest ?? '';
  if (!SHA256_DIGEST.test(config)) failure(res, describe, 'It names no config blob by digest.');
  const blobDescribe = `GET config blob of ${ref.name} from ${ref.host}`;
  const blobUrl = `${base}/v2/${ref.name}/blobs/${config}`;
  let blob = await get(blobUrl, auth, blobDescribe);
  if (blob.status >= 300 && blob.status < 400) {
    const location = blob.headers.get('location') ?? '';
    const target = URL.parse(location, blobUrl);
    if (!target || !keyAllowedFor(target)) {
      failure(blob, blobDescribe, 'It redirects to an address that is not https: not followed.');
    }
    // A signed storage address: no credential goes there, and no further redirect is followed.
    blob = await get(target.href, {}, `${blobDescribe} (storage)`);
  }
  return { digest, platforms: [platformOf(answer(Platform, blob, blobDescribe))] };
}

/** A 2xx answer's JSON in `schema`'s shape, else an error that says what the registry said. */
function answer<S extends z.ZodType>(schema: S, res: HttpResponse, describe: string): z.infer<S> {
  const parsed = res.status >= 200 && res.status < 300 && z.safeParse(schema, parseJson(res.text));
  if (parsed && parsed.success) return parsed.data;
  const why = 'The answer is not in the shape the OCI distribution API gives.';
  return failure(res, describe, parsed ? why : undefined);
}

function failure(res: HttpResponse, describe: string, why?: string): never {
  const body = parseJson(res.text) as
    { errors?: { code?: unknown; message?: unknown }[] } | undefined;
  const said = Array.isArray(body?.errors)
    ? ` (${inert(body.errors.map((e) => `${e?.code}: ${e?.message}`).join('; '), 300)})`
    : '';
  const advice =
    why ??
    (res.status === 401 || res.status === 403
      ? 'The push token was refused; it is short-lived: re-run the job.'
      : 'Re-run the job; if it persists, the registry may be down.');
  throw new ApiError(redact(`${describe} answered HTTP ${res.status}${said}. ${advice}`), {
    status: res.status,
    title: 'Registry request failed',
  });
}

/**
 * Runs the docker CLI (`bin`) with `stdin`, killed after `ms` or when `signal` aborts: its exit
 * code (`null` when killed) and output (stdout and stderr, at most 64 KiB: untrusted text). A
 * missing CLI says how to get it.
 */
export async function docker(
  args: string[],
  options: { stdin?: string; ms: number; signal?: AbortSignal | undefined; bin?: string },
): Promise<{ code: number | null; output: string }> {
  const bin = options.bin ?? 'docker';
  const run = promisify(execFile)(bin, args, {
    // The run's environment (DOCKER_CONFIG, PATH) but the action's inputs: the API key among them.
    env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('INPUT_'))),
    timeout: Math.max(1, Math.round(options.ms)),
    killSignal: 'SIGKILL',
    maxBuffer: 65536,
    ...(options.signal && { signal: options.signal }),
  });
  run.child.stdin?.on('error', () => undefined).end(options.stdin ?? '');
  try {
    const { stdout, stderr } = await run;
    return { code: 0, output: stdout + stderr };
  } catch (caught) {
    if (options.signal?.aborted) throw options.signal.reason;
    const error = caught as ExecFileException & { stdout?: string; stderr?: string };
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    if (typeof error.code === 'number' || error.killed)
      return { code: error.killed ? null : Number(error.code), output };
    throw new ActionError(
      error.code === 'ENOENT'
        ? `The docker CLI (\`${bin}\`) is not on PATH. GitHub's hosted runners have it; on a ` +
            'self-hosted runner install Docker (https://docs.docker.com/engine/install/; the CLI ' +
            'alone is enough here).'
        : `The docker CLI could not be run: ${inert(error.message, 300)}.`,
      error.code === 'ENOENT' ? 'Docker CLI not found' : 'Docker CLI failed',
    );
  }
}
