/**
 * The platform's image registry for `internal_docker` deployments: a separate loopback server
 * speaking the subset of the OCI distribution API (and Docker's token authentication) that
 * `docker login` and the action use.
 *
 * - `GET|HEAD /v2/`: 401 with `WWW-Authenticate: Bearer realm="<url>/token",service="…"`
 *   unless a bearer token of this registry comes with it (then 200 `{}`).
 * - `GET /token?service=…&scope=repository:<name>:pull`: Basic auth `oauth2accesstoken` and a
 *   push token the control plane issued (`POST /v2/deployments/{id}/push-token`), not
 *   expired: `{token, access_token, expires_in}`; anything else 401. A scope outside the
 *   token's repositories (`<registry path>/…`) is refused with 403 `DENIED`.
 * - `GET|HEAD /v2/<name>/manifests/<tag or digest>`: the bearer token must cover `<name>`.
 *   The manifest's media type must be among `Accept` (else 404 `MANIFEST_UNKNOWN`, as a
 *   registry that cannot convert answers); `Docker-Content-Digest` and `Content-Type` are set.
 * - `GET /v2/<name>/blobs/<digest>`: the blob, or (`redirectBlobs`) a 307 to a signed
 *   storage URL on this server (`/_storage/<digest>?sig=…`) that takes no credentials.
 *
 * Tests put images in with `pushImage` (single-platform manifests with their config blobs, or
 * an index of several platforms, as `docker/build-push-action` pushes them).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MEDIA = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
} as const;

const USER = 'oauth2accesstoken';
const SERVICE = 'sim-registry';

export interface RegistryRequest {
  method: string;
  path: string;
  /** `none`, `basic` or `bearer`: which credential came with it (never the value). */
  auth: 'none' | 'basic' | 'bearer';
  status: number;
}

export interface PushedImage {
  /** `<host>/<name>` */
  repository: string;
  /** The digest of what the tag names (the index, or the single manifest). */
  digest: string;
}

/** A platform as `os/architecture`, e.g. `linux/amd64`. */
export type Platform = `${string}/${string}`;

interface Blob {
  mediaType: string;
  bytes: Buffer;
}

export class Registry {
  readonly requests: RegistryRequest[] = [];
  /** Every push token issued, for tests that look for it in the action's output. */
  readonly issuedTokens: string[] = [];
  /** 307 redirects for blob downloads (as registries backed by object storage answer). */
  redirectBlobs = false;
  private readonly server: Server;
  private baseUrl = '';
  /** push token → its repository prefix and expiry. */
  private readonly pushTokens = new Map<string, { prefix: string; expiresAt: number }>();
  private readonly bearers = new Map<string, string>();
  /** `name` → tag or digest → manifest. */
  private readonly manifests = new Map<string, Map<string, Blob>>();
  private readonly blobs = new Map<string, Blob>();
  private readonly signed = new Map<string, string>();

  /** How long a push token is accepted (0: expired at once, for tests of a refused login). */
  tokenTtlMs = 60 * 60_000;

  constructor() {
    this.server = createServer((req, res) => this.onRequest(req, res));
  }

  /** `127.0.0.1:<port>` */
  get host(): string {
    return this.baseUrl.replace(/^http:\/\//, '');
  }

  async listen(host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://${host}:${port}`;
  }

  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    return closed;
  }

  clear(): void {
    this.requests.length = 0;
    this.issuedTokens.length = 0;
    this.redirectBlobs = false;
    this.tokenTtlMs = 60 * 60_000;
    for (const map of [this.pushTokens, this.bearers, this.manifests, this.blobs, this.signed]) {
      map.clear();
    }
  }

  /** The registry path of a tenant's deployment images, as `registry_url` names it. */
  registryUrl(tenantId: string): string {
    return `${this.host}/langsmith-deployments/${tenantId}`;
  }

  /** What `POST /v2/deployments/{id}/push-token` answers. */
  issue(tenantId: string, now: number): { token: string; registry_url: string } {
    const token = `sim-push-${randomBytes(18).toString('base64url')}`;
    const registry_url = this.registryUrl(tenantId);
    const prefix = registry_url.slice(this.host.length + 1);
    this.pushTokens.set(token, { prefix, expiresAt: now + this.tokenTtlMs });
    this.issuedTokens.push(token);
    return { token, registry_url };
  }

  /** Makes every push token issued so far expire. */
  expireTokens(): void {
    for (const t of this.pushTokens.values()) t.expiresAt = 0;
  }

  /**
   * Puts an image under `repository` (`<host>/<name>`, as `registry_url` + `/` + a name) with
   * `tag`: one platform as a single manifest (`index: false`), else an index of the platforms.
   */
  pushImage(
    repository: string,
    tag: string,
    options: { platforms?: Platform[]; index?: boolean; docker?: boolean } = {},
  ): PushedImage {
    const name = this.nameOf(repository);
    const platforms = options.platforms ?? ['linux/amd64'];
    const single = (platform: Platform) => {
      const [os, architecture] = platform.split('/');
      const config = this.putBlob(MEDIA.ociConfig, { os, architecture, config: {} });
      return this.putManifest(name, options.docker ? MEDIA.dockerManifest : MEDIA.ociManifest, {
        schemaVersion: 2,
        mediaType: options.docker ? MEDIA.dockerManifest : MEDIA.ociManifest,
        config: { mediaType: MEDIA.ociConfig, digest: config.digest, size: config.size },
        layers: [],
      });
    };
    let top: { digest: string };
    if (options.index === false) {
      if (platforms.length !== 1) throw new Error('A single manifest has one platform.');
      top = single(platforms[0]!);
    } else {
      const type = options.docker ? MEDIA.dockerList : MEDIA.ociIndex;
      const manifests = platforms.map((platform) => {
        const m = single(platform);
        const [os, architecture] = platform.split('/');
        return { mediaType: MEDIA.ociManifest, ...m, platform: { os, architecture } };
      });
      top = this.putManifest(name, type, { schemaVersion: 2, mediaType: type, manifests });
    }
    this.manifests.get(name)!.set(tag, this.manifests.get(name)!.get(top.digest)!);
    return { repository: `${this.host}/${name}`, digest: top.digest };
  }

