/**
 * Health check and smoke run against a small agent server of our own (node:http on
 * 127.0.0.1, port 0) that records every request; time is a FakeClock.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CancelledError } from '../../src/lib/errors.js';
import type { HttpContext } from '../../src/api/http/request.js';
import { Deadline } from '../../src/lib/time.js';
import { FakeClock, recordingLogger } from '../helpers/fakes.js';
import { healthCheck, smokeTest, verifyDeployment } from '../../src/verify/index.js';
import { CheckError, urlProblem, type VerifyContext } from '../../src/verify/agent-server.js';

const API_KEY = 'lsv2_sk_test_key_0123456789';

interface Seen {
  method: string;
  path: string;
  apiKey: string | undefined;
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

class AgentServer {
  readonly seen: Seen[] = [];
  private server: Server;
  private handlers = new Map<string, Handler>();
  url = '';
  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = (req.url ?? '/').split('?')[0] as string;
        const key = req.headers['x-api-key'];
        this.seen.push({
          method: req.method ?? '',
          path,
          apiKey: Array.isArray(key) ? key[0] : key,
          body,
        });
        const route = `${req.method} ${path.replace(/\/threads\/[^/]+/, '/threads/:id')}`;
        const handler = this.handlers.get(route);
        if (handler) handler(req, res, body);
        else {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ detail: `no route ${route}` }));
        }
      });
    });
  }
  on(route: string, handler: Handler): this {
    this.handlers.set(route, handler);
    return this;
  }
  requests(route: string): Seen[] {
    const [method, path] = route.split(' ');
    return this.seen.filter(
      (s) => s.method === method && s.path.replace(/\/threads\/[^/]+/, '/threads/:id') === path,
    );
  }
  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function json(res: ServerResponse, status: number, value: unknown, headers = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

function sse(res: ServerResponse, events: [string, unknown][], runId = 'run-1'): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'content-location': `/threads/thread-1/runs/${runId}`,
  });
  events.forEach(([event, data], i) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\nid: ${i}\n\n`);
  });
  res.end();
}

let server: AgentServer;
let clock: FakeClock;
let logger: ReturnType<typeof recordingLogger>;

function context(options: { timeoutSeconds?: number; signal?: AbortSignal } = {}): VerifyContext {
  const http: HttpContext = {
    clock,
    deadline: new Deadline(clock, clock.now() + (options.timeoutSeconds ?? 60) * 1000),
    logger,
    random: () => 0.5,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return { http, config: { apiKey: API_KEY }, logger };
}

/** Assistants as the agent server lists them; `system` ones are the graphs' defaults. */
function assistantsRoute(list: { assistant_id: string; graph_id: string; system?: boolean }[]) {
  server.on('POST /assistants/search', (_req, res, body) => {
    const { limit = 10, offset = 0 } = JSON.parse(body || '{}') as {
      limit?: number;
      offset?: number;
    };
    json(
      res,
      200,
      list.slice(offset, offset + limit).map((a) => ({
        assistant_id: a.assistant_id,
        graph_id: a.graph_id,
        name: a.graph_id,
        config: {},
        metadata: a.system === false ? {} : { created_by: 'system' },
      })),
    );
  });
}

function threadRoutes(): void {
  server.on('POST /threads', (_req, res) => json(res, 200, { thread_id: 'thread-1' }));
  server.on('DELETE /threads/:id', (_req, res) => {
    res.writeHead(204);
    res.end();
  });
}

beforeEach(async () => {
  server = await new AgentServer().start();
  clock = new FakeClock();
  logger = recordingLogger();
});

afterEach(async () => {
  await server.close();
});

