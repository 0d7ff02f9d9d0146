/**
 * End to end: the checks after DEPLOYED (health check and smoke run) against the simulator's
 * agent servers, running the bundle as the GitHub runner does.
 */
import { beforeEach, describe, expect, it } from '@jest/globals';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { useSimulator } from '../helpers/simulator.js';

const sim = useSimulator({
  timeline: [
    { status: 'QUEUED', durationMs: 30 },
    { status: 'DEPLOYED', durationMs: 0 },
  ],
});

// Fresh state, request log and agent defaults for every test.
beforeEach(() => sim.reset());

/** `deploy` of `name` from GitHub (the simulator gives it an agent server URL). */
function deploy(name: string, inputs: Record<string, string> = {}): Promise<RunResult> {
  return runAction({
    inputs: {
      'api-key': sim.apiKey,
      'control-plane-url': sim.url,
      name,
      'integration-id': '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c',
      'poll-interval': '0.2',
      timeout: '20',
      ...inputs,
    },
  });
}

const agentRequests = (method: string, suffix: RegExp) =>
  sim.requests.filter(
    (r) => r.method === method && r.path.startsWith('/agents/') && suffix.test(r.path),
  );
const errors = (r: RunResult) => r.annotations.filter((a) => a.kind === 'error');
const warnings = (r: RunResult) => r.annotations.filter((a) => a.kind === 'warning');

function expectNoKey(r: RunResult): void {
  expect(r.stdout.replace(/^::add-mask::.*$/m, '')).not.toContain(sim.apiKey);
  expect(r.summary).not.toContain(sim.apiKey);
}

const SMOKE = '{"messages":[{"role":"user","content":"hi"}]}';

describe('health check', () => {
  it('waits through a few 503s from /ok and succeeds', async () => {
    sim.setAgentDefaults({ unhealthyCount: 3 });
    const r = await deploy('verify-recovers');

    expect(r.code).toBe(0);
    expect(errors(r)).toEqual([]);
    expect(agentRequests('GET', /\/ok$/).map((q) => q.status)).toEqual([503, 503, 503, 200]);
    expect(r.stdout).toContain(`Health check passed: ${r.outputs['url']}/ok`);
    expect(r.stdout).toContain('(4 requests)');
    expect(r.outputs['status']).toBe('DEPLOYED');
    expect(r.summary).toMatch(/\| Health check \| passed \|/);
    expectNoKey(r);
  });

  it('fails at the timeout naming the URL and the last answer, status still DEPLOYED', async () => {
    sim.setAgentDefaults({ healthy: false });
    const r = await deploy('verify-never-healthy', { timeout: '2.5' });

    expect(r.code).toBe(1);
    const url = r.outputs['url'];
    expect(url).toMatch(/\/agents\/[0-9a-f-]{36}$/);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({ props: 'title=Health check failed' });
    expect(errors(r)[0]!.message).toContain(`${url}/ok did not answer {"ok": true}`);
    expect(errors(r)[0]!.message).toContain('last answer: HTTP 503');
    expect(errors(r)[0]!.message).toContain('`timeout`');
    // It kept asking until the budget ran out, then stopped (the budget starts at process
    // start; the last wait may end a little before it).
    expect(agentRequests('GET', /\/ok$/).length).toBeGreaterThan(3);
    expect(r.elapsedMs).toBeGreaterThan(2000);
    expect(r.elapsedMs).toBeLessThan(5000);
    expect(r.outputs['status']).toBe('DEPLOYED');
    expect(r.summary).toMatch(/\| Status \| \*\*`DEPLOYED`\*\* \|/);
    expect(r.summary).toMatch(/\| Health check \| failed \|/);
    expect(r.summary).toContain('did not answer');
    expectNoKey(r);
  });

  it('without an agent server URL warns once, skips the checks and succeeds', async () => {
    const r = await deploy('verify-no-url', {
      source: 'external_docker',
      'image-uri': 'registry.example.com/agent:1',
      'integration-id': '',
      'smoke-test': SMOKE,
    });

    expect(r.code).toBe(0);
    expect(errors(r)).toEqual([]);
    expect(warnings(r)).toHaveLength(1);
    expect(warnings(r)[0]).toMatchObject({ props: 'title=Checks skipped' });
    expect(warnings(r)[0]!.message).toContain('no agent server URL');
    expect(warnings(r)[0]!.message).toContain('custom-url');
    expect(sim.requests.filter((q) => q.path.startsWith('/agents/'))).toEqual([]);
    expect(r.outputs['url']).toBeUndefined();
    expect(r.outputs['status']).toBe('DEPLOYED');
    expect(r.summary).toMatch(/\| Health check \| skipped \|/);
    expect(r.summary).toMatch(/\| Smoke test \| skipped \|/);
    // The reason is repeated in the summary.
    expect(r.summary).toContain('#### Warnings');
    expect(r.summary).toContain('- ⚠️ The deployment has no agent server URL');
  });
});

