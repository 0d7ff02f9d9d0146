import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeployConfig, InputProblem } from '../../src/inputs/config.js';
import { readConfig } from '../../src/inputs/read.js';
import { actionEnv } from '../helpers/fakes.js';
import { defaultOf, INPUTS, type InputName, type InputSpec } from '../../src/inputs/spec.js';
import { CONTRACT_INPUTS } from '../helpers/contract.js';

const KEY = 'lsv2_pt_0123456789abcdef_topsecret';
const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

const dir = mkdtempSync(join(tmpdir(), 'inputs-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Inputs = Record<string, string>;
type Vars = Record<string, string>;

function envOf(inputs: Inputs, vars: Vars = {}): NodeJS.ProcessEnv {
  return actionEnv({ 'api-key': KEY, name: 'my-agent', ...inputs }, vars);
}

function read(inputs: Inputs = {}, vars: Vars = {}) {
  const mask = jest.fn<(value: string) => void>();
  return { result: readConfig(envOf(inputs, vars), { mask }), mask };
}

/** The config of a `deploy` run (the default command). */
function ok(inputs: Inputs = {}, vars: Vars = {}): { config: DeployConfig; notes: string[] } {
  const { result } = read(inputs, vars);
  if (!result.ok) throw new Error(`unexpected problems: ${JSON.stringify(result.problems)}`);
  if (result.config.command !== 'deploy') throw new Error('expected the config of a deploy');
  return { ...result, config: result.config };
}

function problems(inputs: Inputs = {}, vars: Vars = {}): InputProblem[] {
  const { result } = read(inputs, vars);
  if (result.ok) throw new Error('expected input problems, got a config');
  return result.problems;
}

function problemFor(input: string, inputs: Inputs, vars: Vars = {}): InputProblem {
  const found = problems(inputs, vars);
  expect(found.map((p) => p.input)).toEqual([input]);
  return found[0] as InputProblem;
}

function prEvent(headRepo: string, headRef = 'feature/login'): Vars {
  const path = join(dir, `event-${headRepo.replace('/', '_')}-${headRef.replace(/\W/g, '_')}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      number: 12,
      pull_request: {
        number: 12,
        head: { ref: headRef, sha: 'head-sha', repo: { full_name: headRepo } },
        base: { ref: 'main', repo: { full_name: 'acme/agent' } },
      },
    }),
  );
  return {
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_REF: 'refs/pull/12/merge',
    GITHUB_EVENT_PATH: path,
  };
}

/**
 * What the runner passes besides api-key and name when the workflow gives only those two: the
 * contract's defaults (an oracle independent of the code), and the spec's for any input added
 * after the contract.
 */
const RUNNER_DEFAULTS: Inputs = {
  ...Object.fromEntries(
    (Object.keys(INPUTS) as InputName[])
      .filter((n) => n !== 'name' && !(INPUTS[n] as InputSpec).required)
      .map((n) => [n, defaultOf(n)]),
  ),
  ...Object.fromEntries(
    Object.entries(CONTRACT_INPUTS).filter(
      (e): e is [string, string] => e[1] !== undefined && e[0] !== 'name',
    ),
  ),
  'github-token': 'ghs_runnertoken123', // what `${{ github.token }}` becomes
};

describe('defaults', () => {
  it('builds the default config from api-key and name alone', () => {
    const { config, notes } = ok();
    expect(notes).toEqual([]);
    expect(config).toMatchObject({
      command: 'deploy',
      apiKey: KEY,
      region: 'us',
      controlPlaneUrl: 'https://api.host.langchain.com',
      uiBaseUrl: 'https://smith.langchain.com',
      name: 'my-agent',
      wait: true,
      timeoutSeconds: 1800,
      pollIntervalSeconds: 15,
      source: 'github',
      repoUrl: 'https://github.com/acme/agent',
      repoRef: 'main',
      configPath: 'langgraph.json',
      deploymentType: 'serverless',
      buildOnPush: false,
      skipUnchanged: true,
      interruptPrevious: false,
      healthCheck: true,
      prComment: true,
    });
    expect(config).not.toHaveProperty('deleteTracingProject');
    expect(config.secrets).toBeUndefined();
    expect(config.deploymentId).toBeUndefined();
    expect(config.workspaceId).toBeUndefined();
    expect(config.smokeTest).toBeUndefined();
    expect(config.github.repository).toBe('acme/agent');
  });

  it('gives the same config for the values the runner passes from action.yml', () => {
    const { config } = ok(RUNNER_DEFAULTS);
    const { config: bare } = ok();
    expect({ ...config, githubToken: undefined }).toEqual({ ...bare, githubToken: undefined });
    expect(config.githubToken).toBe('ghs_runnertoken123');
  });

  it('lists every input once', () => {
    expect(new Set(Object.keys(INPUTS)).size).toBe(Object.keys(INPUTS).length);
    expect(Object.keys(INPUTS).sort()).toEqual(
      ['api-key', 'name', ...Object.keys(RUNNER_DEFAULTS)].sort(),
    );
  });

  it('passes workspace-id, integration-id and environment through', () => {
    const { config } = ok({
      'workspace-id': UUID,
      'integration-id': UUID,
      environment: 'preview',
    });
    expect(config.workspaceId).toBe(UUID);
    expect(config.integrationId).toBe(UUID);
    expect(config.environment).toBe('preview');
  });
});

describe('workspace-id', () => {
  it.each(['ws-1', 'x\nX-Injected: 1', `${UUID}0`, `{${UUID}}`])(
    'refuses %j: it is sent as X-Tenant-Id and must be a UUID',
    (raw) => {
      const problem = problemFor('workspace-id', { 'workspace-id': raw });
      expect(problem.message).toMatch(/`workspace-id`.*not a workspace ID \(a UUID/s);
    },
  );
});

describe('api-key and masking', () => {
  it('refuses an empty key, explaining forks and Dependabot', () => {
    const problem = problemFor('api-key', { 'api-key': '' });
    expect(problem.message).toMatch(/`api-key` is empty/);
    expect(problem.message).toMatch(/forks or by Dependabot/);
  });

  it('masks the key, the token and every secret value before anything else', () => {
    const { result, mask } = read({
      'github-token': 'ghs_token_value',
      secrets: 'A=alpha-secret\nB=multi\\nline\nC=gamma secret',
    });
    expect(result.ok).toBe(true);
    const masked = mask.mock.calls.map(([v]) => v);
    expect(masked).toEqual(
      expect.arrayContaining([
        KEY,
        'ghs_token_value',
        'alpha-secret',
        'multi\\nline',
        'gamma secret',
      ]),
    );
    expect(masked[0]).toBe(KEY);
  });

  it('masks values even when the run fails, and no problem quotes one', () => {
    const secretValues = [
      'value-of-a',
      'value-of-dup1',
      'value-of-dup2',
      'reserved-val',
      'orphan-line-secret',
    ];
    const { result, mask } = read({
      region: 'mars',
      secrets: `A=value-of-a\nD=value-of-dup1\nD=value-of-dup2\nPORT=reserved-val\norphan-line-secret\nEMPTY=`,
      'smoke-test': '{oops',
    });
    expect(result.ok).toBe(false);
    const masked = mask.mock.calls.map(([v]) => v);
    expect(masked).toEqual(expect.arrayContaining([KEY, ...secretValues]));
    if (result.ok) return;
    const text = result.problems.map((p) => p.message).join('\n');
    for (const value of [KEY, ...secretValues]) expect(text).not.toContain(value);
    expect(result.problems.filter((p) => p.input === 'secrets')).toHaveLength(4);
  });
});

describe('build-log', () => {
  it('defaults to tail and accepts stream and off', () => {
    expect(ok().config.buildLog).toBe('tail');
    expect(ok({ 'build-log': 'stream' }).config.buildLog).toBe('stream');
    expect(ok({ 'build-log': 'off' }).config.buildLog).toBe('off');
  });

  it('refuses anything else, naming the input and the choices', () => {
    expect(problemFor('build-log', { 'build-log': 'verbose' }).message).toBe(
      'Input `build-log` is "verbose"; it must be one of `tail`, `stream`, `off`.',
    );
  });
});

describe('region and control-plane-url', () => {
  it('maps eu to the EU control plane and UI', () => {
    const { config } = ok({ region: 'eu' });
    expect(config.controlPlaneUrl).toBe('https://eu.api.host.langchain.com');
    expect(config.uiBaseUrl).toBe('https://eu.smith.langchain.com');
  });

  it('accepts enum values in any case', () => {
    const { config } = ok({ region: 'EU', command: 'Deploy', 'deployment-type': 'PROD' });
    expect([config.region, config.command, config.deploymentType]).toEqual([
      'eu',
      'deploy',
      'prod',
    ]);
  });

  it('refuses an unknown region, even with control-plane-url set', () => {
    expect(problemFor('region', { region: 'mars' }).message).toMatch(
      /`us`, `eu`, `apac`, `aws-us`/,
    );
    problemFor('region', {
      region: 'asia',
      'control-plane-url': 'https://lgp.example.com/api-host',
    });
  });

  it('uses control-plane-url over region, without trailing slash; UI without /api-host', () => {
    const { config } = ok({
      region: 'eu',
      'control-plane-url': 'https://lgp.example.com/api-host/',
    });
    expect(config.controlPlaneUrl).toBe('https://lgp.example.com/api-host');
    expect(config.uiBaseUrl).toBe('https://lgp.example.com');
  });

  it.each([
    ['us', 'https://api.host.langchain.com', 'https://smith.langchain.com'],
    ['eu', 'https://eu.api.host.langchain.com', 'https://eu.smith.langchain.com'],
    ['apac', 'https://apac.api.host.langchain.com', 'https://apac.smith.langchain.com'],
    ['aws-us', 'https://aws.api.host.langchain.com', 'https://aws.smith.langchain.com'],
  ])('region %s uses %s, and the UI at %s', (region, url, ui) => {
    const { config } = ok({ region });
    expect(config.region).toBe(region);
    expect(config.controlPlaneUrl).toBe(url);
    expect(config.uiBaseUrl).toBe(ui);
  });

  it('follows the CLI rule for any <prefix>.api.host.langchain.com control-plane-url', () => {
    expect(ok({ 'control-plane-url': 'https://xyz.api.host.langchain.com' }).config.uiBaseUrl).toBe(
      'https://xyz.smith.langchain.com',
    );
    expect(ok({ 'control-plane-url': 'https://api.host.langchain.com/' }).config.uiBaseUrl).toBe(
      'https://smith.langchain.com',
    );
  });

  it('keeps the SaaS UI when control-plane-url is the EU control plane', () => {
    const { config } = ok({ 'control-plane-url': 'https://eu.api.host.langchain.com/' });
    expect(config.uiBaseUrl).toBe('https://eu.smith.langchain.com');
  });

  it.each(['http://localhost:8123/', 'http://127.0.0.1:9000', 'http://[::1]:8080/api-host'])(
    'accepts plain http to the loopback host %s',
    (url) => {
      expect(ok({ 'control-plane-url': url }).config.controlPlaneUrl).toBe(url.replace(/\/$/, ''));
    },
  );

  it.each([
    ['http://lgp.example.com/api-host', /clear text/],
    ['http://10.0.0.5:8080', /only for localhost, 127.0.0.1 and \[::1\]/],
    ['ftp://lgp.example.com', /https:\/\//],
    ['not a url', /not a URL/],
    ['https://lgp.example.com/api-host?x=1', /without credentials, query/],
  ])('refuses %s', (url, message) => {
    expect(problemFor('control-plane-url', { 'control-plane-url': url }).message).toMatch(message);
  });
});

describe('command, name and deployment-id', () => {
  it('refuses an unknown command', () => {
    expect(problemFor('command', { command: 'destroy' }).message).toMatch(/`deploy`, `delete`/);
  });

  it('refuses a name outside the platform rule, and says the rule', () => {
    const problem = problemFor('name', { name: 'My_Agent' });
    expect(problem.message).toMatch(/lowercase letters, digits and hyphens/);
    expect(ok({ name: 'my-agent-pr-12' }).config.name).toBe('my-agent-pr-12');
  });

  it.each([
    ['-my-agent', 'my-agent'],
    ['my-agent-', 'my-agent'],
    ['My Agent!', 'my-agent'],
  ])('refuses %j (a hyphen at an end, or other characters) and suggests %j', (name, fixed) => {
    const problem = problemFor('name', { name });
    expect(problem.message).toMatch(/not starting or ending with a hyphen/);
    expect(problem.message).toContain(`e.g. \`${fixed}\``);
  });

  it('needs name or deployment-id', () => {
    expect(problemFor('name', { name: '' }).message).toMatch(/`name`.*`deployment-id`/);
    const { config } = ok({ name: '', 'deployment-id': UUID });
    expect(config.deploymentId).toBe(UUID);
    expect(config.name).toBeUndefined();
  });

  it('refuses a deployment-id that is not a UUID', () => {
    expect(problemFor('deployment-id', { 'deployment-id': 'my-agent' }).message).toMatch(/UUID/);
    expect(ok({ 'deployment-id': UUID.toUpperCase() }).config.deploymentId).toBe(
      UUID.toUpperCase(),
    );
  });
});

