import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Client } from '@langchain/langgraph-sdk';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { call, githubCreate } from './helpers.js';

let sim: Simulator;
let depId: string;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  depId = sim.seedDeployment({ name: 'served' }).id;
});

const client = () =>
  new Client({ apiUrl: sim.agentUrl(depId), apiKey: sim.apiKey, callerOptions: { maxRetries: 0 } });

async function collect(
  stream: AsyncIterable<{ event: string; data: unknown }>,
): Promise<{ event: string; data: unknown }[]> {
  const events: { event: string; data: unknown }[] = [];
  for await (const chunk of stream) events.push({ event: chunk.event, data: chunk.data });
  return events;
}

async function streamRun(
  assistant = 'agent',
  streamMode: ('values' | 'updates')[] = ['values', 'updates'],
) {
  const c = client();
  const thread = await c.threads.create();
  let created: { run_id: string; thread_id?: string } | undefined;
  const events = await collect(
    c.runs.stream(thread.thread_id, assistant, {
      input: { messages: [{ role: 'user', content: 'hi' }] },
      streamMode,
      onRunCreated: (meta) => {
        created = meta;
      },
    }),
  );
  return { thread, events, created };
}

describe('GET /ok', () => {
  const ok = (id = depId) => call(sim, 'GET', `/agents/${id}/ok`);

  it('answers {"ok": true}, with the same API key as the control plane', async () => {
    const answer = await ok();
    expect(answer).toMatchObject({ status: 200, body: { ok: true } });
    expect((await call(sim, 'GET', `/agents/${depId}/ok`, { key: null })).status).toBe(401);
  });

  it('answers 503 the next unhealthyCount times, and always when unhealthy', async () => {
    sim.agent(depId).unhealthyCount = 2;
    expect((await ok()).status).toBe(503);
    expect((await ok()).status).toBe(503);
    expect((await ok()).status).toBe(200);
    sim.agent(depId).healthy = false;
    for (let i = 0; i < 3; i++) expect((await ok()).status).toBe(503);
  });

  it('is not served before a revision is DEPLOYED, nor for unknown or deleted deployments', async () => {
    const building = sim.seedDeployment({ name: 'building', revisions: [{ status: 'BUILDING' }] });
    expect((await ok(building.id)).status).toBe(503);
    expect((await ok('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    await call(sim, 'DELETE', `/v2/deployments/${depId}`);
    expect((await ok()).status).toBe(404);
  });

  it('serves the agent of a created github deployment at its top-level url', async () => {
    sim.setTimeline([{ status: 'DEPLOYED', durationMs: 0 }]);
    const created = await call(sim, 'POST', '/v2/deployments', { body: githubCreate('fresh') });
    const url = (created.body as { url: string }).url;
    const answer = await fetch(`${url}/ok`, { headers: { 'x-api-key': sim.apiKey } });
    expect(await answer.json()).toEqual({ ok: true });
  });
});

describe('agent defaults', () => {
  it('apply to deployments not configured yet, until reset', async () => {
    sim.setAgentDefaults({ run: 'error', graphs: ['one', 'two'] });
    const later = sim.seedDeployment({ name: 'later' });
    expect(sim.agent(later.id)).toMatchObject({ run: 'error', graphs: ['one', 'two'] });
    sim.agent(later.id).graphs.push('three');
    const other = sim.seedDeployment({ name: 'other' });
    expect(sim.agent(other.id).graphs).toEqual(['one', 'two']);
    sim.reset();
    expect(sim.agent(later.id)).toMatchObject({ run: 'success', graphs: ['agent'] });
  });

  it('come from options.agent', async () => {
    const erroring = await startSimulator({ agent: { unhealthyCount: 1 } });
    try {
      const dep = erroring.seedDeployment({ name: 'x' });
      const first = await call(erroring, 'GET', `/agents/${dep.id}/ok`);
      const second = await call(erroring, 'GET', `/agents/${dep.id}/ok`);
      expect([first.status, second.status]).toEqual([503, 200]);
    } finally {
      await erroring.close();
    }
  });
});

describe('assistants and threads through the official SDK', () => {
  it('lists one system assistant per graph, filterable by graph id', async () => {
    sim.agent(depId).graphs = ['agent', 'researcher'];
    const assistants = await client().assistants.search();
    expect(assistants.map((a) => a.graph_id)).toEqual(['agent', 'researcher']);
    expect(assistants[0]).toMatchObject({
      name: 'agent',
      config: {},
      metadata: { created_by: 'system' },
      version: 1,
    });
    expect(assistants[0]!.assistant_id).not.toBe(assistants[1]!.assistant_id);
    const only = await client().assistants.search({ graphId: 'researcher' });
    expect(only.map((a) => a.assistant_id)).toEqual([assistants[1]!.assistant_id]);
  });

  it('creates and deletes threads; deleting an unknown thread is 404', async () => {
    const c = client();
    const thread = await c.threads.create();
    expect(thread).toMatchObject({ status: 'idle', values: null, metadata: {} });
    expect(typeof thread.thread_id).toBe('string');
    await c.threads.delete(thread.thread_id);
    expect(sim.requests.at(-1)).toMatchObject({ method: 'DELETE', status: 204 });
    await expect(c.threads.delete(thread.thread_id)).rejects.toThrow(/404/);
  });
});

describe('streamed runs through the official SDK', () => {
  it('success: metadata, then values and updates, ending with the reply', async () => {
    const { thread, events, created } = await streamRun();
    expect(events.map((e) => e.event)).toEqual(['metadata', 'values', 'updates', 'values']);
    expect(events[0]!.data).toMatchObject({ thread_id: thread.thread_id });
    const runId = (events[0]!.data as { run_id: string }).run_id;
    expect(created).toEqual({ run_id: runId, thread_id: thread.thread_id });
    const final = events.at(-1)!.data as { messages: { type?: string; role?: string }[] };
    expect(final.messages.map((m) => m.role ?? m.type)).toEqual(['user', 'ai']);
    expect(events[2]!.data).toHaveProperty('agent');
    expect(events.some((e) => e.event === 'error')).toBe(false);
  });

  it('error: the stream carries an error event with the graph message', async () => {
    sim.agent(depId).run = 'error';
    sim.agent(depId).errorMessage = 'KeyError: missing OPENAI_API_KEY';
    const { events } = await streamRun();
    const error = events.find((e) => e.event === 'error');
    expect(error?.data).toEqual({
      error: 'ValueError',
      message: 'KeyError: missing OPENAI_API_KEY',
    });
    expect(events.at(-1)!.event).toBe('error');
  });

  it('interrupt: an updates event carries __interrupt__ and there is no error', async () => {
    sim.agent(depId).run = 'interrupt';
    const { events } = await streamRun('agent', ['updates']);
    expect(events.map((e) => e.event)).toEqual(['metadata', 'updates']);
    const update = events[1]!.data as { __interrupt__: { value: unknown; id: string }[] };
    expect(update.__interrupt__).toHaveLength(1);
    expect(update.__interrupt__[0]!.value).toBeDefined();
  });

  it('accepts the assistant ID as well as the graph ID, and 404s an unknown one', async () => {
    const [assistant] = await client().assistants.search();
    const byId = await streamRun(assistant!.assistant_id);
    expect(byId.events.at(-1)!.event).toBe('values');
    await expect(streamRun('nope')).rejects.toThrow(/404/);
  });
});

describe('threads with supersteps, state and history; feedback URLs', () => {
  it('creates a thread from supersteps, one checkpoint each, messages appended', async () => {
    const c = client();
    const thread = await c.threads.create({
      graphId: 'agent',
      supersteps: [
        {
          updates: [
            { asNode: '__start__', values: { messages: [{ type: 'human', content: 'I am Ada' }] } },
          ],
        },
        {
          updates: [
            {
              asNode: 'agent',
              values: { messages: [{ type: 'ai', content: 'Hi Ada' }], mood: 'ok' },
            },
          ],
        },
      ],
    });
    const state = await c.threads.getState<{ messages: { content: string }[]; mood: string }>(
      thread.thread_id,
    );
    expect(state.values.messages.map((m) => m.content)).toEqual(['I am Ada', 'Hi Ada']);
    expect(state.values.mood).toBe('ok');
    expect(await c.threads.getHistory(thread.thread_id)).toHaveLength(2);

    // A run continues from that state: input and reply appended, two more checkpoints.
    await collect(
      c.runs.stream(thread.thread_id, 'agent', {
        input: { messages: [{ role: 'user', content: 'Who am I?' }] },
        streamMode: ['values'],
      }),
    );
    const after = await c.threads.getState<{ messages: { content: string }[] }>(thread.thread_id);
    expect(after.values.messages.map((m) => m.content)).toEqual([
      'I am Ada',
      'Hi Ada',
      'Who am I?',
      'Hello from agent. You said: Who am I?',
    ]);
    const history = await c.threads.getHistory(thread.thread_id, { limit: 10 });
    expect(history).toHaveLength(4);
    expect(history.map((h) => (h.metadata as { source: string }).source)).toEqual([
      'loop',
      'input',
      'update',
      'update',
    ]);
    expect(await c.threads.getHistory(thread.thread_id, { limit: 1 })).toHaveLength(1);
  });

  it('refuses a superstep update without as_node (422)', async () => {
    const answer = await call(sim, 'POST', `/agents/${depId}/threads`, {
      body: { supersteps: [{ updates: [{ values: { a: 1 } }] }] },
    });
    expect(answer.status).toBe(422);
  });

  it('fails a run whose input has `raise`, with that message and no feedback event', async () => {
    const c = client();
    const thread = await c.threads.create();
    const events = await collect(
      c.runs.stream(thread.thread_id, 'agent', { input: { raise: 'nope' }, feedbackKeys: ['ci'] }),
    );
    expect(events.map((e) => e.event)).toEqual(['metadata', 'values', 'error']);
    expect(events[2]?.data).toEqual({ error: 'ValueError', message: 'nope' });
  });

  it('hands out a feedback URL per key; the receiver records a POST and refuses an API key', async () => {
    const c = client();
    const thread = await c.threads.create();
    const events = await collect(
      c.runs.stream(thread.thread_id, 'agent', { input: {}, feedbackKeys: ['ci', 'other'] }),
    );
    const feedback = events.find((e) => e.event === 'feedback')?.data as Record<string, string>;
    expect(Object.keys(feedback)).toEqual(['ci', 'other']);
    const url = new URL(feedback['ci'] as string);
    expect(url.origin).toBe(sim.url);
    const path = url.pathname;

    const withKey = await call(sim, 'POST', path, { body: { score: 1 } });
    expect(withKey.status).toBe(403);
    const ok = await call(sim, 'POST', path, { body: { score: 1, comment: 'fine' }, key: null });
    expect(ok.status).toBe(200);
    const unknown = await call(sim, 'POST', '/api/v1/feedback/tokens/nope', {
      body: { score: 1 },
      key: null,
    });
    expect(unknown.status).toBe(404);
    const runId = events.find((e) => e.event === 'metadata')?.data as { run_id: string };
    expect(sim.feedback().map((f) => [f.status, f.hadApiKey, f.runId, f.key])).toEqual([
      [403, true, runId.run_id, 'ci'],
      [200, false, runId.run_id, 'ci'],
      [404, false, undefined, undefined],
    ]);
  });

  it('counts runs in flight while runDelayMs holds them', async () => {
    sim.agent(depId).runDelayMs = 100;
    const c = client();
    const threads = await Promise.all([c.threads.create(), c.threads.create(), c.threads.create()]);
    await Promise.all(
      threads.map((t) => collect(c.runs.stream(t.thread_id, 'agent', { input: {} }))),
    );
    expect(sim.agentRuns()).toEqual({ started: 3, inFlight: 0, maxInFlight: 3 });
  });
});
