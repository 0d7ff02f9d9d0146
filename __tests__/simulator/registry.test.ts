/**
 * The simulator's image registry (`simulator/registry.ts`) and the control plane's side of it:
 * `internal_docker` deployments, `POST …/push-token`, the bearer challenge, the token exchange,
 * manifests and indexes by tag and digest (GET and HEAD), config blobs and their redirect.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DEFAULT_TENANT_ID, MEDIA, startSimulator, type Simulator } from '../../simulator/index.js';
import { call } from './helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

const basic = (token: string) =>
  `Basic ${Buffer.from(`oauth2accesstoken:${token}`).toString('base64')}`;
const registry = (path: string, init: RequestInit = {}) =>
  fetch(`http://${sim.registry.host}${path}`, init);

async function imageDeployment(name = 'img') {
  const created = await call(sim, 'POST', '/v2/deployments', {
    body: {
      name,
      source: 'internal_docker',
      source_config: { deployment_type: 'dev' },
      source_revision_config: {},
      secrets: [],
    },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; latest_revision_id: string | null; url: string | null };
}

async function bearer(token: string, scope?: string): Promise<string> {
  const query = scope ? `?service=sim-registry&scope=${encodeURIComponent(scope)}` : '';
  const answer = await registry(`/token${query}`, { headers: { authorization: basic(token) } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { token: string }).token;
}

describe('internal_docker deployments and push tokens', () => {
  it('creates an image deployment without a revision (the image comes with the first one)', async () => {
    const dep = await imageDeployment();
    expect(dep.latest_revision_id).toBeNull();
    expect(dep.url).toMatch(/\/agents\//);
    const refused = await call(sim, 'POST', '/v2/deployments', {
      body: {
        name: 'img-2',
        source: 'internal_docker',
        source_config: { repo_url: 'https://github.com/acme/agent' },
        source_revision_config: { repo_ref: 'main' },
        secrets: [],
      },
    });
    expect(refused.status).toBe(422);
  });

  it('issues a token and the registry path for internal_docker deployments only', async () => {
    const dep = await imageDeployment();
    const answer = await call(sim, 'POST', `/v2/deployments/${dep.id}/push-token`);
    expect(answer).toMatchObject({
      status: 200,
      body: {
        token: expect.stringMatching(/^sim-push-/),
        registry_url: `${sim.registry.host}/langsmith-deployments/${DEFAULT_TENANT_ID}`,
      },
    });
    const github = sim.seedDeployment({ name: 'gh' });
    const refused = await call(sim, 'POST', `/v2/deployments/${github.id}/push-token`);
    expect(refused).toMatchObject({
      status: 400,
      body: { detail: expect.stringContaining("only available for 'internal_docker'") },
    });
    expect((await call(sim, 'GET', `/v2/deployments/${dep.id}/push-token`)).status).toBe(405);
    const missing = '00000000-0000-4000-8000-000000000404';
    expect((await call(sim, 'POST', `/v2/deployments/${missing}/push-token`)).status).toBe(404);
  });

  it('takes a new revision with the image (POST …/revisions, and the CLI’s PATCH)', async () => {
    const dep = await imageDeployment();
    const image = `${sim.registry.registryUrl(DEFAULT_TENANT_ID)}/img@sha256:${'a'.repeat(64)}`;
    const posted = await call(sim, 'POST', `/v2/deployments/${dep.id}/revisions`, {
      body: { source_revision_config: { image_uri: image } },
    });
    expect(posted).toMatchObject({
      status: 201,
      body: { source_revision_config: { image_uri: image } },
    });
    const patched = await call(sim, 'PATCH', `/v2/deployments/${dep.id}`, {
      body: { revision_source: 'internal_docker', source_revision_config: { image_uri: image } },
    });
    expect(patched.status).toBe(200);
    const foreign = await call(sim, 'POST', `/v2/deployments/${dep.id}/revisions`, {
      body: { source_revision_config: { repo_ref: 'main' } },
    });
    expect(foreign.status).toBe(400);
  });
});

describe('the registry', () => {
  it('challenges /v2/ with a bearer realm and answers 200 with a token of its own', async () => {
    const open = await registry('/v2/');
    expect(open.status).toBe(401);
    const challenge = open.headers.get('www-authenticate') ?? '';
    expect(challenge).toBe(
      `Bearer realm="http://${sim.registry.host}/token",service="sim-registry"`,
    );
    const dep = await imageDeployment();
    const { token } = (await call(sim, 'POST', `/v2/deployments/${dep.id}/push-token`)).body as {
      token: string;
    };
    const granted = await bearer(token);
    expect(
      (await registry('/v2/', { headers: { authorization: `Bearer ${granted}` } })).status,
    ).toBe(200);
    expect(
      (await registry('/v2/', { method: 'HEAD', headers: { authorization: `Bearer ${granted}` } }))
        .status,
    ).toBe(200);
    // The push token itself is not a bearer token, and a wrong user or token gets nothing.
    expect((await registry('/v2/', { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      401,
    );
    const wrongUser = `Basic ${Buffer.from(`someone:${token}`).toString('base64')}`;
    expect((await registry('/token', { headers: { authorization: wrongUser } })).status).toBe(401);
    expect((await registry('/token', { headers: { authorization: basic('nope') } })).status).toBe(
      401,
    );
    sim.registry.expireTokens();
    expect((await registry('/token', { headers: { authorization: basic(token) } })).status).toBe(
      401,
    );
    expect(sim.registry.requests.map((r) => r.auth)).toEqual([
      'none',
      'basic',
      'bearer',
      'bearer',
      'bearer',
      'basic',
      'basic',
      'basic',
    ]);
  });

  it('serves manifests and indexes by tag and digest, for the Accept they are asked with, to a token that covers them', async () => {
    const dep = await imageDeployment();
    const { token, registry_url } = (
      await call(sim, 'POST', `/v2/deployments/${dep.id}/push-token`)
    ).body as { token: string; registry_url: string };
    const repository = `${registry_url}/img`;
    const name = repository.slice(sim.registry.host.length + 1);
    const pushed = sim.registry.pushImage(repository, 'v1', {
      platforms: ['linux/amd64', 'linux/arm64'],
    });
    const auth = { authorization: `Bearer ${await bearer(token, `repository:${name}:pull`)}` };
    const accept = { accept: `${MEDIA.ociIndex}, ${MEDIA.ociManifest}` };

    const byTag = await registry(`/v2/${name}/manifests/v1`, { headers: { ...auth, ...accept } });
    expect(byTag.status).toBe(200);
    expect(byTag.headers.get('content-type')).toBe(MEDIA.ociIndex);
    expect(byTag.headers.get('docker-content-digest')).toBe(pushed.digest);
    const bytes = Buffer.from(await byTag.arrayBuffer());
    expect(`sha256:${createHash('sha256').update(bytes).digest('hex')}`).toBe(pushed.digest);
    const index = JSON.parse(bytes.toString('utf8')) as {
      manifests: { digest: string; platform: { os: string; architecture: string } }[];
    };
    expect(index.manifests.map((m) => `${m.platform.os}/${m.platform.architecture}`)).toEqual([
      'linux/amd64',
      'linux/arm64',
    ]);

    const head = await registry(`/v2/${name}/manifests/${pushed.digest}`, {
      method: 'HEAD',
      headers: { ...auth, ...accept },
    });
    expect([head.status, head.headers.get('docker-content-digest'), await head.text()]).toEqual([
      200,
      pushed.digest,
      '',
    ]);
    // A platform manifest by digest, its config blob by digest.
    const amd64 = await registry(`/v2/${name}/manifests/${index.manifests[0]!.digest}`, {
      headers: { ...auth, ...accept },
    });
    const config = ((await amd64.json()) as { config: { digest: string } }).config.digest;
    const blob = await registry(`/v2/${name}/blobs/${config}`, { headers: auth });
    expect(await blob.json()).toMatchObject({ os: 'linux', architecture: 'amd64' });

    // Not asked for an index: not found, as a registry that cannot convert answers.
    const single = await registry(`/v2/${name}/manifests/v1`, {
      headers: { ...auth, accept: MEDIA.ociManifest },
    });
    expect(single.status).toBe(404);
    expect(
      (await registry(`/v2/${name}/manifests/v9`, { headers: { ...auth, ...accept } })).status,
    ).toBe(404);
    // Without a token, or with a token for another repository: the challenge names the scope.
    const anonymous = await registry(`/v2/${name}/manifests/v1`, { headers: accept });
    expect(anonymous.headers.get('www-authenticate')).toContain(`scope="repository:${name}:pull"`);
    const denied = await registry(
      `/token?scope=${encodeURIComponent('repository:other/img:pull')}`,
      {
        headers: { authorization: basic(token) },
      },
    );
    expect(denied.status).toBe(403);
  });

  it('redirects blob downloads to a signed address that takes no credentials', async () => {
    const dep = await imageDeployment();
    const { token, registry_url } = (
      await call(sim, 'POST', `/v2/deployments/${dep.id}/push-token`)
    ).body as { token: string; registry_url: string };
    const name = `${registry_url}/img`.slice(sim.registry.host.length + 1);
    sim.registry.pushImage(`${registry_url}/img`, 'v1', { index: false });
    sim.registry.redirectBlobs = true;
    const auth = { authorization: `Bearer ${await bearer(token)}` };
    const manifest = await registry(`/v2/${name}/manifests/v1`, {
      headers: { ...auth, accept: MEDIA.ociManifest },
    });
    const config = ((await manifest.json()) as { config: { digest: string } }).config.digest;
    const redirect = await registry(`/v2/${name}/blobs/${config}`, {
      headers: auth,
      redirect: 'manual',
    });
    expect(redirect.status).toBe(307);
    const location = redirect.headers.get('location')!;
    expect((await fetch(location, { headers: auth })).status).toBe(403);
    expect(await (await fetch(location)).json()).toMatchObject({
      os: 'linux',
      architecture: 'amd64',
    });
  });
});