describe('source-specific inputs', () => {
  it('refuses an unknown source', () => {
    expect(problemFor('source', { source: 'gitlab' }).message).toMatch(
      /`github`, `external_docker`/,
    );
  });

  it('refuses external_docker inputs with source github, one problem each', () => {
    const found = problems({
      'image-uri': 'img:1',
      'custom-url': 'https://a.example.com',
      'listener-id': UUID,
      'k8s-namespace': 'ns',
      'resource-spec': '{}',
    });
    expect(found.map((p) => p.input)).toEqual([
      'image-uri',
      'custom-url',
      'listener-id',
      'k8s-namespace',
      'resource-spec',
    ]);
    expect(found[0]?.message).toMatch(/applies only to `source: external_docker`/);
  });

  it('refuses github inputs with source external_docker', () => {
    const found = problems({
      source: 'external_docker',
      'image-uri': 'img:1',
      'integration-id': UUID,
      'repo-url': 'https://github.com/acme/agent',
      'repo-ref': 'main',
    });
    expect(found.map((p) => p.input)).toEqual(['integration-id', 'repo-url', 'repo-ref']);
    expect(found[0]?.message).toMatch(/applies only to `source: github`/);
  });

  it('reads an external_docker deployment', () => {
    const { config } = ok({
      ...RUNNER_DEFAULTS,
      source: 'external_docker',
      'image-uri': 'registry.example.com/agent:abc',
      'custom-url': 'https://agent.example.com/',
      'listener-id': UUID,
      'k8s-namespace': 'agents',
      'resource-spec': '{"min_scale": 1}',
    });
    expect(config).toMatchObject({
      source: 'external_docker',
      imageUri: 'registry.example.com/agent:abc',
      customUrl: 'https://agent.example.com',
      listenerId: UUID,
      k8sNamespace: 'agents',
      resourceSpec: { min_scale: 1 },
    });
    expect(config.repoUrl).toBeUndefined();
    expect(config.repoRef).toBeUndefined();
  });

  it('reads internal_docker: image-uri by tag or by a sha256 digest, required', () => {
    const image = 'reg.io/langsmith/tenant/my-agent';
    const digest = `sha256:${'0'.repeat(64)}`;
    for (const uri of [`${image}:v1`, `${image}@${digest}`]) {
      expect(ok({ source: 'internal_docker', 'image-uri': uri }).config).toMatchObject({
        source: 'internal_docker',
        imageUri: uri,
      });
    }
    for (const uri of ['', `${image}@sha256:abc`, `${image}@sha512:${'0'.repeat(128)}`]) {
      const problem = problemFor('image-uri', { source: 'internal_docker', 'image-uri': uri });
      expect(problem.message).toMatch(/sha256:.*64 lowercase hex.*steps\.login\.outputs\.image/);
    }
    // The inputs of external_docker's own data plane do not apply.
    const found = problems({
      source: 'internal_docker',
      'image-uri': `${image}:v1`,
      'listener-id': UUID,
    });
    expect(found.map((p) => p.input)).toEqual(['listener-id']);
  });

  it('needs image-uri for external_docker', () => {
    expect(problemFor('image-uri', { source: 'external_docker' }).message).toMatch(/required/);
  });

  it('needs listener-id for k8s-namespace', () => {
    const inputs = { source: 'external_docker', 'image-uri': 'img:1', 'k8s-namespace': 'ns' };
    expect(problemFor('k8s-namespace', inputs).message).toMatch(/needs `listener-id`/);
  });

  it('refuses a custom-url that is not an http(s) URL', () => {
    problemFor('custom-url', {
      source: 'external_docker',
      'image-uri': 'i',
      'custom-url': 'agent.local',
    });
  });

  it.each([
    ['[1, 2]', /must be a JSON object.*not an array/],
    ['null', /not null/],
    ['{"cpu": ', /not valid JSON: .*line 1/],
  ])('refuses resource-spec %s', (spec, message) => {
    const inputs = { source: 'external_docker', 'image-uri': 'i', 'resource-spec': spec };
    expect(problemFor('resource-spec', inputs).message).toMatch(message);
  });

  it('refuses an unknown deployment-type and accepts both pricing families (v1.3)', () => {
    expect(problemFor('deployment-type', { 'deployment-type': 'huge' }).message).toMatch(
      /`serverless`, `dedicated`, `dev_free`, `dev`, `prod`, `dev_zero`, `dev_free_zero`/,
    );
    expect(ok({}).config.deploymentType).toBe('serverless');
    for (const type of ['serverless', 'dedicated', 'dev_free', 'dev', 'prod', 'dev_zero']) {
      expect(ok({ 'deployment-type': type }).config.deploymentType).toBe(type);
    }
  });

  it('refuses a repo-url that is not an http(s) URL', () => {
    problemFor('repo-url', { 'repo-url': 'git@github.com:acme/agent.git' });
    expect(ok({ 'repo-url': 'https://github.com/acme/other' }).config.repoUrl).toBe(
      'https://github.com/acme/other',
    );
  });

  it('needs repo-url when the repository is unknown', () => {
    expect(problemFor('repo-url', {}, { GITHUB_REPOSITORY: '' }).message).toMatch(/Set `repo-url`/);
  });
});

