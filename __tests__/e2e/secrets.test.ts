/**
 * End to end, in debug mode (RUNNER_DEBUG=1): neither the API key nor any secret value (each
 * line of a multi-line one) appears in stdout, stderr, the outputs or the step summary, through
 * success and failure paths, except on the `::add-mask::` lines that mask them. Secret values
 * the control plane returns (`Deployment.secrets`) are masked as soon as they arrive.
 */
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { runAction, type RunOptions, type RunResult } from '../../scripts/run-action.js';
import { sentSecrets } from './deploy-support.js';

const API_KEY = 'lsv2_sk_e2e-apikey-7c9d1f';
const WRONG_KEY = 'lsv2_sk_wrong-e2e-key-33aa';
const INTEGRATION_ID = '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c';
const REPO_URL = 'https://github.com/acme/agent';
const OPENAI = 'sk-openai-e2e-4f4f';
const CERT_LINES = ['line-one-xyz', 'line-two-xyz'];
/** The JSON form, with a multi-line value: `\n` is a JSON escape, so CERT has two lines. */
const SECRETS_JSON = `{"CERT": "${CERT_LINES.join('\\n')}", "OPENAI_API_KEY": "${OPENAI}"}`;
const SECRET_VALUES = [API_KEY, OPENAI, ...CERT_LINES];
const LIST = '/v2/deployments';
const LOGS = /^\/v1\/projects\/[^/]+\/revisions\/[^/]+\/build_logs$/;

let sim: Simulator;

beforeEach(async () => {
  sim = await startSimulator({
    apiKeys: [API_KEY],
    timeline: [
      { status: 'QUEUED', durationMs: 30 },
      { status: 'BUILDING', durationMs: 30 },
      { status: 'DEPLOYED', durationMs: 0 },
    ],
  });
});

afterEach(async () => {
  await sim.close();
});

function inputs(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'api-key': API_KEY,
    'control-plane-url': sim.url,
    name,
    'integration-id': INTEGRATION_ID,
    'poll-interval': '0.2',
    timeout: '20',
    secrets: SECRETS_JSON,
    ...extra,
  };
}

async function debugRun(options: RunOptions): Promise<RunResult> {
  return runAction({ ...options, env: { RUNNER_DEBUG: '1', ...options.env } });
}

/**
 * Every place a value could leak, with `::add-mask::` lines left out. Fails naming the value
 * and the place (not the whole log: Jest's message is no place for it either).
 */
function expectNoLeak(r: RunResult, values: string[]): void {
  const places: Record<string, string> = {
    stdout: r.stdout,
    stderr: r.stderr,
    outputs: JSON.stringify(r.outputs),
    summary: r.summary,
  };
  const leaks: string[] = [];
  for (const [place, text] of Object.entries(places)) {
    const shown = text
      .split('\n')
      .filter((line) => !line.startsWith('::add-mask::'))
      .join('\n');
    for (const value of values) {
      if (shown.includes(value)) leaks.push(`${value.slice(0, 6)}… in ${place}`);
    }
  }
  expect(leaks).toEqual([]);
}

/** Each value is masked, and an `::add-mask::` line comes before any other mention of it. */
function expectMaskedFirst(r: RunResult, values: string[]): void {
  const lines = r.stdout.split('\n');
  for (const value of values) {
    const first = lines.find((line) => line.includes(value)) ?? '(never mentioned)';
    expect({ value, first: first.startsWith('::add-mask::') }).toEqual({ value, first: true });
    // Each line of a multi-line value gets its own mask (the runner masks line by line).
    expect(lines).toContain(`::add-mask::${value}`);
  }
}

function errorText(r: RunResult): string {
  return r.annotations
    .filter((a) => a.kind === 'error')
    .map((a) => a.message)
    .join('\n');
}

