import { afterEach, describe, expect, it } from '@jest/globals';
import type { Example, LangSmith, RootRun } from '../../../src/api/langsmith.js';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../../../src/lib/errors.js';
import { Deadline } from '../../../src/lib/time.js';
import {
  agentRunner,
  pollWithin,
  recordUntraced,
  runAll,
  type Outcome,
} from '../../../src/verify/eval/runs.js';
import { FakeClock, recordingLogger } from '../../helpers/fakes.js';
import { sendJson, startServer, type LocalServer } from '../../helpers/http-test-server.js';

const examples = (n: number): Example[] =>
  Array.from({ length: n }, (_, i) => ({ id: `ex-${i}`, inputs: { q: i } }));

function context(seconds = 1800, signal?: AbortSignal) {
  const clock = new FakeClock();
  const logger = recordingLogger();
  const http = {
    clock,
    deadline: new Deadline(clock, clock.now() + seconds * 1000),
    logger,
    ...(signal && { signal }),
  };
  return { clock, ctx: { http, logger, config: { apiKey: 'lsv2_pt_runs_key' } } };
}

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('agentRunner', () => {
  const assistants = [
    { assistant_id: 'asst-1', graph_id: 'agent', metadata: { created_by: 'system' } },
  ];

  it('runs an example statelessly with langsmith_tracer, and reads __error__ as a failed run', async () => {
    server = await startServer((req, res) => {
      if (req.url === '/assistants/search') return sendJson(res, 200, assistants);
      const body = JSON.parse(req.body) as { input: { q: number } };
      if (body.input.q === 1)
        return sendJson(res, 200, { __error__: { error: 'ValueError', message: 'boom' } });
      if (body.input.q === 2) {
        // As langgraph-api 2.0.0 answers: the graph's error serialised once more.
        const message = JSON.stringify({ error: 'KeyError', message: 'missing' });
        return sendJson(res, 200, { __error__: { error: 'Error', message } });
      }
      sendJson(res, 200, { answer: body.input.q });
    });
    const { ctx } = context();
    const { run, graph } = await agentRunner(ctx, server.url, undefined, 4);
    expect(graph).toBe('agent');
    await expect(run(examples(1)[0]!, 'exp-a')).resolves.toEqual({ outputs: { answer: 0 } });
    await expect(run(examples(2)[1]!, 'exp-a')).resolves.toEqual({ error: 'ValueError: boom' });
    await expect(run(examples(3)[2]!, 'exp-a')).resolves.toEqual({ error: 'KeyError: missing' });
    const sent = server.requests.filter((r) => r.url === '/runs/wait');
    expect(sent).toHaveLength(3);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({
      assistant_id: 'asst-1',
      input: { q: 0 },
      langsmith_tracer: { project_name: 'exp-a', example_id: 'ex-0' },
    });
    expect(sent[0]!.headers['x-api-key']).toBe('lsv2_pt_runs_key');
  });

  it('names eval-assistant when the graph asked for is not there, before any run', async () => {
    server = await startServer((req, res) => sendJson(res, 200, assistants));
    const { ctx } = context();
    const error = await agentRunner(ctx, server.url, 'other', 4).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ActionError);
    expect((error as ActionError).title).toBe('Evaluation not run');
    expect((error as Error).message).toMatch(/`eval-assistant` "other" is neither a graph ID/);
  });

  it('refuses an agent server the key may not go to', async () => {
    const { ctx } = context();
    await expect(agentRunner(ctx, 'http://agent.example.com', undefined, 4)).rejects.toThrow(
      /plain http on a non-loopback host/,
    );
  });
});