describe('booleans', () => {
  it.each(['wait', 'health-check', 'pr-comment', 'build-on-push'])(
    'refuses a non-boolean %s and names the accepted values',
    (input) => {
      const problem = problemFor(input, { [input]: 'yes' });
      expect(problem.message).toContain(`\`${input}\``);
      expect(problem.message).toMatch(/true, True, TRUE, false, False or FALSE/);
    },
  );

  it('accepts the YAML 1.2 spellings', () => {
    const { config } = ok({ wait: 'False', 'health-check': 'FALSE', 'pr-comment': 'false' });
    expect([config.wait, config.healthCheck, config.prComment]).toEqual([false, false, false]);
  });

  it('checks delete-tracing-project with command delete', () => {
    problemFor('delete-tracing-project', { command: 'delete', 'delete-tracing-project': 'sure' });
    const { result } = read({ command: 'delete', 'delete-tracing-project': 'true' });
    expect(result.ok && result.config).toMatchObject({ deleteTracingProject: true });
  });
});

describe('build-on-push', () => {
  it('refuses true with an explicit tag ref', () => {
    const problem = problemFor('build-on-push', {
      'build-on-push': 'true',
      'repo-ref': 'refs/tags/v1.0.0',
    });
    expect(problem.message).toMatch(/tag refs\/tags\/v1.0.0/);
  });

  it('refuses true on a tag push (derived ref)', () => {
    problemFor('build-on-push', { 'build-on-push': 'true' }, { GITHUB_REF: 'refs/tags/v2.1.0' });
  });

  it('warns that every push then builds twice', () => {
    const { config, notes } = ok({ 'build-on-push': 'true' });
    expect(config.buildOnPush).toBe(true);
    expect(notes).toEqual([expect.stringMatching(/every push to main then builds twice/)]);
  });
});

