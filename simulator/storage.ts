/**
 * The object storage behind `source: upload`: a separate loopback server that accepts one PUT
 * per issued signed URL, as Google Cloud Storage does for the URLs the control plane signs.
 *
 * - Only a URL the control plane issued, with its exact signature, before it expires
 *   (`ExpiredToken`, 400) — anything else is `SignatureDoesNotMatch` (403).
 * - The signed headers (`X-Goog-SignedHeaders`: `content-length;content-type;host;
 *   x-goog-content-length-range`) must be there with the signed values (`Content-Type:
 *   application/gzip`, `X-Goog-Content-Length-Range: 0,209715200`), else 403
 *   `SignatureDoesNotMatch`. Headers that are not signed (`Accept`, `User-Agent`,
 *   `Accept-Encoding`, … as Node's `fetch` adds them) are accepted, as a V4 signed URL accepts
 *   them. Any credential (`X-Api-Key`, `Authorization`, `Cookie`, `X-Tenant-Id`) is refused
 *   with 400 `CredentialsNotAllowed`: the signature is the only authorisation.
 * - The body is hashed as it arrives (never held whole unless small), and must be as long as
 *   `Content-Length` said.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const STORAGE_MAX_BYTES = 209_715_200;
/** The headers the URL is signed for (its `X-Goog-SignedHeaders`), sorted as GCS lists them. */
const SIGNED = ['content-length', 'content-type', 'host', 'x-goog-content-length-range'];
const CREDENTIALS = ['x-api-key', 'authorization', 'cookie', 'x-tenant-id', 'proxy-authorization'];
/** Uploads up to this size are kept whole, so tests can open the archive. */
const KEEP_BYTES = 16 * 1024 * 1024;

export interface StoredObject {
  deploymentId: string;
  bytes: number;
  sha256: string;
  /** The body, when it is at most 16 MiB. */
  body?: Buffer;
}

export interface StorageRequest {
  method: string;
  objectPath: string;
  /** Lower-case header names as received. */
  headers: string[];
  status: number | 'reset';
}

interface Issued {
  deploymentId: string;
  signature: string;
  expiresAt: number;
}

/** What the storage server asks of the shared fault queue before answering. */
export type StorageFault =
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'reset' }
  | { kind: 'delay'; ms: number }
  | { kind: string };

export class Storage {
  readonly objects = new Map<string, StoredObject>();
  readonly requests: StorageRequest[] = [];
  private readonly issued = new Map<string, Issued>();
  private readonly server: Server;
  private baseUrl = '';

  constructor(
    private readonly ttlMs: () => number,
    private readonly takeFault: (method: string, path: string) => StorageFault | undefined,
  ) {
    this.server = createServer((req, res) => void this.onRequest(req, res));
  }

  get url(): string {
    return this.baseUrl;
  }

  async listen(host: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.baseUrl = `http://${shown}:${address.port}`;
  }

  /** A signed URL for one upload of `deploymentId`'s source. */
  issue(deploymentId: string, now: number): { upload_url: string; object_path: string } {
    const objectPath = `uploads/${deploymentId}/${randomUUID()}.tar.gz`;
    const signature = randomBytes(24).toString('hex');
    const ttl = this.ttlMs();
    this.issued.set(objectPath, { deploymentId, signature, expiresAt: now + ttl });
    const query = new URLSearchParams({
      'X-Goog-Algorithm': 'GOOG4-RSA-SHA256',
      'X-Goog-Expires': String(Math.ceil(ttl / 1000)),
      'X-Goog-SignedHeaders': SIGNED.join(';'),
      'X-Goog-Signature': signature,
    });
    return { upload_url: `${this.baseUrl}/bucket/${objectPath}?${query}`, object_path: objectPath };
  }

  /** Whether `objectPath` was issued for `deploymentId` and uploaded in full. */
  uploadedFor(objectPath: string, deploymentId: string): boolean {
    return (
      this.issued.get(objectPath)?.deploymentId === deploymentId && this.objects.has(objectPath)
    );
  }

  /** Makes every URL issued so far expire (tests of the expired-URL error). */
  expireAll(): void {
    for (const i of this.issued.values()) i.expiresAt = 0;
  }

  clear(): void {
    this.objects.clear();
    this.issued.clear();
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://storage.invalid');
    const objectPath = url.pathname.replace(/^\/bucket\//, '');
    const entry: StorageRequest = {
      method: req.method ?? 'GET',
      objectPath,
      headers: Object.keys(req.headers),
      status: 0,
    };
    this.requests.push(entry);
    const answer = (status: number, code: string, message: string, headers = {}) => {
      entry.status = status;
      req.resume();
      const xml = `<?xml version='1.0' encoding='UTF-8'?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
      res.writeHead(status, { 'content-type': 'application/xml', ...headers });
      res.end(xml);
    };

    const fault = this.takeFault(entry.method, `/storage/${objectPath}`);
    if (fault?.kind === 'reset') {
      entry.status = 'reset';
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status' && 'status' in fault) {
      return answer(fault.status, 'InternalError', 'Simulated fault.', fault.headers ?? {});
    }
    if (fault?.kind === 'delay' && 'ms' in fault) {
      await new Promise((r) => setTimeout(r, fault.ms));
    }

    if (entry.method !== 'PUT') return answer(405, 'MethodNotAllowed', 'Only PUT.');
    const issued = this.issued.get(objectPath);
    if (!issued || url.searchParams.get('X-Goog-Signature') !== issued.signature) {
      return answer(403, 'SignatureDoesNotMatch', 'The signature does not match.');
    }
    if (Date.now() > issued.expiresAt) {
      return answer(400, 'ExpiredToken', 'The provided token has expired.');
    }
    const names = entry.headers;
    if (CREDENTIALS.some((c) => names.includes(c))) {
      return answer(400, 'CredentialsNotAllowed', 'A signed URL takes no other credential.');
    }
    const missing = SIGNED.filter((n) => !names.includes(n));
    if (missing.length > 0) {
      return answer(403, 'SignatureDoesNotMatch', `Signed headers missing: ${missing.join(', ')}.`);
    }
    if (req.headers['content-type'] !== 'application/gzip') {
      return answer(403, 'SignatureDoesNotMatch', 'Content-Type differs from the signed one.');
    }
    if (req.headers['x-goog-content-length-range'] !== `0,${STORAGE_MAX_BYTES}`) {
      return answer(403, 'SignatureDoesNotMatch', 'The length range differs.');
    }
    const declared = Number(req.headers['content-length']);
    if (!Number.isInteger(declared) || declared > STORAGE_MAX_BYTES) {
      return answer(400, 'EntityTooLarge', 'Outside X-Goog-Content-Length-Range.');
    }
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    let bytes = 0;
    try {
      for await (const chunk of req) {
        const buf = chunk as Buffer;
        bytes += buf.length;
        hash.update(buf);
        if (bytes <= KEEP_BYTES) kept.push(buf);
      }
    } catch {
      entry.status = 'reset';
      return;
    }
    if (bytes !== declared) return answer(400, 'IncompleteBody', 'Body shorter than declared.');
    this.objects.set(objectPath, {
      deploymentId: issued.deploymentId,
      bytes,
      sha256: hash.digest('hex'),
      ...(bytes <= KEEP_BYTES ? { body: Buffer.concat(kept) } : {}),
    });
    entry.status = 200;
    res.writeHead(200, { 'content-length': '0' });
    res.end();
  }
}
