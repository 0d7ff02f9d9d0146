/**
 * End to end: images built in the workflow (INTERFACE v1.3, "Images built in the workflow").
 * `command: registry-login` runs the REAL docker CLI (`docker login` / `docker logout`, no
 * engine needed) against the simulator's registry over 127.0.0.1, with a temporary
 * DOCKER_CONFIG per test so the machine's own docker configuration is never touched; the push
 * of `docker/build-push-action` is played by `sim.registry.pushImage`. `deploy` with
 * `source: internal_docker` reads the image's manifest from that registry before the revision.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { DEFAULT_TENANT_ID } from '../../simulator/index.js';
import { useSimulator } from '../helpers/simulator.js';
import {
  baseInputs,
  byRoute,
  errors,
  expectExit,
  idOf,
  mark,
  REVISIONS_PATH,
  SHORT_TIMELINE,
  uniqueName,
  ORIGIN_ENTRY,
} from './deploy-support.js';

const sim = useSimulator({ timeline: SHORT_TIMELINE });

/** These tests need the docker CLI (not an engine): missing, they fail and say how to get it. */
function requireDocker(): void {
  const found = spawnSync('docker', ['--version'], { encoding: 'utf8' });
  if (found.status !== 0) {
    throw new Error(
      'The docker CLI is not on PATH, and these tests run the real `docker login`/`docker ' +
        'logout`. Install the CLI alone (no engine needed): on Debian/Ubuntu add Docker’s apt ' +
        'repository (https://docs.docker.com/engine/install/debian/) and `apt-get install ' +
        'docker-ce-cli`, or put the `docker` binary of https://download.docker.com/linux/static/' +
        'stable/x86_64/ on PATH.',
    );
  }
}

const configDirs: string[] = [];
/** A fresh DOCKER_CONFIG for one test (the machine's ~/.docker is never read or written). */
function dockerConfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docker-config-'));
  configDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of configDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function auths(dir: string): Record<string, { auth?: string }> {
  const file = join(dir, 'config.json');
  if (!existsSync(file)) return {};
  return (
    (JSON.parse(readFileSync(file, 'utf8')) as { auths?: Record<string, { auth?: string }> })
      .auths ?? {}
  );
}

/** Every place a value could show, but the `::add-mask::` lines that mask it. */
function shown(r: RunResult): string {
  const stdout = r.stdout
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
  return [stdout, r.stderr, r.summary, JSON.stringify(r.outputs), JSON.stringify(r.state)].join(
    '\n',
  );
}

const repositoryOf = (name: string) => `${sim.registry.registryUrl(DEFAULT_TENANT_ID)}/${name}`;
const notices = (r: RunResult) => r.annotations.filter((a) => a.kind === 'notice');
/** The step with `command: registry-login` (the real `docker login`: it needs the CLI). */
const registryLogin = (name: string, config: string, extra: Record<string, string> = {}) => {
  requireDocker();
  return runAction({
    inputs: baseInputs(sim, { command: 'registry-login', name, ...extra }),
    env: { DOCKER_CONFIG: config, RUNNER_DEBUG: '1' },
  });
};
/** The post step of a step, as the runner runs it: same inputs, the state it saved. */
const postStep = (main: RunResult, name: string, config: string) =>
  runAction({
    inputs: baseInputs(sim, { command: 'registry-login', name }),
    env: { DOCKER_CONFIG: config },
    state: main.state,
  });