describe('an empty github-token', () => {
  it('says which reports it skips: the PR comment and the GitHub deployment', () => {
    const pr = prEvent('acme/agent');
    expect(ok({}, pr).notes).toEqual([
      expect.stringMatching(/^Input `github-token` is empty, so this run skips the PR comment\. /),
    ]);
    expect(ok({ environment: 'preview' }, pr).notes).toEqual([
      expect.stringContaining(
        'skips the PR comment and the GitHub deployment of `environment` "preview"',
      ),
    ]);
    expect(ok({ environment: 'preview', 'pr-comment': 'false' }, pr).notes).toEqual([
      expect.stringContaining('skips the GitHub deployment of `environment` "preview". Leave'),
    ]);
  });

  it('says nothing when a token is given or no report needs one', () => {
    expect(
      ok({ 'github-token': 'ghs_x', environment: 'preview' }, prEvent('acme/agent')).notes,
    ).toEqual([]);
    expect(ok({ 'pr-comment': 'false' }, prEvent('acme/agent')).notes).toEqual([]);
    expect(ok().notes).toEqual([]);
  });
});

describe('secrets, smoke-test, timeout and poll-interval', () => {
  it('parses secrets into the config', () => {
    const { config } = ok({ secrets: 'OPENAI_API_KEY=sk-1\n# comment\nMODEL= gpt x' });
    expect(config.secrets).toEqual([
      { name: 'OPENAI_API_KEY', value: 'sk-1' },
      { name: 'MODEL', value: ' gpt x' },
    ]);
  });

  it('reports secrets problems under the input secrets', () => {
    const found = problems({ secrets: 'OPENAI_API_KEY=\nLANGSMITH_API_KEY=x' });
    expect(found.map((p) => p.input)).toEqual(['secrets', 'secrets']);
    expect(found[0]?.message).toMatch(/^`secrets`: OPENAI_API_KEY is empty: is the GitHub secret/);
  });

  it('accepts any JSON value as smoke-test', () => {
    expect(
      ok({ 'smoke-test': '{"messages": [{"role": "user", "content": "hi"}]}' }).config.smokeTest,
    ).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(ok({ 'smoke-test': '"hello"' }).config.smokeTest).toBe('hello');
  });

  it('refuses invalid smoke-test JSON with its position', () => {
    const problem = problemFor('smoke-test', { 'smoke-test': '{\n  "messages": [1,, 2]\n}' });
    expect(problem.message).toMatch(/not valid JSON: .*line 2, column 18/);
  });

  it('notes a smoke-test-assistant without smoke-test', () => {
    const { config, notes } = ok({ 'smoke-test-assistant': 'agent' });
    expect(config.smokeTestAssistant).toBe('agent');
    expect(notes).toEqual([expect.stringMatching(/no smoke run/)]);
  });

  it.each(['timeout', 'poll-interval'])('refuses a %s that is not a positive number', (input) => {
    for (const bad of ['abc', '0', '-5', 'NaN', '1e3', 'Infinity', '0.0']) {
      expect(problemFor(input, { [input]: bad }).message).toMatch(/positive number of seconds/);
    }
  });

  it('accepts decimal seconds, and a poll interval longer than the timeout', () => {
    const { config } = ok({ timeout: '2.5', 'poll-interval': '30' });
    expect(config.timeoutSeconds).toBe(2.5);
    expect(config.pollIntervalSeconds).toBe(30);
    expect(ok({ 'poll-interval': '.25' }).config.pollIntervalSeconds).toBe(0.25);
  });
});