describe('in debug mode no secret is ever printed', () => {
  test('success, with a smoke run and a retried poll', async () => {
    sim.inject({
      kind: 'status',
      status: 503,
      method: 'GET',
      path: /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+$/,
    });
    const r = await debugRun({
      inputs: inputs('sec-success', { 'smoke-test': '{"messages": [{"role": "user"}]}' }),
    });
    expect(r.code).toBe(0);
    expect(r.outputs.status).toBe('DEPLOYED');
    expect(r.stdout).toMatch(/^::debug::Retrying GET/m); // debug lines were printed
    expectMaskedFirst(r, SECRET_VALUES);
    expectNoLeak(r, SECRET_VALUES);
    // The secrets were sent: the values did reach the platform, only the log is clean.
    const dep = sim.deployments().find((d) => d.name === 'sec-success')!;
    expect(dep.secrets).toEqual(
      sentSecrets(
        [
          { name: 'CERT', value: CERT_LINES.join('\n') },
          { name: 'OPENAI_API_KEY', value: OPENAI },
        ],
        { created: true },
      ),
    );
  });

  test('BUILD_FAILED, with a log tail that echoes a secret', async () => {
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      { status: 'BUILD_FAILED', durationMs: 0 },
    ]);
    const at = new Date().toISOString();
    sim.inject({
      kind: 'status',
      status: 200,
      method: 'POST',
      path: LOGS,
      body: {
        logs: [
          { timestamp: at, level: 'ERROR', message: 'pip: could not find a version (exit 1)' },
          { timestamp: at, level: 'INFO', message: `+ echo OPENAI_API_KEY=${OPENAI}` },
          { timestamp: at, level: 'INFO', message: `+ cat cert.pem: ${CERT_LINES[1]}` },
        ],
        next_offset: null,
      },
    });
    const r = await debugRun({ inputs: inputs('sec-build-failed') });
    expect(r.code).toBe(1);
    expect(r.outputs.status).toBe('BUILD_FAILED');
    // The tail was shown (in the log and the summary), with the values replaced.
    expect(r.stdout).toContain('could not find a version');
    expect(r.stdout).toContain('+ echo OPENAI_API_KEY=***');
    expect(r.summary).toContain('could not find a version');
    expectNoLeak(r, SECRET_VALUES);
  });

  test('a status message that echoes the key: the summary holds it in no escaped form either', async () => {
    // Markdown escaping turns `_` into `&#95;` and `@` into `@` + a zero-width space; a secret
    // masked only after escaping would reach the summary in that form, unmasked.
    const atSecret = 'db-user@pass-e2e-9x';
    sim.queueTimeline([
      { status: 'QUEUED', durationMs: 30 },
      {
        status: 'BUILD_FAILED',
        durationMs: 0,
        statusMessage: `Build failed: key ${API_KEY} rejected, ${atSecret} and [${OPENAI}](x)`,
      },
    ]);
    const r = await debugRun({
      inputs: inputs('sec-status-message', {
        secrets: `OPENAI_API_KEY=${OPENAI}\nDB_DSN=${atSecret}`,
      }),
    });
    expect(r.code).toBe(1);
    expect(r.summary).toContain('Build failed: key');
    const decoded = r.summary
      .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
      .replace(/\u200b/g, '');
    expect(decoded).toContain('Build failed: key *** rejected, *** and [***](x)');
    expectNoLeak({ ...r, summary: decoded }, [API_KEY, OPENAI, atSecret]);
  });

  test('401: the rejected key is not printed either', async () => {
    const r = await debugRun({ inputs: inputs('sec-401', { 'api-key': WRONG_KEY }) });
    expect(r.code).toBe(1);
    expect(errorText(r)).toMatch(/401/);
    expectMaskedFirst(r, [WRONG_KEY]);
    expectNoLeak(r, [WRONG_KEY, OPENAI, ...CERT_LINES]);
  });

  test('422 whose validation errors echo the values sent', async () => {
    sim.inject({
      kind: 'status',
      status: 422,
      method: 'POST',
      path: LIST,
      body: {
        detail: [
          {
            loc: ['body', 'secrets', 1, 'value'],
            msg: `Value error, '${OPENAI}' is not an allowed value`,
            type: 'value_error',
            input: OPENAI,
            ctx: { error: CERT_LINES.join('\n') },
          },
        ],
      },
    });
    const r = await debugRun({ inputs: inputs('sec-422') });
    expect(r.code).toBe(1);
    expect(errorText(r)).toContain('secrets.1.value: Value error');
    expectNoLeak(r, SECRET_VALUES);
  });

  test('400 whose detail echoes a secret value', async () => {
    sim.inject({
      kind: 'status',
      status: 400,
      method: 'POST',
      path: LIST,
      body: {
        detail: `Secret OPENAI_API_KEY=${OPENAI} is not accepted; nor is ${CERT_LINES.join('\n')}`,
      },
    });
    const r = await debugRun({ inputs: inputs('sec-400') });
    expect(r.code).toBe(1);
    expect(errorText(r)).toMatch(/HTTP 400.*Secret OPENAI_API_KEY=\*\*\* is not accepted/);
    expectNoLeak(r, SECRET_VALUES);
  });

  test('a failing health check (the key goes to the agent server too)', async () => {
    sim.setAgentDefaults({ healthy: false });
    const r = await debugRun({ inputs: inputs('sec-unhealthy', { timeout: '2' }) });
    expect(r.code).toBe(1);
    expect(r.outputs.status).toBe('DEPLOYED');
    expect(errorText(r)).toMatch(/\/ok/);
    expect(sim.requests.some((q) => q.path.endsWith('/ok') && q.hasApiKey)).toBe(true);
    expectNoLeak(r, SECRET_VALUES);
  });

  test('input errors with secrets present, one of them an unparsable line', async () => {
    const unparsable = 'ghp_unparsable-secret-line-e2e';
    const r = await debugRun({
      inputs: inputs('sec-input', {
        region: 'mars',
        secrets: `OPENAI_API_KEY=${OPENAI}\n${unparsable}\nBAD NAME=${CERT_LINES[0]}`,
      }),
    });
    expect(r.code).toBe(1);
    expect(sim.requests).toEqual([]);
    expect(r.annotations.filter((a) => a.kind === 'error').length).toBeGreaterThanOrEqual(3);
    expectMaskedFirst(r, [API_KEY, OPENAI, unparsable, CERT_LINES[0]!]);
    expectNoLeak(r, [API_KEY, OPENAI, unparsable, CERT_LINES[0]!]);
  });
});