describe('runAll', () => {
  it('runs each example once with at most `concurrency` in flight', async () => {
    const { ctx, clock } = context();
    let inFlight = 0;
    let most = 0;
    const seen: string[] = [];
    const outcomes = await runAll(ctx, examples(10), 'exp', 3, async (example) => {
      inFlight++;
      most = Math.max(most, inFlight);
      seen.push(example.id);
      await clock.sleep(500);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return { outputs: {} };
    });
    expect(most).toBe(3);
    expect(seen.sort()).toEqual(
      examples(10)
        .map((e) => e.id)
        .sort(),
    );
    expect(outcomes.size).toBe(10);
  });

  it('keeps a request failure as the failed run’s error', async () => {
    const { ctx } = context();
    const outcomes = await runAll(ctx, examples(2), 'exp', 2, async (example): Promise<Outcome> => {
      if (example.id === 'ex-1') throw new ApiError('POST /runs/wait failed: HTTP 500.');
      return { outputs: {} };
    });
    expect(outcomes.get('ex-1')).toMatchObject({ error: 'POST /runs/wait failed: HTTP 500' });
  });

  it('stops every worker on cancellation, and at the deadline', async () => {
    const controller = new AbortController();
    const cancelled = context(1800, controller.signal);
    let started = 0;
    const stop = runAll(cancelled.ctx, examples(20), 'exp', 2, async () => {
      started++;
      controller.abort(new CancelledError('cancelled'));
      throw new Error('aborted');
    });
    await expect(stop).rejects.toBeInstanceOf(CancelledError);
    expect(started).toBeLessThanOrEqual(2);

    const late = context(1);
    const timedOut = runAll(late.ctx, examples(20), 'exp', 1, async () => {
      await late.clock.sleep(2000);
      throw new Error('timeout');
    });
    await expect(timedOut).rejects.toThrow(DeadlineError);
    await expect(timedOut).rejects.toThrow(/0 of 20 examples run/);
  });
});

describe('recordUntraced', () => {
  function langsmith(readsUntilTraced: number, traced: string[]) {
    let reads = 0;
    const created: unknown[] = [];
    const api = {
      created,
      reads: () => reads,
      rootRuns: async (): Promise<RootRun[]> => {
        reads++;
        const ids = reads >= readsUntilTraced ? traced : [];
        return ids.map((id) => ({ id: `r-${id}`, reference_example_id: id }));
      },
      createRun: async (run: unknown) => void created.push(run),
    };
    return api;
  }
  const experiment = { id: 'exp-id', name: 'exp', graph: 'agent' };
  const outcomes = (n: number) =>
    new Map(examples(n).map((e) => [e.id, { outputs: { a: e.id }, start_time: 1, end_time: 2 }]));

  it('reads the experiment until every example has a root run, and records none', async () => {
    const { ctx } = context();
    const api = langsmith(3, ['ex-0', 'ex-1']);
    const recorded = await recordUntraced(
      ctx,
      api as unknown as LangSmith,
      experiment,
      examples(2),
      outcomes(2),
      300,
    );
    expect(recorded).toBe(0);
    expect(api.reads()).toBe(3);
    expect(api.created).toEqual([]);
  });

  it('after 60 s (or eval-wait, when less) records the examples still missing, with a notice', async () => {
    const { ctx, clock } = context();
    const api = langsmith(1, ['ex-0']);
    const started = clock.now();
    const recorded = await recordUntraced(
      ctx,
      api as unknown as LangSmith,
      experiment,
      examples(3),
      outcomes(3),
      300,
    );
    expect(recorded).toBe(2);
    expect(api.created).toEqual([
      {
        outputs: { a: 'ex-1' },
        start_time: 1,
        end_time: 2,
        name: 'agent',
        project_name: 'exp',
        reference_example_id: 'ex-1',
        inputs: { q: 1 },
      },
      expect.objectContaining({ reference_example_id: 'ex-2' }),
    ]);
    expect(clock.now() - started).toBeLessThanOrEqual(60_000);
    expect(api.reads()).toBeLessThanOrEqual(16);
    expect(ctx.logger.messages('notice').join('\n')).toMatch(/2 of 3 example runs did not show up/);
    const short = context();
    await recordUntraced(
      short.ctx,
      langsmith(1, []) as unknown as LangSmith,
      experiment,
      examples(1),
      outcomes(1),
      10,
    );
    expect(short.clock.sleeps.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(10_000);
  });
});

describe('pollWithin', () => {
  it('is true once done, false when the window is over, never past the run’s deadline', async () => {
    const { ctx, clock } = context(30);
    let calls = 0;
    await expect(pollWithin(ctx.http, 60_000, 10_000, async () => ++calls === 2)).resolves.toBe(
      true,
    );
    const start = clock.now();
    await expect(pollWithin(ctx.http, 60_000, 10_000, async () => false)).resolves.toBe(false);
    expect(clock.now()).toBeLessThanOrEqual(ctx.http.deadline.at);
    expect(clock.now() - start).toBeGreaterThan(0);
  });
});