describe('repo-ref derivation', () => {
  it('uses the head branch on a pull request', () => {
    const { config } = ok({}, prEvent('acme/agent', 'feature/login'));
    expect(config.repoRef).toBe('feature/login');
    expect(config.github.pullRequest?.number).toBe(12);
  });

  it('uses GITHUB_HEAD_REF when the payload cannot be read', () => {
    const vars = {
      ...prEvent('acme/agent'),
      GITHUB_EVENT_PATH: join(dir, 'missing.json'),
      GITHUB_HEAD_REF: 'fix/x',
    };
    expect(ok({}, vars).config.repoRef).toBe('fix/x');
  });

  it('refuses a pull request from a fork and suggests external_docker', () => {
    const problem = problemFor('repo-ref', {}, prEvent('someone/agent'));
    expect(problem.message).toMatch(/comes from someone\/agent/);
    expect(problem.message).toMatch(/base repository acme\/agent/);
    expect(problem.message).toMatch(/`source: external_docker`/);
  });

  it('accepts a fork pull request when repo-ref or repo-url say what to build', () => {
    expect(ok({ 'repo-ref': 'main' }, prEvent('someone/agent')).config.repoRef).toBe('main');
    const fromFork = ok(
      { 'repo-url': 'https://github.com/someone/agent' },
      prEvent('someone/agent'),
    );
    expect(fromFork.config.repoRef).toBe('feature/login');
  });

  it('uses refs/tags/<tag> on a tag push', () => {
    expect(ok({}, { GITHUB_REF: 'refs/tags/v1.2.0' }).config.repoRef).toBe('refs/tags/v1.2.0');
  });

  it('uses the branch name on other events', () => {
    const vars = { GITHUB_EVENT_NAME: 'workflow_dispatch', GITHUB_REF: 'refs/heads/release/1.x' };
    expect(ok({}, vars).config.repoRef).toBe('release/1.x');
  });

  it('refuses a ref that is neither branch nor tag', () => {
    expect(problemFor('repo-ref', {}, { GITHUB_REF: '' }).message).toMatch(/Set `repo-ref`/);
  });

  it('keeps an explicit repo-ref', () => {
    expect(ok({ 'repo-ref': 'develop' }, { GITHUB_REF: 'refs/tags/v1' }).config.repoRef).toBe(
      'develop',
    );
  });
});