describe('command: registry-login', () => {
  it('creates the internal_docker deployment, logs docker in with the masked push token, and the post step logs out', async () => {
    const name = uniqueName('img');
    const config = dockerConfig();
    const log = mark(sim);
    const registryLog = sim.registry.requests.length;
    const login = await registryLogin(name, config);
    expectExit(login, 0);

    const id = idOf(sim, name)!;
    expect(byRoute(log.since(), 'POST', '/v2/deployments').map((r) => r.body)).toEqual([
      {
        name,
        source: 'internal_docker',
        source_config: { deployment_type: 'serverless' },
        source_revision_config: {},
        secrets: [ORIGIN_ENTRY],
      },
    ]);
    expect(byRoute(log.since(), 'POST', `/v2/deployments/${id}/push-token`)).toHaveLength(1);
    const host = sim.registry.host;
    expect(login.outputs).toEqual({
      registry: host,
      image: repositoryOf(name),
      'deployment-id': id,
      created: 'true',
    });

    // The real docker CLI went through the bearer challenge and the token exchange.
    expect(sim.registry.requests.slice(registryLog).map((r) => [r.path, r.auth, r.status])).toEqual(
      [
        ['/v2/', 'none', 401],
        ['/token', 'basic', 200],
        ['/v2/', 'bearer', 200],
      ],
    );
    const token = sim.registry.issuedTokens.at(-1)!;
    const stored = Buffer.from(`oauth2accesstoken:${token}`).toString('base64');
    expect(auths(config)[host]).toEqual({ auth: stored });
    // Masked before anything else, and nowhere else: log (debug on), summary, outputs, state.
    expect(login.stdout).toContain(`::add-mask::${token}`);
    expect(shown(login)).not.toContain(token);
    expect(shown(login)).not.toContain(stored);
    expect(login.summary).toContain(name);

    const post = await postStep(login, name, config);
    expectExit(post, 0);
    expect(auths(config)[host]).toBeUndefined();
    expect(post.stdout).toContain(`Logged out of ${host}`);
    expect(shown(post)).not.toContain(token);
  });

  it('finds an existing internal_docker deployment by deployment-id and creates nothing', async () => {
    const name = uniqueName('img');
    const seeded = sim.seedDeployment({ name, source: 'internal_docker' });
    const config = dockerConfig();
    const log = mark(sim);
    const login = await registryLogin('', config, { 'deployment-id': seeded.id });
    expectExit(login, 0);
    expect(byRoute(log.since(), 'POST', '/v2/deployments')).toHaveLength(0);
    expect(login.outputs).toMatchObject({
      'deployment-id': seeded.id,
      created: 'false',
      image: repositoryOf(name),
    });
    expect(Object.keys(auths(config))).toEqual([sim.registry.host]);
  });

  it('refuses a deployment of another source before asking for a token', async () => {
    const name = uniqueName('img');
    sim.seedDeployment({ name, source: 'github' });
    const config = dockerConfig();
    const log = mark(sim);
    const login = await registryLogin(name, config);
    expectExit(login, 1);
    expect(errors(login)[0]!.message).toMatch(/has source 'github'.*internal_docker/);
    expect(byRoute(log.since(), 'POST', /push-token$/)).toHaveLength(0);
    expect(auths(config)).toEqual({});
    expect(login.state).toEqual({ phase: 'main' });
  });

  it('fails with docker’s own words when the registry refuses the login, and saves nothing to log out of', async () => {
    const name = uniqueName('img');
    const config = dockerConfig();
    sim.registry.tokenTtlMs = 0;
    try {
      const login = await registryLogin(name, config);
      expectExit(login, 1);
      const error = errors(login)[0]!.message;
      expect(error).toMatch(
        new RegExp(`\`docker login ${sim.registry.host}\` failed \\(exit code 1\\)`),
      );
      // docker's own diagnostics (`level=info`) are left out; its error is kept.
      expect(error).not.toMatch(/level=info/);
      expect(error).toMatch(/invalid username or push token/);
      expect(login.outputs).not.toHaveProperty('registry');
      expect(login.state).toEqual({ phase: 'main' });
      expect(shown(login)).not.toContain(sim.registry.issuedTokens.at(-1)!);
      const post = await postStep(login, name, config);
      expectExit(post, 0);
      expect(post.stdout).toBe('');
    } finally {
      sim.registry.tokenTtlMs = 60 * 60_000;
    }
  });

  it('needs name or deployment-id, before any request', async () => {
    const log = mark(sim);
    const login = await registryLogin('', dockerConfig());
    expectExit(login, 1);
    expect(errors(login)[0]!.message).toMatch(/`name`.*registry.*`deployment-id`/);
    expect(log.since()).toEqual([]);
  });
});

