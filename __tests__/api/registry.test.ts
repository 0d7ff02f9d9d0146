/**
 * The registry client (`src/api/registry.ts`), against the simulator's registry and against
 * small loopback servers that answer the way other registries do: the names it splits, the
 * manifest read (challenge, token exchange, index or single manifest, the blob redirect), what
 * it refuses, and the docker CLI runner.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import type { HttpContext } from '../../src/api/http/request.js';
import {
  docker,
  readImage,
  registryHost,
  registryPath,
  splitImage,
} from '../../src/api/registry.js';
import { Deadline } from '../../src/lib/time.js';
import { redact, resetSecretsForTests } from '../../src/lib/untrusted.js';
import { DEFAULT_TENANT_ID, MEDIA, startSimulator, type Simulator } from '../../simulator/index.js';
import { FakeClock, recordingLogger } from '../helpers/fakes.js';
import { startServer, type LocalServer } from '../helpers/http-test-server.js';

const DIGEST = `sha256:${'c'.repeat(64)}`;
const digestOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

function http(): HttpContext {
  const clock = new FakeClock();
  return {
    clock,
    deadline: new Deadline(clock, clock.now() + 60 * 1000),
    logger: recordingLogger(),
  };
}

describe('names', () => {
  it('takes the registry path and host from registry_url, with or without a scheme', () => {
    expect(registryPath('us-docker.pkg.dev/langchain/tenant-1/')).toBe(
      'us-docker.pkg.dev/langchain/tenant-1',
    );
    expect(registryPath('https://us-docker.pkg.dev/langchain/tenant-1')).toBe(
      'us-docker.pkg.dev/langchain/tenant-1',
    );
    expect(registryHost('https://127.0.0.1:5000/x/y')).toBe('127.0.0.1:5000');
  });

  it('splits an image into host, name and the tag or digest it names', () => {
    expect(splitImage('reg.io:5000/a/b:v1')).toEqual({
      host: 'reg.io:5000',
      name: 'a/b',
      reference: 'v1',
      byDigest: false,
    });
    expect(splitImage(`reg.io/a/b@${DIGEST}`)).toEqual({
      host: 'reg.io',
      name: 'a/b',
      reference: DIGEST,
      byDigest: true,
    });
    expect(splitImage(`reg.io/a/b:v1@${DIGEST}`)).toMatchObject({ name: 'a/b', reference: DIGEST });
    expect(splitImage('reg.io:5000/a/b')).toMatchObject({
      host: 'reg.io:5000',
      name: 'a/b',
      reference: 'latest',
    });
  });
});

describe('readImage against the simulator’s registry', () => {
  let sim: Simulator;
  let token: string;
  let repository: string;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    sim.reset();
    resetSecretsForTests();
    const dep = sim.seedDeployment({ name: 'img', source: 'internal_docker' });
    ({ token } = sim.registry.issue(DEFAULT_TENANT_ID, Date.now()));
    repository = `${sim.registry.registryUrl(DEFAULT_TENANT_ID)}/${dep.name}`;
  });

  it('reads an index by tag: its digest and platforms, through the challenge and the token exchange', async () => {
    const pushed = sim.registry.pushImage(repository, 'v1', {
      platforms: ['linux/amd64', 'unknown/unknown'],
    });
    const found = await readImage(http(), splitImage(`${repository}:v1`), token);
    expect(found).toEqual({ digest: pushed.digest, platforms: ['linux/amd64', 'unknown/unknown'] });
    expect(sim.registry.requests.map((r) => [r.path.split('/').at(-1), r.auth, r.status])).toEqual([
      ['', 'none', 401],
      ['token', 'basic', 200],
      ['v1', 'bearer', 200],
    ]);
    // The push token's Basic form is masked too, before it is sent.
    expect(redact(Buffer.from(`oauth2accesstoken:${token}`).toString('base64'))).toBe('***');
  });

  it('reads a Docker list, and a single manifest’s platform from its config blob (redirect followed once, without credentials)', async () => {
    sim.registry.pushImage(repository, 'list', { platforms: ['linux/arm64'], docker: true });
    expect(await readImage(http(), splitImage(`${repository}:list`), token)).toMatchObject({
      platforms: ['linux/arm64'],
    });
    const single = sim.registry.pushImage(repository, 'one', { index: false, docker: true });
    sim.registry.redirectBlobs = true;
    const found = await readImage(http(), splitImage(`${repository}:one`), token);
    expect(found).toEqual({ digest: single.digest, platforms: ['linux/amd64'] });
    const storage = sim.registry.requests.filter((r) => r.path.startsWith('/_storage/'));
    expect(storage.map((r) => [r.auth, r.status])).toEqual([['none', 200]]);
  });

  it('gives undefined for a tag the registry does not know, and an error for a refused token', async () => {
    expect(await readImage(http(), splitImage(`${repository}:nope`), token)).toBeUndefined();
    sim.registry.expireTokens();
    await expect(readImage(http(), splitImage(`${repository}:nope`), token)).rejects.toThrow(
      /registry token .*HTTP 401 \(UNAUTHORIZED: invalid username or push token\)\. The push token was refused/,
    );
  });
});

describe('readImage against other registries', () => {
  let server: LocalServer | undefined;
  afterAll(() => server?.close());
  const serve = async (handler: Parameters<typeof startServer>[0]) => {
    await server?.close();
    server = await startServer(handler);
    return `127.0.0.1:${server.port}`;
  };
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: MEDIA.ociIndex,
    manifests: [{ digest: DIGEST, platform: { os: 'linux', architecture: 'amd64' } }],
  });

  it('answers a Basic challenge with Basic auth, and digests the body when no header names it', async () => {
    const host = await serve((req, res) => {
      if (!req.headers.authorization) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="registry"' });
        return res.end();
      }
      res.writeHead(200, { 'content-type': MEDIA.ociIndex });
      res.end(req.url === '/v2/' ? '{}' : manifest);
    });
    const found = await readImage(http(), splitImage(`${host}/a/b:v1`), 'push-1');
    const digest = `sha256:${createHash('sha256').update(manifest).digest('hex')}`;
    expect(found).toEqual({ digest, platforms: ['linux/amd64'] });
    const sent = server!.requests.map((r) => r.headers.authorization);
    expect(sent).toEqual([
      undefined,
      `Basic ${Buffer.from('oauth2accesstoken:push-1').toString('base64')}`,
    ]);
    expect(server!.requests[1]!.headers.accept).toContain(MEDIA.ociIndex);
  });

  it('accepts a token exchange that answers access_token only, and masks it', async () => {
    const host = await serve((req, res) => {
      const auth = req.headers.authorization ?? '';
      if (req.url?.startsWith('/token')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ access_token: 'granted-bearer-1' }));
      }
      if (auth !== 'Bearer granted-bearer-1') {
        res.writeHead(401, {
          'www-authenticate': `Bearer realm="http://${host}/token",service="s"`,
        });
        return res.end();
      }
      res.writeHead(200, { 'docker-content-digest': digestOf(manifest) });
      res.end(req.url === '/v2/' ? '{}' : manifest);
    });
    expect(await readImage(http(), splitImage(`${host}/a/b:v1`), 'push-2')).toEqual({
      digest: digestOf(manifest),
      platforms: ['linux/amd64'],
    });
    expect(server!.requests[1]!.url).toBe('/token?service=s&scope=repository%3Aa%2Fb%3Apull');
    expect(redact('granted-bearer-1')).toBe('***');
  });

  it('refuses a manifest whose content is not the digest it is pinned by (header, or the digest asked for)', async () => {
    // The platform would run what the digest names, not the linux/amd64 index that was read.
    const other = `sha256:${'d'.repeat(64)}`;
    const host = await serve((req, res) => {
      if (req.url === '/v2/') return res.writeHead(200).end('{}');
      res.writeHead(200, { 'docker-content-digest': other });
      res.end(manifest);
    });
    await expect(readImage(http(), splitImage(`${host}/a/b:v1`), 'p')).rejects.toThrow(
      /manifest a\/b:v1 .* answered HTTP 200\. Its content is not the image of digest sha256:d{64}/,
    );
    await expect(readImage(http(), splitImage(`${host}/a/b@${other}`), 'p')).rejects.toThrow(
      /HTTP 200\. Its content is not the image of digest sha256:d{64}/,
    );
  });

  it('refuses a realm that is not https (the push token would cross the network in clear text)', async () => {
    const host = await serve((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Bearer realm="http://auth.example.com/token"' });
      res.end();
    });
    await expect(readImage(http(), splitImage(`${host}/a/b:v1`), 'push-3')).rejects.toThrow(
      /HTTP 401\. It asks for no token exchange the action can make/,
    );
    expect(server!.requests).toHaveLength(1);
  });

  it('refuses a blob redirect to plain http off loopback, and makes registry text inert', async () => {
    const single = JSON.stringify({ schemaVersion: 2, config: { digest: DIGEST } });
    const host = await serve((req, res) => {
      if (req.url === '/v2/') return res.writeHead(200).end('{}');
      if (req.url?.includes('/blobs/')) {
        res.writeHead(307, { location: 'http://storage.example.com/blob' });
        return res.end();
      }
      if (req.url?.endsWith('/moved')) {
        res.writeHead(302, { location: `http://${req.headers.host}/v2/a/b/manifests/v1` });
        return res.end();
      }
      if (req.url?.endsWith('/bad')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ errors: [{ code: 'X', message: '\n::error::forged' }] }));
      }
      res.writeHead(200).end(single);
    });
    await expect(readImage(http(), splitImage(`${host}/a/b:v1`), 'p')).rejects.toThrow(
      /config blob of a\/b .* answered HTTP 307\. It redirects to an address that is not https/,
    );
    // Only the config blob's redirect is followed: a manifest's is not.
    await expect(readImage(http(), splitImage(`${host}/a/b:moved`), 'p')).rejects.toThrow(
      /manifest a\/b:moved .* answered HTTP 302/,
    );
    const ctx = { ...http(), maxAttempts: 1 };
    const error = await readImage(ctx, splitImage(`${host}/a/b:bad`), 'p').catch((e: Error) => e);
    expect((error as Error).message).toMatch(/HTTP 500 \(X: +:\u200b:error:\u200b:forged\)/);
  });
});

describe('docker (the CLI runner)', () => {
  it('passes stdin and collects the output', async () => {
    expect(await docker([], { bin: 'cat', stdin: 'hello\n', ms: 5000 })).toEqual({
      code: 0,
      output: 'hello\n',
    });
  });

  it('gives the CLI (and its credential helpers) no input of the action: the API key stays out of its environment', async () => {
    process.env['INPUT_API-KEY'] = 'lsv2-key-not-for-docker';
    try {
      const { output } = await docker([], { bin: 'env', ms: 5000 });
      expect(output).toContain('PATH=');
      expect(output).not.toMatch(/INPUT_|lsv2-key-not-for-docker/);
    } finally {
      delete process.env['INPUT_API-KEY'];
    }
  });

  it('stops a CLI that does not finish in time', async () => {
    const started = Date.now();
    expect(await docker(['10'], { bin: 'sleep', ms: 100 })).toEqual({ code: null, output: '' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('says how to get the CLI when it is not on PATH', async () => {
    await expect(docker(['login'], { bin: 'docker-not-installed-here', ms: 1000 })).rejects.toThrow(
      /`docker-not-installed-here`\) is not on PATH.*install Docker/,
    );
  });
});