describe('all problems at once', () => {
  it('reports every problem in one result, each naming its input', () => {
    const found = problems({
      'api-key': '',
      region: 'mars',
      'control-plane-url': 'http://example.com',
      name: 'Bad Name',
      wait: 'maybe',
      timeout: '0',
      'poll-interval': 'fast',
      'image-uri': 'img',
      'deployment-type': 'big',
      'build-on-push': 'y',
      secrets: 'X=',
      'smoke-test': '{',
      'health-check': 'no',
    });
    expect(found.map((p) => p.input).sort()).toEqual(
      [
        'api-key',
        'region',
        'control-plane-url',
        'name',
        'wait',
        'timeout',
        'poll-interval',
        'image-uri',
        'deployment-type',
        'build-on-push',
        'secrets',
        'smoke-test',
        'health-check',
      ].sort(),
    );
    for (const problem of found) expect(problem.message).toContain(`\`${problem.input}\``);
  });
});

describe('command: delete', () => {
  it('ignores deploy-only inputs', () => {
    const { result } = read(
      {
        command: 'delete',
        source: 'gitlab',
        'image-uri': 'img',
        'resource-spec': '[',
        'smoke-test': '{',
        secrets: 'EMPTY=',
        'build-on-push': 'maybe',
        'deployment-type': 'huge',
        'health-check': 'nope',
      },
      prEvent('someone/agent'),
    );
    expect(result.ok && result.config).toMatchObject({ command: 'delete', name: 'my-agent' });
    for (const key of ['secrets', 'repoRef', 'imageUri']) {
      expect(result.ok && result.config).not.toHaveProperty(key);
    }
  });

  it('still checks what it uses', () => {
    const found = problems({
      command: 'delete',
      'api-key': '',
      name: '',
      region: 'xx',
      timeout: '-1',
      wait: 'nah',
      'delete-tracing-project': 'ok',
    });
    expect(found.map((p) => p.input).sort()).toEqual(
      ['api-key', 'name', 'region', 'timeout', 'wait', 'delete-tracing-project'].sort(),
    );
    expect(found.find((p) => p.input === 'name')?.message).toMatch(/which deployment to delete/);
  });
});