describe('deploy with source: internal_docker', () => {
  /** A deployment `registry-login` made, with `tag` pushed to it. */
  function pushed(
    tag: string,
    options: Parameters<typeof sim.registry.pushImage>[2] = {},
  ): { name: string; repository: string; digest: string } {
    const name = uniqueName('img');
    sim.seedDeployment({ name, source: 'internal_docker' });
    const image = sim.registry.pushImage(repositoryOf(name), tag, options);
    return { name, ...image };
  }
  const deploy = (name: string, imageUri: string, extra: Record<string, string> = {}) =>
    runAction({
      inputs: baseInputs(sim, { name, source: 'internal_docker', 'image-uri': imageUri, ...extra }),
    });

  it('runs the three steps: registry-login, the push, deploy pinned by digest; then the post step', async () => {
    const name = uniqueName('img');
    const config = dockerConfig();
    const login = await registryLogin(name, config);
    expectExit(login, 0);
    // docker/build-push-action's push, with its `digest` output.
    const { digest } = sim.registry.pushImage(login.outputs['image']!, 'sha-1', {
      platforms: ['linux/amd64', 'unknown/unknown'],
    });
    const log = mark(sim);
    const registryLog = sim.registry.requests.length;
    const result = await deploy(name, `${login.outputs['image']}@${digest}`);
    expectExit(result, 0);
    const id = idOf(sim, name)!;
    expect(result.outputs).toMatchObject({ status: 'DEPLOYED', 'skipped-build': 'false' });
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH).map((r) => r.body)).toEqual([
      { source_revision_config: { image_uri: `${login.outputs['image']}@${digest}` } },
    ]);
    expect(sim.revisions(id)[0]!.source_revision_config.image_uri).toBe(
      `${login.outputs['image']}@${digest}`,
    );
    // The registry calls of one deploy: a fresh push token, then the distribution API.
    expect(byRoute(log.since(), 'POST', `/v2/deployments/${id}/push-token`)).toHaveLength(1);
    const name2 = `langsmith-deployments/${DEFAULT_TENANT_ID}/${name}`;
    expect(
      sim.registry.requests.slice(registryLog).map((r) => [r.method, r.path, r.auth, r.status]),
    ).toEqual([
      ['GET', '/v2/', 'none', 401],
      ['GET', '/token', 'basic', 200],
      ['GET', `/v2/${name2}/manifests/${digest}`, 'bearer', 200],
    ]);
    // A digest needs no resolution: no notice about it.
    expect(notices(result).filter((n) => /resolved/.test(n.message))).toEqual([]);
    const post = await postStep(login, name, config);
    expectExit(post, 0);
    expect(auths(config)).toEqual({});
  });

  it('resolves a tag to its digest and pins the revision to it, with a notice', async () => {
    const { name, repository, digest } = pushed('1.0.0');
    const log = mark(sim);
    const result = await deploy(name, `${repository}:1.0.0`);
    expectExit(result, 0);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH).map((r) => r.body)).toEqual([
      { source_revision_config: { image_uri: `${repository}@${digest}` } },
    ]);
    expect(notices(result).map((n) => n.message)).toContainEqual(
      expect.stringMatching(new RegExp(`:1\\.0\\.0 resolved to ${digest}.*pins`)),
    );
  });

  it('reads the platform of a single manifest from its config blob, through the storage redirect', async () => {
    const { name, repository, digest } = pushed('v1', { index: false, docker: true });
    sim.registry.redirectBlobs = true;
    try {
      const registryLog = sim.registry.requests.length;
      const result = await deploy(name, `${repository}:v1`);
      expectExit(result, 0);
      const calls = sim.registry.requests.slice(registryLog);
      expect(
        calls.map((r) => [r.path.replace(/\/sha256:[0-9a-f]+$/, '/<digest>'), r.auth, r.status]),
      ).toEqual([
        ['/v2/', 'none', 401],
        ['/token', 'basic', 200],
        [expect.stringMatching(/\/manifests\/v1$/), 'bearer', 200],
        [expect.stringMatching(/\/blobs\/<digest>$/), 'bearer', 307],
        // The signed storage URL gets no credential.
        ['/_storage/<digest>', 'none', 200],
      ]);
      expect(sim.revisions(idOf(sim, name)!)[0]!.source_revision_config.image_uri).toBe(
        `${repository}@${digest}`,
      );
    } finally {
      sim.registry.redirectBlobs = false;
    }
  });

  it.each([
    ['an index without linux/amd64', { platforms: ['linux/arm64' as const] }],
    ['a single linux/arm64 manifest', { platforms: ['linux/arm64' as const], index: false }],
  ])('refuses %s, saying how to build it, before any revision', async (_, options) => {
    const { name, repository } = pushed('v2', options);
    const log = mark(sim);
    const result = await deploy(name, `${repository}:v2`);
    expectExit(result, 1);
    const message = errors(result)[0]!.message;
    expect(message).toMatch(/linux\/arm64/);
    expect(message).toMatch(/no linux\/amd64/);
    expect(message).toMatch(/docker\/build-push-action.*platforms: linux\/amd64/);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(0);
  });

  it('refuses a tag that is not in the registry, saying how to push it, before any revision', async () => {
    const { name, repository } = pushed('v3');
    const log = mark(sim);
    const result = await deploy(name, `${repository}:nope`);
    expectExit(result, 1);
    const message = errors(result)[0]!.message;
    expect(message).toMatch(/`image-uri`.*:nope.*not in the registry/);
    expect(message).toMatch(/registry-login.*docker\/build-push-action/);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(0);
  });

  it('refuses an image outside the deployment’s registry before reading any manifest', async () => {
    const { name } = pushed('v4');
    const log = mark(sim);
    const registryLog = sim.registry.requests.length;
    const result = await deploy(name, 'ghcr.io/acme/agent:v4');
    expectExit(result, 1);
    const message = errors(result)[0]!.message;
    expect(message).toMatch(/`image-uri`.*ghcr\.io\/acme\/agent:v4.*not in the registry of/);
    expect(message).toContain(repositoryOf(name));
    expect(sim.registry.requests.slice(registryLog)).toEqual([]);
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(0);
  });

  it('refuses a digest that is not sha256:<64 hex> before any request', async () => {
    const log = mark(sim);
    const result = await deploy('img-x', `${repositoryOf('img-x')}@sha256:abc`);
    expectExit(result, 1);
    expect(errors(result)[0]!.props).toMatch(/Invalid input: image-uri/);
    expect(errors(result)[0]!.message).toMatch(/sha256:.*64/);
    expect(log.since()).toEqual([]);
  });

  it('says to run registry-login first when the deployment does not exist', async () => {
    const name = uniqueName('img');
    const log = mark(sim);
    const result = await deploy(name, `${repositoryOf(name)}:v1`);
    expectExit(result, 1);
    expect(errors(result)[0]!.message).toMatch(/No deployment named.*command: registry-login/);
    expect(byRoute(log.since(), 'POST', '/v2/deployments')).toHaveLength(0);
  });

  it('skips the revision when the live one already runs that digest with the same secrets', async () => {
    const { name, repository } = pushed('v5');
    const secrets = JSON.stringify({ OPENAI_API_KEY: 'sk-images-1' });
    const first = await deploy(name, `${repository}:v5`, { secrets });
    expectExit(first, 0);
    const log = mark(sim);
    const again = await deploy(name, `${repository}:v5`, { secrets });
    expectExit(again, 0);
    expect(again.outputs).toMatchObject({ 'skipped-build': 'true', status: 'DEPLOYED' });
    expect(byRoute(log.since(), 'POST', REVISIONS_PATH)).toHaveLength(0);
    // Other secrets, or another image: a new revision.
    const other = JSON.stringify({ OPENAI_API_KEY: 'sk-images-2' });
    const changed = await deploy(name, `${repository}:v5`, { secrets: other });
    expectExit(changed, 0);
    expect(changed.outputs).toMatchObject({ 'skipped-build': 'false' });
    const rebuilt = sim.registry.pushImage(repository, 'v5', {
      platforms: ['linux/amd64', 'linux/arm64'],
    });
    const moved = await deploy(name, `${repository}:v5`, { secrets: other });
    expectExit(moved, 0);
    expect(moved.outputs).toMatchObject({ 'skipped-build': 'false' });
    expect(sim.revisions(idOf(sim, name)!)[0]!.source_revision_config.image_uri).toBe(
      `${repository}@${rebuilt.digest}`,
    );
  });
});