describe("the deployment's own secrets, returned by the control plane", () => {
  const SEEDED = ['seeded-db-pass-e2e', 'seeded-line-a', 'seeded-line-b'];

  function seed(name: string) {
    return sim.seedDeployment({
      name,
      repoUrl: REPO_URL,
      secrets: [
        { name: 'DB_PASSWORD', value: SEEDED[0]! },
        { name: 'MULTI', value: `${SEEDED[1]}\n${SEEDED[2]}` },
      ],
    });
  }

  test('an update with empty `secrets` keeps them, masks them first and never prints them', async () => {
    const seeded = seed('sec-seeded');
    const r = await debugRun({ inputs: inputs('sec-seeded', { secrets: '' }) });
    expect(r.code).toBe(0);
    expect(r.outputs.created).toBe('false');
    const revision = sim.requests.find(
      (q) => q.method === 'POST' && q.path.endsWith('/revisions'),
    )!;
    expect(revision.body).not.toHaveProperty('secrets');
    expect(sim.deployments().find((d) => d.id === seeded.id)!.secrets).toHaveLength(2);
    expectMaskedFirst(r, SEEDED);
    expectNoLeak(r, [...SEEDED, API_KEY]);
  });

  test('a value learnt from a response is redacted from a later error message', async () => {
    const seeded = seed('sec-seeded-echo');
    sim.inject({
      kind: 'status',
      status: 400,
      method: 'POST',
      path: `${LIST}/${seeded.id}/revisions`,
      body: { detail: `DB_PASSWORD=${SEEDED[0]} is weak` },
    });
    const r = await debugRun({ inputs: inputs('sec-seeded-echo', { secrets: '' }) });
    expect(r.code).toBe(1);
    expect(errorText(r)).toContain('DB_PASSWORD=*** is weak');
    expectMaskedFirst(r, SEEDED);
    expectNoLeak(r, [...SEEDED, API_KEY]);
  });
});