describe('source: upload, install-command and build-command', () => {
  const upload = { 'api-key': 'k', name: 'my-agent', source: 'upload' };

  it('reads config-path and deployment-type, and keeps both commands', () => {
    const { config } = ok({
      ...upload,
      'config-path': 'apps/agent/langgraph.json',
      'deployment-type': 'prod',
      'install-command': 'npm ci',
      'build-command': 'npm run build && npm test',
    });
    expect(config.source).toBe('upload');
    expect(config.configPath).toBe('apps/agent/langgraph.json');
    expect(config.deploymentType).toBe('prod');
    expect(config.installCommand).toBe('npm ci');
    expect(config.buildCommand).toBe('npm run build && npm test');
  });

  it('refuses github-only and external_docker-only inputs with upload, naming each', () => {
    const found = problems({
      ...upload,
      'integration-id': 'x',
      'repo-ref': 'main',
      'image-uri': 'i',
    });
    expect(found.map((p) => p.input).sort()).toEqual(['image-uri', 'integration-id', 'repo-ref']);
    expect(found.find((p) => p.input === 'repo-ref')!.message).toMatch(
      /applies only to `source: github`, and this run deploys with `source: upload`/,
    );
  });

  it('refuses the commands with external_docker', () => {
    expect(
      problemFor('install-command', {
        'api-key': 'k',
        name: 'a',
        source: 'external_docker',
        'image-uri': 'r/i:1',
        'install-command': 'npm ci',
      }).message,
    ).toMatch(/`source: github` or `source: upload`/);
  });

  it('refuses a command that breaks the platform rule, for github too, without echoing it', () => {
    const problem = problemFor('build-command', {
      'api-key': 'k',
      name: 'a',
      'integration-id': 'x',
      'build-command': 'npm run build > out.log',
    });
    expect(problem.message).toMatch(/redirection/);
    expect(problem.message).not.toContain('out.log');
  });
});