describe('smoke run', () => {
  it('streams one run on the only graph, deletes the thread and succeeds', async () => {
    const r = await deploy('verify-smoke-ok', { 'smoke-test': SMOKE });

    expect(r.code).toBe(0);
    expect(errors(r)).toEqual([]);
    const streams = agentRequests('POST', /\/threads\/[^/]+\/runs\/stream$/);
    expect(streams).toHaveLength(1);
    expect(streams[0]!.body).toMatchObject({
      input: { messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(agentRequests('POST', /\/threads$/)).toHaveLength(1);
    const threadId = /\/threads\/([^/]+)\/runs/.exec(streams[0]!.path)![1];
    expect(agentRequests('DELETE', /\/threads\/[^/]+$/).map((q) => q.path)).toEqual([
      expect.stringMatching(new RegExp(`/threads/${threadId}$`)),
    ]);
    expect(r.stdout).toMatch(/Smoke run passed: graph "agent"/);
    expect(r.stdout).toContain('Hello from agent.');
    expect(r.summary).toMatch(/\| Smoke test \| passed \|/);
    expectNoKey(r);
  });

  it("fails with the run's error message, sent once, status still DEPLOYED", async () => {
    sim.setAgentDefaults({ run: 'error', errorMessage: 'KeyError: the tool registry is empty' });
    const r = await deploy('verify-smoke-error', { 'smoke-test': SMOKE });

    expect(r.code).toBe(1);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]).toMatchObject({ props: 'title=Smoke run failed' });
    expect(errors(r)[0]!.message).toContain('KeyError: the tool registry is empty');
    expect(errors(r)[0]!.message).toContain('graph "agent"');
    // The stream POST is never retried: a retry would start a second run.
    expect(agentRequests('POST', /\/runs\/stream$/)).toHaveLength(1);
    expect(agentRequests('DELETE', /\/threads\/[^/]+$/)).toHaveLength(1);
    expect(r.outputs['status']).toBe('DEPLOYED');
    expect(r.summary).toMatch(/\| Smoke test \| failed \|/);
    expect(r.summary).toContain('KeyError: the tool registry is empty');
  });

  it('passes a run stopped at an interrupt, with a notice', async () => {
    sim.setAgentDefaults({ run: 'interrupt' });
    const r = await deploy('verify-smoke-interrupt', { 'smoke-test': SMOKE });

    expect(r.code).toBe(0);
    expect(errors(r)).toEqual([]);
    const notices = r.annotations.filter((a) => a.props === 'title=Smoke run interrupted');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.kind).toBe('notice');
    expect(notices[0]!.message).toContain('waiting for human input');
    expect(r.summary).toMatch(/\| Smoke test \| interrupted \|/);
  });

  it('refuses to guess between two graphs and lists both', async () => {
    sim.setAgentDefaults({ graphs: ['planner', 'writer'] });
    const r = await deploy('verify-smoke-ambiguous', { 'smoke-test': SMOKE });

    expect(r.code).toBe(1);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.message).toContain('2 graphs ("planner", "writer")');
    expect(errors(r)[0]!.message).toContain('smoke-test-assistant');
    // Nothing was run.
    expect(agentRequests('POST', /\/threads$/)).toEqual([]);
    expect(agentRequests('POST', /\/runs\/stream$/)).toEqual([]);
    expect(r.outputs['status']).toBe('DEPLOYED');
  });

  it('runs the graph named by smoke-test-assistant', async () => {
    sim.setAgentDefaults({ graphs: ['planner', 'writer'] });
    const r = await deploy('verify-smoke-by-graph', {
      'smoke-test': SMOKE,
      'smoke-test-assistant': 'writer',
    });

    expect(r.code).toBe(0);
    expect(errors(r)).toEqual([]);
    // The assistant ID of the `writer` graph, as the agent server lists it.
    const agent = r.outputs['url']!;
    const listed = (await (
      await fetch(`${agent}/assistants/search`, {
        method: 'POST',
        headers: { 'x-api-key': sim.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ graph_id: 'writer' }),
      })
    ).json()) as { assistant_id: string }[];
    const streams = agentRequests('POST', /\/runs\/stream$/);
    expect(streams).toHaveLength(1);
    expect(streams[0]!.body).toMatchObject({ assistant_id: listed[0]!.assistant_id });
    expect(r.stdout).toContain('Smoke run passed: graph "writer"');
  });

  it('refuses smoke-test that is not JSON before any request', async () => {
    const r = await deploy('verify-smoke-bad-json', { 'smoke-test': '{"messages": [' });

    expect(r.code).toBe(1);
    const problems = errors(r);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.props).toBe('title=Invalid input: smoke-test');
    expect(problems[0]!.message).toContain('smoke-test');
    expect(sim.requests).toEqual([]);
    expect(r.outputs).toEqual({});
  });
});