describe('healthCheck', () => {
  it('retries /ok until it answers {"ok": true}, sending the key each time', async () => {
    let n = 0;
    server.on('GET /ok', (req, res) => {
      n++;
      if (n === 1) json(res, 503, { detail: 'starting' });
      else if (n === 2)
        req.socket.destroy(); // a reset
      else if (n === 3) json(res, 200, { ok: false });
      else json(res, 200, { ok: true });
    });
    const result = await healthCheck(context(), `${server.url}/`);
    expect(result).toEqual({ ok: true, attempts: 4 });
    expect(server.requests('GET /ok').map((s) => s.apiKey)).toEqual([
      API_KEY,
      API_KEY,
      API_KEY,
      API_KEY,
    ]);
    // Waits grow from the base delay (1 s) and are taken on the injected clock.
    expect(clock.sleeps).toEqual([1000, 2000, 4000]);
    expect(logger.text()).not.toContain(API_KEY);
  });

  it('fails before the deadline naming the URL and the last answer, never the key', async () => {
    server.on('GET /ok', (_req, res) => json(res, 503, { detail: 'no' }));
    const start = clock.now();
    const error = await healthCheck(context({ timeoutSeconds: 20 }), server.url).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CheckError);
    const message = (error as Error).message;
    expect(message).toContain(`${server.url}/ok`);
    expect(message).toContain('last answer: HTTP 503');
    expect(message).toContain('timeout');
    expect(message).not.toContain(API_KEY);
    expect(logger.text()).not.toContain(API_KEY);
    // Kept trying until the next wait would pass the 20 s deadline, and never slept past it.
    const waited = clock.now() - start;
    expect(waited).toBeLessThanOrEqual(20_000);
    expect(waited).toBeGreaterThan(10_000);
    const requests = server.requests('GET /ok').length;
    expect(requests).toBe(clock.sleeps.length + 1);
    expect(message).toContain(`${requests} requests`);
  });

  it('names a network error as the last answer when the server never answers', async () => {
    server.on('GET /ok', (req) => req.socket.destroy());
    const error = await healthCheck(context({ timeoutSeconds: 10 }), server.url).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CheckError);
    expect((error as Error).message).toMatch(/last answer: (ECONNRESET|UND_ERR_SOCKET|\w+Error)/);
  });

  it('honours Retry-After on 429', async () => {
    let n = 0;
    server.on('GET /ok', (_req, res) => {
      n++;
      if (n === 1) json(res, 429, { detail: 'slow down' }, { 'retry-after': '7' });
      else json(res, 200, { ok: true });
    });
    await expect(healthCheck(context(), server.url)).resolves.toEqual({ ok: true, attempts: 2 });
    expect(clock.sleeps).toEqual([7000]);
  });

  it('fails at once when the agent server refuses the key', async () => {
    server.on('GET /ok', (_req, res) => json(res, 401, { detail: 'bad key' }));
    await expect(healthCheck(context(), server.url)).rejects.toThrow(/refused the API key.*401/);
    expect(server.requests('GET /ok')).toHaveLength(1);
  });

  it('stops at once when the run is cancelled', async () => {
    const controller = new AbortController();
    server.on('GET /ok', (_req, res) => {
      controller.abort(new CancelledError('The run was cancelled.'));
      json(res, 503, {});
    });
    await expect(
      healthCheck(context({ signal: controller.signal }), server.url),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(server.requests('GET /ok')).toHaveLength(1);
  });
});

describe('verifyDeployment: when the checks are skipped', () => {
  it('warns once and skips both checks when there is no URL', async () => {
    const result = await verifyDeployment(context(), {
      url: undefined,
      healthCheck: true,
      smokeTest: { input: 'hi' },
    });
    expect(result).toEqual({ health: 'skipped', smoke: 'skipped' });
    const warnings = logger.lines.filter((l) => l.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(/no agent server URL.*custom-url/s);
    expect(server.seen).toHaveLength(0);
  });

  it('skips both checks for plain http on a non-loopback host and never sends the key', async () => {
    // 0.0.0.0 is not a loopback *name* (so the key must not go there), yet on Linux a
    // connection to it reaches our server on 127.0.0.1: a request made anyway would be seen.
    const port = new URL(server.url).port;
    const url = `http://0.0.0.0:${port}`;
    server.on('GET /ok', (_req, res) => json(res, 200, { ok: true }));
    const result = await verifyDeployment(context(), {
      url,
      healthCheck: true,
      smokeTest: { input: 'hi' },
    });
    expect(result).toEqual({ health: 'skipped', smoke: 'skipped' });
    const warnings = logger.lines.filter((l) => l.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('plain http');
    // Calling the checks directly does not send anything either.
    await expect(healthCheck(context(), url)).rejects.toThrow(/plain http/);
    await expect(smokeTest(context(), url, { input: 'hi' })).rejects.toThrow(/plain http/);
    expect(server.seen).toHaveLength(0);
    // Control: the address does reach the server (so "seen nothing" means something).
    expect((await fetch(`${url}/ok`)).status).toBe(200);
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]?.apiKey).toBeUndefined();
  });

  it('runs the health check then the smoke run, and reports both', async () => {
    server.on('GET /ok', (_req, res) => json(res, 200, { ok: true }));
    assistantsRoute([{ assistant_id: 'a-echo', graph_id: 'echo' }]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) =>
      sse(res, [['values', { output: 'echo: hi' }]]),
    );
    const result = await verifyDeployment(context(), {
      url: server.url,
      healthCheck: true,
      smokeTest: { input: 'hi' },
    });
    expect(result.health).toBe('passed');
    expect(result.smoke).toBe('passed');
    expect(result.error).toBeUndefined();
  });

  it('returns a failed health check without running the smoke run', async () => {
    server.on('GET /ok', (_req, res) => json(res, 500, {}));
    const result = await verifyDeployment(context({ timeoutSeconds: 5 }), {
      url: server.url,
      healthCheck: true,
      smokeTest: { input: 'hi' },
    });
    expect(result.health).toBe('failed');
    expect(result.smoke).toBeUndefined();
    expect(result.error).toBeInstanceOf(CheckError);
    expect(server.requests('POST /assistants/search')).toHaveLength(0);
  });
});