  private nameOf(repository: string): string {
    if (!repository.startsWith(`${this.host}/`)) {
      throw new Error(`${repository} is not in this registry (${this.host}).`);
    }
    return repository.slice(this.host.length + 1);
  }

  private putBlob(mediaType: string, json: unknown): { digest: string; size: number } {
    const bytes = Buffer.from(JSON.stringify(json));
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    this.blobs.set(digest, { mediaType, bytes });
    return { digest, size: bytes.length };
  }

  private putManifest(name: string, mediaType: string, json: unknown) {
    const { digest, size } = this.putBlob(mediaType, json);
    const byRef = this.manifests.get(name) ?? new Map<string, Blob>();
    this.manifests.set(name, byRef);
    byRef.set(digest, this.blobs.get(digest)!);
    return { digest, size };
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', this.baseUrl);
    const method = (req.method ?? 'GET').toUpperCase();
    const authorization = req.headers.authorization ?? '';
    const kind = /^bearer /i.test(authorization)
      ? 'bearer'
      : /^basic /i.test(authorization)
        ? 'basic'
        : 'none';
    const entry: RegistryRequest = { method, path: url.pathname, auth: kind, status: 0 };
    this.requests.push(entry);
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      entry.status = status;
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      res.writeHead(status, {
        'content-type': 'application/json',
        'docker-distribution-api-version': 'registry/2.0',
        'content-length': String(bytes.length),
        ...headers,
      });
      res.end(method === 'HEAD' ? undefined : bytes);
    };
    const errors = (status: number, code: string, message: string, headers = {}) =>
      reply(status, { errors: [{ code, message, detail: null }] }, headers);
    const challenge = (scope?: string) =>
      errors(401, 'UNAUTHORIZED', 'authentication required', {
        'www-authenticate':
          `Bearer realm="${this.baseUrl}/token",service="${SERVICE}"` +
          (scope ? `,scope="${scope}"` : ''),
      });
    req.resume();

    if (url.pathname === '/token' && method === 'GET') {
      const [user, password] = Buffer.from(authorization.replace(/^basic /i, ''), 'base64')
        .toString('utf8')
        .split(/:(.*)/s);
      const push =
        kind === 'basic' && user === USER ? this.pushTokens.get(password ?? '') : undefined;
      if (!push || push.expiresAt <= Date.now()) {
        return errors(401, 'UNAUTHORIZED', 'invalid username or push token');
      }
      for (const scope of url.searchParams.getAll('scope')) {
        const name = /^repository:([^:]+):/.exec(scope)?.[1] ?? '';
        if (!name.startsWith(`${push.prefix}/`)) {
          return errors(403, 'DENIED', `the push token does not cover ${name}`);
        }
      }
      const bearer = `sim-bearer-${randomBytes(18).toString('base64url')}`;
      this.bearers.set(bearer, push.prefix);
      return reply(200, { token: bearer, access_token: bearer, expires_in: 300 });
    }
    const storage = /^\/_storage\/(sha256:[0-9a-f]{64})$/.exec(url.pathname);
    if (storage && method === 'GET') {
      const digest = storage[1]!;
      if (kind !== 'none' || this.signed.get(digest) !== url.searchParams.get('sig')) {
        return errors(403, 'DENIED', 'signature does not match, or credentials were sent');
      }
      return reply(200, this.blobs.get(digest)!.bytes, {
        'content-type': 'application/octet-stream',
      });
    }
    if (method !== 'GET' && method !== 'HEAD') return errors(405, 'UNSUPPORTED', 'read only');
    const prefix = kind === 'bearer' ? this.bearers.get(authorization.slice(7)) : undefined;
    if (url.pathname === '/v2/' || url.pathname === '/v2') {
      return prefix === undefined ? challenge() : reply(200, {});
    }
    const route = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(url.pathname);
    if (!route) return errors(404, 'NOT_FOUND', 'no such route');
    const [, name, what, ref] = route as unknown as [string, string, string, string];
    if (prefix === undefined || !name.startsWith(`${prefix}/`)) {
      return challenge(`repository:${name}:pull`);
    }
    if (what === 'blobs') {
      const blob = this.blobs.get(ref);
      if (!blob) return errors(404, 'BLOB_UNKNOWN', 'blob unknown to registry');
      if (!this.redirectBlobs) return reply(200, blob.bytes, { 'docker-content-digest': ref });
      const sig = randomBytes(12).toString('hex');
      this.signed.set(ref, sig);
      return reply(307, {}, { location: `${this.baseUrl}/_storage/${ref}?sig=${sig}` });
    }
    const manifest = this.manifests.get(name)?.get(ref);
    const accepted = (req.headers.accept ?? '').split(',').map((a) => a.split(';')[0]!.trim());
    if (!manifest || !accepted.includes(manifest.mediaType)) {
      return errors(404, 'MANIFEST_UNKNOWN', `manifest unknown: ${name}:${ref}`);
    }
    const digest = `sha256:${createHash('sha256').update(manifest.bytes).digest('hex')}`;
    return reply(200, manifest.bytes, {
      'content-type': manifest.mediaType,
      'docker-content-digest': digest,
    });
  }
}
