/**
 * `command: registry-login`, unit level: its inputs, the login (against the simulator, with
 * the real docker CLI and a temporary DOCKER_CONFIG), what it saves for the post step, and the
 * post step's logout.
 */
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  jest,
} from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlaneClient } from '../../src/api/client.js';
import type { HttpContext } from '../../src/api/http/request.js';
import { registryLogout, runRegistryLogin } from '../../src/commands/registry-login.js';
import type { RunContext } from '../../src/commands/context.js';
import type { RegistryLoginConfig } from '../../src/inputs/config.js';
import { readConfig } from '../../src/inputs/read.js';
import { Deadline, systemClock } from '../../src/lib/time.js';
import { DEFAULT_TENANT_ID, startSimulator, type Simulator } from '../../simulator/index.js';
import { actionEnv, recordingLogger } from '../helpers/fakes.js';

const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('registry-login inputs', () => {
  const read = (inputs: Record<string, string>) =>
    readConfig(actionEnv({ 'api-key': 'key', command: 'registry-login', ...inputs }), {
      mask: jest.fn(),
    });

  it('takes name or deployment-id, and the deployment-type of a create', () => {
    const byName = read({ name: 'my-agent', 'deployment-type': 'prod' });
    expect(byName.ok && byName.config).toMatchObject({
      command: 'registry-login',
      name: 'my-agent',
      deploymentType: 'prod',
    });
    const byId = read({ 'deployment-id': UUID });
    expect(byId.ok && byId.config).toMatchObject({
      deploymentId: UUID,
      deploymentType: 'serverless',
    });
  });

  it('names the input when neither is set, or the type is unknown', () => {
    const none = read({});
    expect(!none.ok && none.problems).toEqual([
      { input: 'name', message: expect.stringMatching(/`name`.*registry.*`deployment-id`/) },
    ]);
    const type = read({ name: 'my-agent', 'deployment-type': 'large' });
    expect(!type.ok && type.problems.map((p) => p.input)).toEqual(['deployment-type']);
  });
});

describe('runRegistryLogin and the post step', () => {
  let sim: Simulator;
  let dir: string;
  const saved = { ...process.env };
  beforeAll(async () => {
    sim = await startSimulator();
    if (spawnSync('docker', ['--version']).status !== 0) {
      throw new Error(
        'These tests run the real docker CLI: install it (see __tests__/e2e/images.test.ts).',
      );
    }
  });
  afterAll(() => sim.close());
  beforeEach(() => {
    sim.reset();
    dir = mkdtempSync(join(tmpdir(), 'registry-login-'));
    // The docker CLI reads DOCKER_CONFIG; @actions/core writes the state file and reads STATE_*.
    process.env['DOCKER_CONFIG'] = join(dir, 'docker');
    process.env['GITHUB_STATE'] = join(dir, 'state');
    process.env['GITHUB_STEP_SUMMARY'] = join(dir, 'summary');
    writeFileSync(join(dir, 'state'), '');
  });
  afterEach(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });

  function context(inputs: Partial<RegistryLoginConfig> = {}) {
    const logger = recordingLogger();
    const deadline = new Deadline(systemClock, Date.now() + 30_000);
    const http: HttpContext = { clock: systemClock, deadline, logger, baseDelayMs: 1 };
    const outputs: Record<string, string> = {};
    const ctx: RunContext<RegistryLoginConfig> = {
      config: {
        command: 'registry-login',
        name: 'img',
        deploymentType: 'dev',
        apiKey: sim.apiKey,
        region: 'us',
        controlPlaneUrl: sim.url,
        uiBaseUrl: sim.url,
        timeoutSeconds: 30,
        pollIntervalSeconds: 1,
        prComment: false,
        github: {
          eventName: 'push',
          ref: 'refs/heads/main',
          sha: 'a'.repeat(40),
          repository: 'acme/agent',
          serverUrl: 'https://github.com',
          apiUrl: 'https://api.github.invalid',
          runId: '1',
          runAttempt: '1',
          workspace: dir,
        },
        ...inputs,
      } as RegistryLoginConfig,
      clock: systemClock,
      deadline,
      signal: new AbortController().signal,
      logger,
      http,
      client: new ControlPlaneClient({
        baseUrl: sim.url,
        apiKey: sim.apiKey,
        http,
        mask: () => {},
      }),
      state: { report: { command: 'registry-login', timeline: [], outcome: 'failure' } },
      output(name, value) {
        if (value !== undefined) outputs[name] = String(value);
      },
    };
    return { ctx, logger, outputs };
  }
  const auths = () => {
    const file = join(dir, 'docker', 'config.json');
    return existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as { auths: Record<string, unknown> }).auths
      : {};
  };
  const state = () => readFileSync(join(dir, 'state'), 'utf8');

  it('logs in, writes the outputs, saves the host for the post step, which logs out', async () => {
    const { ctx, logger, outputs } = context();
    expect(await runRegistryLogin(ctx)).toBe(0);
    const host = sim.registry.host;
    expect(outputs).toEqual({
      'deployment-id': sim.deployments()[0]!.id,
      created: 'true',
      registry: host,
      image: `${sim.registry.registryUrl(DEFAULT_TENANT_ID)}/img`,
    });
    expect(Object.keys(auths())).toEqual([host]);
    expect(state()).toContain(`registry<<`);
    expect(state()).toContain(`\n${host}\n`);
    expect(ctx.state.report).toMatchObject({ outcome: 'success', created: true });
    expect(logger.text()).toMatch(/Created deployment 'img'.*docker is logged in/);
    expect(readFileSync(join(dir, 'summary'), 'utf8')).toMatch(/🔑 .*logged in.*`img`/);

    process.env['STATE_registry'] = host;
    const post = recordingLogger();
    await registryLogout(post);
    expect(auths()).toEqual({});
    expect(post.text()).toBe(`info: Logged out of ${host}.`);
  });

  it('saves nothing to log out of when docker login fails, and the post step does nothing', async () => {
    sim.registry.tokenTtlMs = 0;
    const { ctx } = context();
    await expect(runRegistryLogin(ctx)).rejects.toThrow(
      /`docker login .*` failed \(exit code 1\).*invalid username or push token/,
    );
    expect(state()).toBe('');
    const post = recordingLogger();
    await registryLogout(post);
    expect(post.entries).toEqual([]);
  });

  it('warns, without failing, when docker logout fails', async () => {
    process.env['STATE_registry'] = '127.0.0.1:9';
    process.env['PATH'] = '';
    const post = recordingLogger();
    await registryLogout(post);
    expect(post.warnings().map((w) => w.message)).toEqual([
      expect.stringMatching(
        /`docker logout 127\.0\.0\.1:9` failed: .*not on PATH.*expires on its own/,
      ),
    ]);
  });
});
