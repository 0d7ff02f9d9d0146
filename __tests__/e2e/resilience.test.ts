/**
 * End to end against the simulator's fault injection: the bundle (`node dist/index.js`, or
 * E2E_DIST) runs as the GitHub runner runs it, and each test names one behaviour of the
 * contract for transient faults, lost answers, error answers and input errors.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../simulator/index.js';
import { runAction, type RunResult } from '../../scripts/run-action.js';

const INTEGRATION_ID = '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c';
const REPO_URL = 'https://github.com/acme/agent'; // what run-action's GITHUB_* variables give
const LIST = '/v2/deployments';
const REVISION = /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+$/;
const FAST = [
  { status: 'QUEUED', durationMs: 30 },
  { status: 'BUILDING', durationMs: 30 },
  { status: 'DEPLOYED', durationMs: 0 },
];

let sim: Simulator;

async function start(options: SimulatorOptions = {}): Promise<Simulator> {
  sim = await startSimulator({ timeline: FAST, ...options });
  return sim;
}

afterEach(async () => {
  await sim?.close();
});

function deployInputs(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'api-key': sim.apiKey,
    'control-plane-url': sim.url,
    name,
    'integration-id': INTEGRATION_ID,
    'poll-interval': '0.2',
    timeout: '30',
    ...extra,
  };
}

function errors(r: RunResult) {
  return r.annotations.filter((a) => a.kind === 'error');
}

function errorText(r: RunResult): string {
  return errors(r)
    .map((a) => `${a.props} ${a.message}`)
    .join('\n');
}

function calls(method: string, path: string | RegExp) {
  return sim.requests.filter(
    (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );
}

function named(name: string) {
  return sim.deployments().filter((d) => d.name === name);
}

/** On failure, the whole run in the Jest message. */
function explain(r: RunResult): string {
  return `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

describe('transient faults are retried and the deploy succeeds', () => {
  beforeEach(() => start());

  test('429 with Retry-After: 1 on the lookup: the retry waits at least 1 s', async () => {
    sim.inject({
      kind: 'status',
      status: 429,
      method: 'GET',
      path: LIST,
      headers: { 'retry-after': '1' },
      body: { detail: 'Rate limit exceeded: retry in 1 s.' },
    });
    const r = await runAction({ inputs: deployInputs('res-429') });
    expect({ code: r.code, status: r.outputs.status }).toEqual({ code: 0, status: 'DEPLOYED' });
    const i = sim.requests.findIndex((q) => q.status === 429);
    expect(i).toBeGreaterThanOrEqual(0);
    const next = sim.requests[i + 1]!;
    expect(`${next.method} ${next.path}`).toBe(`GET ${LIST}`);
    // As given: at least the 1 s asked for, and not the longer default wait of a bare 429.
    expect(next.at - sim.requests[i]!.at).toBeGreaterThanOrEqual(1000);
    expect(next.at - sim.requests[i]!.at).toBeLessThan(3000);
  });

  test('three 503s in a row on GET revision: still followed to DEPLOYED', async () => {
    sim.inject({ kind: 'status', status: 503, method: 'GET', path: REVISION, times: 3 });
    const r = await runAction({ inputs: deployInputs('res-503-burst') });
    expect(r.code).toBe(0);
    expect(r.outputs.status).toBe('DEPLOYED');
    expect(calls('GET', REVISION).filter((q) => q.status === 503)).toHaveLength(3);
    expect(errors(r)).toEqual([]);
  });

  test('a connection reset on the lookup is retried', async () => {
    sim.inject({ kind: 'reset', method: 'GET', path: LIST });
    const r = await runAction({ inputs: deployInputs('res-reset-list') });
    expect(r.code).toBe(0);
    const lists = calls('GET', LIST);
    expect(lists.map((q) => q.status)).toEqual(['reset', 200]);
    expect(named('res-reset-list')).toHaveLength(1);
  });
});

describe('a create whose answer was lost never makes a second deployment', () => {
  beforeEach(() => start());

  test.each([
    ['commit-then-reset', { kind: 'commit-then-reset' as const }],
    ['commit-then-status 502', { kind: 'commit-then-status' as const, status: 502 }],
  ])('%s on POST: one deployment, created=true, its revision followed', async (label, fault) => {
    const name = `res-lost-${label.split(' ')[0]}`;
    sim.inject({ ...fault, method: 'POST', path: LIST });
    const r = await runAction({ inputs: deployInputs(name) });
    expect(r.code).toBe(0);
    const deps = named(name);
    expect(deps).toHaveLength(1);
    const dep = deps[0]!;
    const revisions = sim.revisions(dep.id);
    expect(revisions).toHaveLength(1);
    expect(r.outputs).toMatchObject({
      created: 'true',
      'deployment-id': dep.id,
      'revision-id': revisions[0]!.id,
      status: 'DEPLOYED',
    });
    // One POST only: the run looked the name up and adopted what its create had made.
    expect(calls('POST', LIST)).toHaveLength(1);
    expect(calls('PATCH', /.*/)).toHaveLength(0);
  });
});

describe('error answers fail with advice, exit 1', () => {
  test.each([
    ['the deployment list', 'GET', LIST],
    ['GET revision', 'GET', REVISION],
  ])('malformed JSON on %s: "invalid response", no SyntaxError', async (_label, method, path) => {
    await start();
    sim.inject({ kind: 'malformed-json', method, path, times: 10 });
    const r = await runAction({ inputs: deployInputs('res-bad-json') });
    expect(r.code).toBe(1);
    expect(errorText(r)).toMatch(/invalid response/i);
    expect(errorText(r)).toMatch(/not JSON/);
    expect(r.stdout + r.stderr).not.toMatch(/SyntaxError|Unexpected token|\n\s+at /);
  });

  test('401 (wrong key): advises checking the api-key secret, no retry', async () => {
    await start();
    const r = await runAction({
      inputs: { ...deployInputs('res-401'), 'api-key': 'lsv2_wrong-key-for-401' },
    });
    expect(r.code).toBe(1);
    const [error] = errors(r);
    expect(error?.props).toContain('title=API key rejected');
    expect(error?.message).toMatch(/401/);
    expect(error?.message).toMatch(/`api-key` secret/);
    expect(sim.requests).toHaveLength(1);
  });

  test('403 from a key that needs a workspace: advises workspace-id', async () => {
    await start({ requireTenant: true });
    const r = await runAction({ inputs: deployInputs('res-403') });
    expect(r.code).toBe(1);
    expect(errorText(r)).toMatch(/403/);
    expect(errorText(r)).toMatch(
      /organization-scoped and needs a workspace: set input `workspace-id`/,
    );
    expect(errors(r)[0]?.props).toContain('title=Workspace needed');
    expect(sim.requests).toHaveLength(1);
    expect(named('res-403')).toHaveLength(0);
  });

  test('403 "not enabled": LangSmith Deployment needs the Plus plan or an admin (v1.3)', async () => {
    await start();
    const detail = 'LangSmith Deployment is not enabled for this organization.';
    sim.inject({ kind: 'status', status: 403, body: { detail } });
    const r = await runAction({ inputs: deployInputs('res-403-off') });
    expect(r.code).toBe(1);
    expect(errors(r)[0]?.props).toContain('title=LangSmith Deployment not enabled');
    expect(errorText(r)).toMatch(/needs the Plus plan or above .* or an organization admin/);
    expect(sim.requests).toHaveLength(1);
  });

  test('422 on create: each validation error on its own line, naming the field', async () => {
    await start();
    sim.inject({
      kind: 'status',
      status: 422,
      method: 'POST',
      path: LIST,
      body: {
        detail: [
          {
            loc: ['body', 'source_config', 'integration_id'],
            msg: 'Field required',
            type: 'missing',
            input: { repo_url: REPO_URL },
          },
          {
            loc: ['body', 'source_revision_config', 'repo_ref'],
            msg: 'String should have at least 1 character',
            type: 'string_too_short',
            input: '',
          },
        ],
      },
    });
    const r = await runAction({ inputs: deployInputs('res-422') });
    expect(r.code).toBe(1);
    const [error] = errors(r);
    expect(error?.props).toContain('title=Request rejected as invalid');
    const lines = error!.message.split('\n');
    expect(lines).toContainEqual(
      expect.stringContaining('source_config.integration_id: Field required'),
    );
    expect(lines).toContainEqual(
      expect.stringContaining(
        'source_revision_config.repo_ref: String should have at least 1 character',
      ),
    );
    expect(calls('POST', LIST)).toHaveLength(1);
  });

  test("422 from the simulator's own validation is rendered field by field", async () => {
    await start();
    const r = await runAction({
      inputs: deployInputs('res-422-own', { 'integration-id': 'not-a-uuid' }),
    });
    expect(r.code).toBe(1);
    expect(errorText(r)).toMatch(/source_config\.integration_id: .*\(input `integration-id`\)/);
    expect(named('res-422-own')).toHaveLength(0);
  });

  test('404 on the new revision and on its PATCH (deployment gone): the error names the deployment ID', async () => {
    await start();
    const seeded = sim.seedDeployment({ name: 'res-patch-404', repoUrl: REPO_URL });
    const revisions = `${LIST}/${seeded.id}/revisions`;
    sim.inject({ kind: 'status', status: 404, method: 'POST', path: revisions });
    sim.inject({ kind: 'status', status: 404, method: 'PATCH', path: `${LIST}/${seeded.id}` });
    const r = await runAction({ inputs: deployInputs('res-patch-404') });
    expect(r.code).toBe(1);
    expect(errorText(r)).toContain(seeded.id);
    expect(errorText(r)).toMatch(/404/);
    // The 404 of the revisions endpoint may mean an older install: the PATCH, once, tells.
    expect(calls('POST', revisions)).toHaveLength(1);
    expect(calls('PATCH', /.*/)).toHaveLength(1);
  });

  test('persistent 500 on the lookup: fails within a bounded time, naming HTTP 500', async () => {
    await start();
    sim.inject({ kind: 'status', status: 500, method: 'GET', path: LIST, times: 1000 });
    const r = await runAction({
      inputs: deployInputs('res-500', { timeout: '600' }),
      timeoutMs: 20_000,
    });
    expect(r.code).toBe(1);
    expect(r.elapsedMs).toBeLessThan(15_000);
    expect(errorText(r)).toMatch(/HTTP 500/);
    expect(errorText(r)).toMatch(/platform may be having trouble/);
    expect(errorText(r)).not.toContain('..'); // the server's detail ends with its own period
    // Bounded: at most 5 attempts of the one request.
    expect(calls('GET', LIST).length).toBeLessThanOrEqual(5);
    expect(calls('POST', LIST)).toHaveLength(0);
  });
});

describe('input errors: reported before any request', () => {
  beforeEach(() => start());

  async function inputError(inputs: Record<string, string>, ref?: string) {
    const r = await runAction({
      inputs: { 'api-key': sim.apiKey, 'control-plane-url': sim.url, name: 'res-input', ...inputs },
      ...(ref ? { ref } : {}),
    });
    expect(r.code).toBe(1);
    expect(sim.requests).toEqual([]);
    return r;
  }

  function titled(r: RunResult, input: string): string {
    const found = errors(r).find((a) => a.props === `title=Invalid input: ${input}`);
    if (!found) throw new Error(`no error titled for ${input}\n${explain(r)}`);
    return found.message;
  }

  test('empty api-key: explains forks and Dependabot', async () => {
    const r = await inputError({ 'api-key': '' });
    const message = titled(r, 'api-key');
    expect(message).toMatch(/fork/);
    expect(message).toMatch(/Dependabot/);
    expect(r.summary).toContain('### ❌ 1 input error: nothing was deployed');
    expect(r.summary).toMatch(/\| `api-key` \| .*Dependabot/);
  });

  test.each([
    ['command', 'redeploy'],
    ['source', 'gitlab'],
    ['region', 'ap'],
    ['timeout', 'ten'],
  ])('unknown or malformed %s', async (input, value) => {
    const r = await inputError({ [input]: value });
    expect(titled(r, input)).toContain(value);
  });

  test('bad JSON in resource-spec and smoke-test', async () => {
    const r = await inputError({
      source: 'external_docker',
      'image-uri': 'registry.example.com/agent:1',
      'resource-spec': '{"min_scale": 1,',
      'smoke-test': '{"messages": [}',
    });
    expect(titled(r, 'resource-spec')).toMatch(/JSON/);
    expect(titled(r, 'smoke-test')).toMatch(/JSON/);
  });

  test('a secrets line that is not NAME=value', async () => {
    const r = await inputError({ secrets: 'GOOD=value-one\nthis line has no equals sign' });
    expect(titled(r, 'secrets')).toMatch(/line 2/);
  });

  test('http:// control-plane-url to a host that is not loopback', async () => {
    const r = await inputError({ 'control-plane-url': 'http://example.invalid/api-host' });
    expect(titled(r, 'control-plane-url')).toMatch(/clear text/);
  });

  test('build-on-push on a tag', async () => {
    const r = await inputError({ 'build-on-push': 'true' }, 'refs/tags/v1.2.3');
    expect(titled(r, 'build-on-push')).toMatch(/tag/);
  });

  test('every input error of one run is reported together', async () => {
    const r = await inputError({
      'api-key': '',
      region: 'mars',
      command: 'deploy',
      source: 'github',
      timeout: '-5',
      'poll-interval': 'often',
      'smoke-test': '{oops',
      secrets: 'A=1\nnot a pair',
      'build-on-push': 'maybe',
    });
    const inputs = errors(r).map((a) => a.props.replace('title=Invalid input: ', ''));
    expect(inputs.sort()).toEqual(
      [
        'api-key',
        'region',
        'timeout',
        'poll-interval',
        'smoke-test',
        'secrets',
        'build-on-push',
      ].sort(),
    );
    expect(r.stdout).toMatch(/7 input error\(s\); nothing was sent/);
    // The step summary says what failed too: every input, with its problem.
    expect(r.summary).toContain('### ❌ 7 input errors: nothing was deployed');
    for (const input of inputs) expect(r.summary).toContain(`| \`${input}\` | `);
    expect(r.summary).toMatch(/\| `timeout` \| .*-5/);
  });
});
