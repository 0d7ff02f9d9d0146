import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { call, githubCreate, pollUntil } from './helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

describe('injected faults', () => {
  it('status: answers without processing, with the given body and headers, `times` times', async () => {
    sim.inject({
      kind: 'status',
      status: 503,
      method: 'POST',
      path: '/v2/deployments',
      times: 2,
      body: { detail: 'upstream down' },
      headers: { 'retry-after': '1' },
    });
    for (let i = 0; i < 2; i++) {
      const answer = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('faulty') });
      expect(answer).toMatchObject({ status: 503, body: { detail: 'upstream down' } });
      expect(answer.headers.get('retry-after')).toBe('1');
    }
    expect(sim.deployments()).toEqual([]);
    const third = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('faulty') });
    expect(third.status).toBe(201);
    expect(sim.requests.map((r) => r.status)).toEqual([503, 503, 201]);
  });

  it('matches method and path (string or RegExp) and is consumed in order of injection', async () => {
    sim.inject({ kind: 'status', status: 500, path: /\/revisions$/ });
    sim.inject({ kind: 'status', status: 502, method: 'GET', path: '/v2/deployments' });
    sim.inject({ kind: 'status', status: 504, method: 'GET', path: '/v2/deployments' });
    expect((await call(sim, 'POST', '/v2/deployments', { body: {} })).status).toBe(422);
    expect((await call(sim, 'GET', '/v2/deployments')).status).toBe(502);
    expect((await call(sim, 'GET', '/v2/deployments')).status).toBe(504);
    expect((await call(sim, 'GET', '/v2/deployments')).status).toBe(200);
    const dep = sim.seedDeployment({ name: 'r' });
    expect((await call(sim, 'GET', `/v2/deployments/${dep.id}/revisions`)).status).toBe(500);
    sim.inject({ kind: 'status', status: 500 });
    sim.clearFaults();
    expect((await call(sim, 'GET', '/v2/deployments')).status).toBe(200);
  });

  it('reset: the connection is destroyed, fetch fails, and the log says reset', async () => {
    sim.inject({ kind: 'reset', method: 'GET' });
    await expect(call(sim, 'GET', '/v2/deployments')).rejects.toThrow();
    expect(sim.requests[0]).toMatchObject({ path: '/v2/deployments', status: 'reset' });
    expect((await call(sim, 'GET', '/v2/deployments')).status).toBe(200);
  });

  it('commit-then-reset: the create happens exactly once though the client sees an error', async () => {
    sim.inject({ kind: 'commit-then-reset', method: 'POST', path: '/v2/deployments' });
    await expect(
      call(sim, 'POST', '/v2/deployments', { body: githubCreate('lost-answer') }),
    ).rejects.toThrow();
    expect(sim.deployments().map((d) => d.name)).toEqual(['lost-answer']);
    const retry = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('lost-answer') });
    expect(retry.status).toBe(409);
    expect(sim.deployments()).toHaveLength(1);
    expect(sim.requests.map((r) => r.status)).toEqual(['reset', 409]);
  });

  it('commit-then-status: the create happens, the client sees the injected status', async () => {
    sim.inject({ kind: 'commit-then-status', status: 502, method: 'POST' });
    const answer = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('half') });
    expect(answer.status).toBe(502);
    expect(sim.deployments().map((d) => d.name)).toEqual(['half']);
    expect(sim.requests[0]!.status).toBe(502);
  });

  it('status-then-commit: the client sees the status at once, the create happens later', async () => {
    sim.inject({ kind: 'status-then-commit', status: 504, afterMs: 150, method: 'POST' });
    const answer = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('late') });
    expect(answer.status).toBe(504);
    expect(sim.deployments()).toEqual([]);
    await pollUntil(
      async () => sim.deployments().length,
      (n) => n === 1,
    );
    expect(sim.deployments().map((d) => d.name)).toEqual(['late']);
    expect(sim.requests.map((r) => r.status)).toEqual([504]);
  });

  it('delay: the request is processed after the delay', async () => {
    sim.inject({ kind: 'delay', ms: 150, path: '/v2/deployments' });
    const started = Date.now();
    const answer = await call(sim, 'GET', '/v2/deployments');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(answer.status).toBe(200);
  });

  it('malformed-json: answers 200 with a body that is not JSON', async () => {
    sim.inject({ kind: 'malformed-json' });
    const response = await fetch(`${sim.url}/v2/deployments`, {
      headers: { 'x-api-key': sim.apiKey },
    });
    expect(response.status).toBe(200);
    await expect(response.json()).rejects.toThrow();
    expect(sim.requests[0]!.status).toBe(200);
  });

  it('rejects a fault with an invalid `times`', () => {
    expect(() => sim.inject({ kind: 'reset', times: 0 })).toThrow(/times/);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After in whole seconds once a key is over its window', async () => {
    const limited = await startSimulator({
      apiKeys: ['one', 'two'],
      rateLimit: { requests: 3, windowMs: 60_000 },
    });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await call(limited, 'GET', '/v2/deployments')).status).toBe(200);
      }
      const over = await call(limited, 'GET', '/v2/deployments');
      expect(over.status).toBe(429);
      expect(typeof (over.body as { detail: unknown }).detail).toBe('string');
      const retryAfter = over.headers.get('retry-after')!;
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(retryAfter)).toBeLessThanOrEqual(60);
      expect(limited.requests.at(-1)!.status).toBe(429);
      // Another key has its own window.
      expect((await call(limited, 'GET', '/v2/deployments', { key: 'two' })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('lets requests through again once the window has moved on', async () => {
    const limited = await startSimulator({ rateLimit: { requests: 1, windowMs: 100 } });
    try {
      expect((await call(limited, 'GET', '/v2/deployments')).status).toBe(200);
      const over = await call(limited, 'GET', '/v2/deployments');
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('1');
      const deadline = Date.now() + 3000;
      let status = 429;
      while (status === 429 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        status = (await call(limited, 'GET', '/v2/deployments')).status;
      }
      expect(status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
