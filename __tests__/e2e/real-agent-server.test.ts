/**
 * End to end against a REAL LangGraph agent server (`langgraphjs dev`, fixtures/agent-app):
 * the simulator plays the control plane of an `external_docker` deployment whose `custom-url`
 * is the real server, and the bundle runs the health check and a smoke run on it.
 *
 * Skipped (with a message) only when fixtures/agent-app/node_modules is missing outside CI;
 * in CI (`CI=true`) a missing install fails here instead of hiding the tests.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { runAction, type RunResult } from '../../scripts/run-action.js';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import {
  describeWithServer,
  startLangGraphServer,
  type LangGraphServer,
} from '../helpers/langgraph-server.js';

const describeServer = describeWithServer();

describeServer('deploy checks against a real LangGraph agent server', () => {
  let server: LangGraphServer;
  let sim: Simulator;

  beforeAll(async () => {
    [server, sim] = await Promise.all([
      startLangGraphServer(),
      startSimulator({
        timeline: [
          { status: 'QUEUED', durationMs: 30 },
          { status: 'DEPLOYED', durationMs: 0 },
        ],
      }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([server?.stop(), sim?.close()]);
  }, 30_000);

  function deploy(name: string, assistant: string): Promise<RunResult> {
    return runAction({
      inputs: {
        'api-key': sim.apiKey,
        'control-plane-url': sim.url,
        name,
        source: 'external_docker',
        'image-uri': 'registry.example.com/agent:1',
        'custom-url': server.url,
        // The fixture's graphs read `input` and answer `output` (fixtures/agent-app/src/graphs.mjs).
        'smoke-test': '{"input":"hi"}',
        'smoke-test-assistant': assistant,
        'poll-interval': '0.2',
        timeout: '60',
      },
    });
  }

  const errors = (r: RunResult) => r.annotations.filter((a) => a.kind === 'error');

  it('passes the health check and a smoke run of the echo graph', async () => {
    const r = await deploy('real-echo', 'echo');

    expect(errors(r)).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.outputs).toMatchObject({ status: 'DEPLOYED', url: server.url });
    expect(r.stdout).toContain(`Health check passed: ${server.url}/ok answered {"ok": true}`);
    expect(r.stdout).toMatch(/Smoke run passed: graph "echo" \(assistant [0-9a-f-]{36}\), run /);
    // The graph really ran on the input it was given.
    expect(r.stdout).toContain('"output":"echo: hi"');
    expect(r.summary).toMatch(/\| Health check \| passed \|/);
    expect(r.summary).toMatch(/\| Smoke test \| passed \|/);
    expect(r.stdout.replace(/^::add-mask::.*$/m, '')).not.toContain(sim.apiKey);
  });

  it("fails the smoke run of the boom graph with the graph's error message", async () => {
    const r = await deploy('real-boom', 'boom');

    expect(r.code).toBe(1);
    expect(errors(r)).toHaveLength(1);
    expect(errors(r)[0]!.props).toBe('title=Smoke run failed');
    expect(errors(r)[0]!.message).toContain('boom: this graph always fails');
    expect(errors(r)[0]!.message).toContain('graph "boom"');
    expect(r.stdout).toContain('Health check passed');
    expect(r.outputs['status']).toBe('DEPLOYED');
    expect(r.summary).toMatch(/\| Smoke test \| failed \|/);
    expect(r.summary).toContain('boom: this graph always fails');
  });

  it('passes a run of the ask graph that stops at an interrupt, with a notice', async () => {
    const r = await deploy('real-ask', 'ask');

    expect(errors(r)).toEqual([]);
    expect(r.code).toBe(0);
    const notices = r.annotations.filter((a) => a.kind === 'notice');
    expect(notices.map((n) => n.props)).toContain('title=Smoke run interrupted');
    expect(r.summary).toMatch(/\| Smoke test \| interrupted \|/);
  });
});