describe('smokeTest', () => {
  it('runs the only graph with the input, logs a short view of the result, deletes the thread', async () => {
    assistantsRoute([{ assistant_id: 'a-echo', graph_id: 'echo' }]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) =>
      sse(res, [
        ['metadata', { run_id: 'run-1' }],
        ['values', { input: 'hi' }],
        ['updates', { echo: { output: 'echo: hi' } }],
        ['values', { input: 'hi', output: 'echo: hi', long: 'x'.repeat(1000) }],
      ]),
    );
    const result = await smokeTest(context(), server.url, { input: 'hi' });
    expect(result).toMatchObject({
      outcome: 'passed',
      assistantId: 'a-echo',
      graphId: 'echo',
      threadId: 'thread-1',
    });
    expect(result.summary).toContain('"output":"echo: hi"');
    expect(result.summary.length).toBeLessThanOrEqual(300);
    const [post] = server.requests('POST /threads/:id/runs/stream');
    expect(post?.path).toBe('/threads/thread-1/runs/stream');
    expect(JSON.parse(post?.body ?? '{}')).toMatchObject({
      assistant_id: 'a-echo',
      input: { input: 'hi' },
    });
    expect(server.requests('DELETE /threads/:id')).toHaveLength(1);
    // Every request carried the key (loopback), and no log line did.
    expect(server.seen.every((s) => s.apiKey === API_KEY)).toBe(true);
    expect(logger.text()).toContain('Smoke run passed');
    expect(logger.text()).toContain('echo: hi');
    expect(logger.text()).not.toContain(API_KEY);
  });

  it("fails with the graph's error message when the stream reports an error event", async () => {
    assistantsRoute([{ assistant_id: 'a-boom', graph_id: 'boom' }]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) =>
      sse(
        res,
        [
          ['metadata', { run_id: 'run-9' }],
          ['values', { input: 'hi' }],
          ['error', { error: 'Error', message: 'boom: this graph always fails' }],
        ],
        'run-9',
      ),
    );
    const error = await smokeTest(context(), server.url, { input: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckError);
    expect((error as Error).message).toContain('boom: this graph always fails');
    expect((error as Error).message).toContain('run-9');
    expect((error as Error).message).toContain('"boom"');
    expect(server.requests('DELETE /threads/:id')).toHaveLength(1);
  });

  it('fails when the stream ends without any result', async () => {
    assistantsRoute([{ assistant_id: 'a-echo', graph_id: 'echo' }]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) =>
      sse(res, [['metadata', { run_id: 'run-1' }]]),
    );
    await expect(smokeTest(context(), server.url, {})).rejects.toThrow(/ended without any result/);
  });

  it('passes with a notice when the run stops at an interrupt', async () => {
    assistantsRoute([{ assistant_id: 'a-ask', graph_id: 'ask' }]);
    threadRoutes();
    const interrupt = [{ id: 'i1', value: { question: 'Approve?' } }];
    server.on('POST /threads/:id/runs/stream', (_req, res) =>
      sse(res, [
        ['values', { input: 'hi' }],
        ['updates', { __interrupt__: interrupt }],
      ]),
    );
    const result = await smokeTest(context(), server.url, { input: 'hi' });
    expect(result.outcome).toBe('interrupted');
    const notices = logger.lines.filter((l) => l.level === 'notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.message).toContain('interrupt');
  });

  it('lists the graphs when there are several and no smoke-test-assistant', async () => {
    assistantsRoute([
      { assistant_id: 'a-echo', graph_id: 'echo' },
      { assistant_id: 'a-boom', graph_id: 'boom' },
      { assistant_id: 'a-echo-2', graph_id: 'echo', system: false },
    ]);
    threadRoutes();
    const error = await smokeTest(context(), server.url, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckError);
    const message = (error as Error).message;
    expect(message).toContain('2 graphs ("boom", "echo")');
    expect(message).toContain('smoke-test-assistant');
    expect(server.requests('POST /threads')).toHaveLength(0);
  });

  it('finds the assistant by graph ID (the graph default) and by assistant ID', async () => {
    assistantsRoute([
      { assistant_id: 'a-echo-custom', graph_id: 'echo', system: false },
      { assistant_id: 'a-echo', graph_id: 'echo' },
      { assistant_id: 'a-boom', graph_id: 'boom' },
    ]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) => sse(res, [['values', { ok: 1 }]]));

    const byGraph = await smokeTest(context(), server.url, {}, 'echo');
    expect(byGraph).toMatchObject({ assistantId: 'a-echo', graphId: 'echo' });
    const byId = await smokeTest(context(), server.url, {}, 'a-echo-custom');
    expect(byId).toMatchObject({ assistantId: 'a-echo-custom', graphId: 'echo' });

    const posts = server.requests('POST /threads/:id/runs/stream');
    expect(posts.map((p) => (JSON.parse(p.body) as { assistant_id: string }).assistant_id)).toEqual(
      ['a-echo', 'a-echo-custom'],
    );
  });

  it('names the graphs when smoke-test-assistant matches nothing', async () => {
    assistantsRoute([{ assistant_id: 'a-echo', graph_id: 'echo' }]);
    await expect(smokeTest(context(), server.url, {}, 'nope')).rejects.toThrow(
      /"nope" is neither a graph ID nor an assistant ID.*"echo"/s,
    );
  });

  it('pages through the assistants', async () => {
    const many = Array.from({ length: 150 }, (_, i) => ({
      assistant_id: `a-${i}`,
      graph_id: 'echo',
      system: false,
    }));
    assistantsRoute([...many, { assistant_id: 'a-last', graph_id: 'last' }]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) => sse(res, [['values', { ok: 1 }]]));
    const result = await smokeTest(context(), server.url, {}, 'a-last');
    expect(result.assistantId).toBe('a-last');
    expect(server.requests('POST /assistants/search')).toHaveLength(2);
  });

  it('sends the stream POST exactly once when it fails with 503', async () => {
    assistantsRoute([{ assistant_id: 'a-echo', graph_id: 'echo' }]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) =>
      json(res, 503, { detail: 'overloaded' }, { 'retry-after': '1' }),
    );
    const error = await smokeTest(context(), server.url, { input: 'hi' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CheckError);
    const message = (error as Error).message;
    expect(message).toContain('HTTP 503');
    expect(message).toContain('never retried');
    expect(message).not.toContain(API_KEY);
    expect(server.requests('POST /threads/:id/runs/stream')).toHaveLength(1);
    // The thread is still cleaned up.
    expect(server.requests('DELETE /threads/:id')).toHaveLength(1);
  });

  it('sends the stream POST once when the connection drops before an answer', async () => {
    assistantsRoute([{ assistant_id: 'a-echo', graph_id: 'echo' }]);
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (req) => req.socket.destroy());
    await expect(smokeTest(context(), server.url, { input: 'hi' })).rejects.toBeInstanceOf(
      CheckError,
    );
    expect(server.requests('POST /threads/:id/runs/stream')).toHaveLength(1);
  });

  it('retries a transient failure of the read-only calls through the HTTP layer', async () => {
    let n = 0;
    server.on('POST /assistants/search', (_req, res) => {
      n++;
      if (n === 1) json(res, 429, {}, { 'retry-after': '3' });
      else json(res, 200, [{ assistant_id: 'a-echo', graph_id: 'echo', metadata: {} }]);
    });
    threadRoutes();
    server.on('POST /threads/:id/runs/stream', (_req, res) => sse(res, [['values', { ok: 1 }]]));
    await expect(smokeTest(context(), server.url, {})).resolves.toMatchObject({
      outcome: 'passed',
    });
    expect(server.requests('POST /assistants/search')).toHaveLength(2);
    // Retry-After honoured on our clock (the SDK's own retries would ignore it).
    // (at least the 3 s asked for, plus at most a fifth of jitter)
    expect(clock.sleeps.some((ms) => ms >= 3000 && ms <= 3600)).toBe(true);
  });
});

describe('urlProblem', () => {
  it("makes the platform's unparseable URL inert: it cannot carry a workflow command", () => {
    const reason = urlProblem('not a url ##[error]x ::set-output::y')?.reason ?? '';
    expect(reason).toMatch(/^The agent server URL "not a url/);
    expect(reason).not.toMatch(/::|##\[/);
  });
});
