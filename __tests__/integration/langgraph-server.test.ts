/**
 * The checks against a REAL LangGraph agent server (`langgraphjs dev` from npm, installed
 * in fixtures/agent-app), with the fixture's `echo`, `boom` and `ask` graphs.
 *
 * Skipped (with a message) only when fixtures/agent-app/node_modules is missing outside CI;
 * in CI (`CI=true`) a missing install fails here instead of hiding the tests.
 */
import { recordingLogger } from '../helpers/fakes.js';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { HttpContext } from '../../src/api/http/request.js';
import { Deadline, systemClock } from '../../src/lib/time.js';
import { healthCheck, smokeTest, verifyDeployment } from '../../src/verify/index.js';
import { CheckError, type VerifyContext } from '../../src/verify/agent-server.js';
import {
  describeWithServer,
  startLangGraphServer,
  type LangGraphServer,
} from '../helpers/langgraph-server.js';

const describeServer = describeWithServer();

const API_KEY = 'lsv2_sk_integration_key_42';

describeServer('verify against a real LangGraph agent server', () => {
  let server: LangGraphServer;
  const logger = recordingLogger();
  const lines = logger.lines;

  function context(timeoutSeconds = 60): VerifyContext {
    const http: HttpContext = {
      clock: systemClock,
      deadline: new Deadline(systemClock, systemClock.now() + timeoutSeconds * 1000),
      logger,
      baseDelayMs: 200,
    };
    return { http, config: { apiKey: API_KEY }, logger };
  }

  beforeAll(async () => {
    // Startup takes about 1.5–3 s on 2 cores (`server.startupMs`).
    server = await startLangGraphServer();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('answers the health check', async () => {
    await expect(healthCheck(context(), server.url)).resolves.toMatchObject({ ok: true });
  });

  it('passes the smoke run of the echo graph', async () => {
    const result = await smokeTest(context(), server.url, { input: 'hello' }, 'echo');
    expect(result.outcome).toBe('passed');
    expect(result.graphId).toBe('echo');
    expect(result.summary).toContain('echo: hello');
    // The thread was deleted afterwards.
    const res = await fetch(`${server.url}/threads/${result.threadId}`);
    expect(res.status).toBe(404);
  });

  it("fails the smoke run of the boom graph with the graph's error message", async () => {
    const error = await smokeTest(context(), server.url, { input: 'hello' }, 'boom').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CheckError);
    expect((error as Error).message).toContain('boom: this graph always fails');
    expect((error as Error).message).not.toContain(API_KEY);
  });

  it('passes an interrupted run with a notice', async () => {
    const before = lines.filter((l) => l.level === 'notice').length;
    const result = await smokeTest(context(), server.url, { input: 'hello' }, 'ask');
    expect(result.outcome).toBe('interrupted');
    expect(lines.filter((l) => l.level === 'notice').length).toBe(before + 1);
  });

  it('refuses to guess between several graphs', async () => {
    await expect(smokeTest(context(), server.url, { input: 'hello' })).rejects.toThrow(
      /3 graphs \("ask", "boom", "echo"\)/,
    );
  });

  it('runs both checks through verifyDeployment', async () => {
    const result = await verifyDeployment(context(), {
      url: server.url,
      healthCheck: true,
      smokeTest: { input: 'hi' },
      smokeTestAssistant: 'echo',
    });
    expect(result).toMatchObject({ health: 'passed', smoke: 'passed' });
    expect(lines.map((l) => l.message).join('\n')).not.toContain(API_KEY);
  });
});
