/**
 * Conversation tests against the simulator's agent server over loopback HTTP (threads with
 * supersteps, state, history, feedback events and the feedback receiver), plus the pure
 * checks (`partialMismatch`, `lastMessageContent`). Feedback goes only to
 * `https://<LangSmith API host>/api/v1/feedback/tokens/<id>` (plain http only on loopback), the
 * host being the region's, or the control plane's own when `control-plane-url` is set.
 */
import { captureOutputForTests, recordingLogger } from '../helpers/fakes.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { startSimulator, type Simulator } from '../../simulator/index.js';
import { CancelledError } from '../../src/lib/errors.js';
import type { HttpContext } from '../../src/api/http/request.js';
import { redact, resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';
import { Deadline, systemClock } from '../../src/lib/time.js';
import {
  MAX_CHECKED_CHARS,
  checkTurn,
  describeValue,
  feedbackTarget,
  lastMessageContent,
  partialMismatch,
  patternMatches,
  runConversationTests,
} from '../../src/verify/conversation-tests.js';
import { parseTestsFile, patternProblem, type TestCase } from '../../src/inputs/tests-file.js';
import { verifyDeployment } from '../../src/verify/index.js';
import type { VerifyContext } from '../../src/verify/agent-server.js';

let sim: Simulator;
let depId: string;
/** What the run printed; `blocks()`: its untrusted blocks (`printUntrusted`), line by line. */
const printed: string[] = [];
let restoreOutput = () => {};
const blocks = () =>
  [...printed.join('').matchAll(/::stop-commands::(untrusted-[0-9a-f-]+)\n(.*?)\n::\1::/gs)].map(
    (m) => (m[2] ?? '').split('\n'),
  );
const logger = recordingLogger();
const lines = logger.lines;

function context(options: { signal?: AbortSignal; seconds?: number } = {}): VerifyContext {
  const http: HttpContext = {
    clock: systemClock,
    deadline: new Deadline(systemClock, systemClock.now() + (options.seconds ?? 30) * 1000),
    logger,
    baseDelayMs: 20,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  return { http, config: { apiKey: sim.apiKey }, logger };
}

function suite(yaml: string): TestCase[] {
  const parsed = parseTestsFile(yaml, 'tests.yaml');
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return parsed.cases;
}

const run = (
  cases: TestCase[],
  extra: { feedbackKey?: string; feedbackHost?: string; ctx?: VerifyContext } = {},
) =>
  runConversationTests(extra.ctx ?? context(), {
    url: sim.agentUrl(depId),
    file: 'tests.yaml',
    cases,
    ...(extra.feedbackKey !== undefined
      ? {
          feedbackKey: extra.feedbackKey,
          feedbackHost: extra.feedbackHost ?? new URL(sim.url).host,
        }
      : {}),
  });

beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.reset();
  depId = sim.seedDeployment({ name: 'served' }).id;
  lines.length = 0;
  printed.length = 0;
  restoreOutput = captureOutputForTests((text) => printed.push(text));
  resetSecretsForTests();
});
afterEach(() => restoreOutput());

const CHAT = `
cases:
  - name: remembers the user's name
    state:
      - updates: [{as_node: __start__, values: {messages: [{type: human, content: "I am Ada"}], language: en}}]
    turns:
      - input: {messages: [{role: user, content: "What is my name?"}]}
        expect:
          contains: "What is my name?"
          matches: "^Hello from agent\\\\."
          values: {language: en}
      - input: {messages: [{role: user, content: "Thanks"}]}
        expect:
          contains: "You said: Thanks"
          values: {messages: [{content: "I am Ada"}, {}, {}, {}, {type: ai}]}
    checkpoints: 5
  - name: wrong expectation
    turns:
      - input: {messages: [{role: user, content: hi}]}
        expect: {contains: "Bonjour"}
      - input: {messages: [{role: user, content: "never sent"}]}
  - name: graph error
    turns:
      - input: {raise: "the model is down"}
`;

describe('runConversationTests against the simulator', () => {
  it('runs each case on its own thread, turn by turn, and gives verdicts with reasons', async () => {
    const result = await run(suite(CHAT));
    expect(result.passed).toBe(1);
    expect(result.failed).toBe(2);
    const [ok, wrong, error] = result.cases;
    expect(ok).toMatchObject({
      name: "remembers the user's name",
      verdict: 'passed',
      turnsRun: 2,
      turns: 2,
    });
    expect(ok?.runIds).toHaveLength(2);
    expect(wrong).toMatchObject({ verdict: 'failed', turnsRun: 1, turns: 2 });
    expect(wrong?.reason).toMatch(
      /^turn 1 \(run [0-9a-f-]+\): the last message does not contain "Bonjour"$/,
    );
    expect(error?.verdict).toBe('failed');
    expect(error?.reason).toMatch(
      /turn 1 \(run [0-9a-f-]+\) ended with an error: ValueError: the model is down/,
    );

    // The supersteps reached the thread creation, with as_node and the graph in metadata.
    const creates = sim.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/threads'));
    expect(creates).toHaveLength(3);
    expect(creates[0]?.body).toMatchObject({
      metadata: { graph_id: 'agent', purpose: 'conversation-test' },
      supersteps: [{ updates: [{ as_node: '__start__' }] }],
    });
    // The second case stopped at its failed turn: 1 + 2 + 1 runs.
    expect(sim.requests.filter((r) => r.path.endsWith('/runs/stream'))).toHaveLength(4);
    // Every thread was deleted.
    const deletes = sim.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((d) => d.status)).toEqual([204, 204, 204]);
    // The failed expectation shows the agent's reply as an untrusted block.
    expect(blocks()).toEqual([['Hello from agent. You said: hi']]);
  });

  it('fails a case whose thread history is shorter than `checkpoints`', async () => {
    const result = await run(
      suite('cases: [{name: short, turns: [{input: {messages: []}}], checkpoints: 3}]'),
    );
    expect(result.cases[0]?.reason).toBe(
      'the thread history has 2 checkpoints; `checkpoints` asks for at least 3',
    );
    // And passes with what the history holds.
    const enough = await run(
      suite('cases: [{name: ok, turns: [{input: {messages: []}}], checkpoints: 2}]'),
    );
    expect(enough.passed).toBe(1);
  });

  it('reports a partial mismatch of the state values with the path', async () => {
    const result = await run(
      suite('cases: [{name: v, turns: [{input: {lang: fr}, expect: {values: {lang: en}}}]}]'),
    );
    expect(result.cases[0]?.reason).toContain('values.lang is "fr", expected "en"');
  });

  it('posts each verdict to its pre-signed feedback URL, without the API key', async () => {
    const result = await run(suite(CHAT), { feedbackKey: 'ci' });
    const streams = sim.requests.filter((r) => r.path.endsWith('/runs/stream'));
    for (const s of streams) expect(s.body).toMatchObject({ feedback_keys: ['ci'] });
    const feedback = sim.feedback();
    // 3 runs that did not error (2 of the passing case, 1 of the wrong expectation).
    expect(feedback).toHaveLength(3);
    for (const f of feedback) {
      expect(f).toMatchObject({ hadApiKey: false, status: 200, key: 'ci' });
    }
    const byRun = new Map(feedback.map((f) => [f.runId, f.body]));
    const [ok, wrong] = result.cases;
    expect(byRun.get(ok?.runIds[0])).toEqual({
      score: 1,
      comment: `Conversation test "remembers the user's name", turn 1 of 2: passed`,
    });
    expect(byRun.get(wrong?.runIds[0])).toEqual({
      score: 0,
      comment: expect.stringMatching(
        /^Conversation test "wrong expectation", turn 1 of 2: failed: turn 1 .*Bonjour/,
      ),
    });
    expect(result.feedback).toEqual({ sent: 3, failed: 0 });
    const feedbackRequests = sim.requests.filter((r) =>
      r.path.startsWith('/api/v1/feedback/tokens/'),
    );
    expect(feedbackRequests.every((r) => !r.hasApiKey)).toBe(true);
    // A pre-signed URL is a credential: masked as soon as the stream hands it out.
    for (const f of feedback)
      expect(redact(`at ${sim.url}/api/v1/feedback/tokens/${f.token}`)).not.toContain(f.token);
  });

  it('sends nothing to a feedback URL on another host than the LangSmith API host, with one warning', async () => {
    const before = sim.requests.length;
    const result = await run(suite('cases: [{name: a, turns: [{input: {}}]}]'), {
      feedbackKey: 'ci',
      feedbackHost: 'api.smith.langchain.com',
    });
    expect(result.passed).toBe(1);
    expect(result.feedback).toEqual({ sent: 0, failed: 1 });
    const sent = sim.requests.slice(before).filter((r) => r.path.includes('/feedback/'));
    expect(sent).toHaveLength(0);
    const warnings = lines.filter((l) => l.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toMatch(
      /was not called \(not the LangSmith API host api\.smith\.langchain\.com\)/,
    );
  });

  it('keeps the verdicts when the feedback URL refuses, with one warning', async () => {
    sim.inject({ kind: 'status', status: 500, path: /^\/api\/v1\/feedback\//, times: 10 });
    const result = await run(suite('cases: [{name: a, turns: [{input: {}}]}]'), {
      feedbackKey: 'ci',
    });
    expect(result.passed).toBe(1);
    expect(result.feedback).toEqual({ sent: 0, failed: 1 });
    const warnings = lines.filter((l) => l.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain('1 of 1 test verdicts could not be recorded');
  });

  it('runs at most four cases at a time', async () => {
    sim.agent(depId).runDelayMs = 150;
    const cases = suite(
      `cases:\n${Array.from({ length: 9 }, (_, i) => `  - {name: c${i}, turns: [{input: {}}]}`).join('\n')}`,
    );
    const result = await run(cases);
    expect(result.passed).toBe(9);
    expect(sim.agentRuns()).toMatchObject({ started: 9, inFlight: 0, maxInFlight: 4 });
  });

  it('fails a case naming an unknown assistant, and asks which graph when there are several', async () => {
    sim.agent(depId).graphs = ['agent', 'other'];
    const result = await run(
      suite(`cases:
  - {name: unknown, assistant: nope, turns: [{input: {}}]}
  - {name: which, turns: [{input: {}}]}
  - {name: chosen, assistant: other, turns: [{input: {}}]}`),
    );
    expect(result.cases.map((c) => c.verdict)).toEqual(['failed', 'failed', 'passed']);
    expect(result.cases[0]?.reason).toContain('`assistant` "nope" is neither a graph ID');
    expect(result.cases[1]?.reason).toContain('2 graphs ("agent", "other"): set `assistant`');
  });

  it('masks secrets in reasons and in the printed reply', async () => {
    setSecret('sekrit-value-123');
    const result = await run(
      suite(
        `cases: [{name: s, turns: [{input: {messages: [{role: user, content: "sekrit-value-123"}]}, expect: {contains: nothing}}]}]`,
      ),
    );
    expect(result.cases[0]?.verdict).toBe('failed');
    expect(JSON.stringify(blocks())).not.toContain('sekrit-value-123');
    expect(JSON.stringify(blocks())).toContain('***');
    // The same masked reply is handed on to the summary and the PR comment.
    expect(result.cases[0]?.reply).toContain('***');
    expect(result.cases[0]?.reply).not.toContain('sekrit-value-123');
    expect(blocks()).toContainEqual([result.cases[0]?.reply]);
  });

  it('throws CancelledError when the run is cancelled', async () => {
    sim.agent(depId).runDelayMs = 2000;
    const controller = new AbortController();
    const pending = run(suite('cases: [{name: a, turns: [{input: {}}]}]'), {
      ctx: context({ signal: controller.signal }),
    });
    setTimeout(() => controller.abort(new CancelledError('cancelled')), 100);
    await expect(pending).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('verifyDeployment with tests', () => {
  it('runs the tests after the health check and turns failures into a CheckError', async () => {
    const result = await verifyDeployment(context(), {
      url: sim.agentUrl(depId),
      healthCheck: true,
      tests: { file: 'tests.yaml', cases: suite(CHAT) },
    });
    expect(result).toMatchObject({ health: 'passed', tests: 'failed' });
    expect(result.testsResult).toMatchObject({ passed: 1, failed: 2 });
    expect((result.error as Error).name).toBe('CheckError');
    expect((result.error as Error).message).toMatch(
      /^2 of 3 conversation tests failed on http:\/\/127\.0\.0\.1:\d+\/agents\/[^:]+: "wrong expectation" \(turn 1/,
    );
    const first = sim.requests.findIndex((r) => r.path.endsWith('/threads'));
    const ok = sim.requests.findIndex((r) => r.path.endsWith('/ok'));
    expect(ok).toBeGreaterThanOrEqual(0);
    expect(ok).toBeLessThan(first);
  });

  it('skips the tests with the health check when the URL takes no key', async () => {
    const result = await verifyDeployment(context(), {
      url: 'http://agent.example.com',
      healthCheck: true,
      tests: { file: 'tests.yaml', cases: suite(CHAT) },
    });
    expect(result).toEqual({ health: 'skipped', tests: 'skipped' });
    expect(lines.find((l) => l.level === 'warning')?.message).toContain(
      'the health check and the conversation tests were skipped',
    );
  });
});

describe('the checks of one turn', () => {
  it('partialMismatch: keys of mappings, lists item by item, values equal', () => {
    expect(partialMismatch({ a: 1 }, { a: 1, b: 2 }, 'values')).toBeUndefined();
    expect(
      partialMismatch({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 2, d: 3 }] } }, 'values'),
    ).toBeUndefined();
    expect(partialMismatch({ a: 1 }, { b: 2 }, 'values')).toBe('values.a is missing, expected 1');
    expect(partialMismatch({ a: [1] }, { a: [1, 2] }, 'values')).toBe(
      'values.a has 2 items, expected 1',
    );
    expect(partialMismatch({ a: { b: 'x' } }, { a: 'y' }, 'values')).toBe(
      'values.a is "y", expected a mapping',
    );
    expect(partialMismatch({ a: null }, { a: 0 }, 'values')).toBe('values.a is 0, expected null');
  });

  it('lastMessageContent: string content, text parts, or none', () => {
    expect(lastMessageContent({ messages: [{ content: 'a' }, { content: 'b' }] })).toBe('b');
    expect(
      lastMessageContent({
        messages: [{ content: [{ type: 'text', text: 'x' }, 'y', { type: 'image' }] }],
      }),
    ).toBe('xy');
    expect(lastMessageContent({ output: 'no messages' })).toBeUndefined();
    expect(lastMessageContent(null)).toBeUndefined();
  });
});

/**
 * `expect.matches` runs in linear time on at most the first 64 KiB of the reply: the worst
 * expressions we could build finish in milliseconds on a 64 KiB reply (a backtracking engine
 * takes minutes on 30 characters of `(a+)+b`). The values an agent answers are shown in a
 * failed case's reason: a secret among them is masked before the value is cut, so no prefix
 * of it survives the cut.
 */
const SIXTY_FOUR_KIB = 64 * 1024;

describe('matches', () => {
  it.each([
    ['(a+)+b', 'a'],
    ['(a|a)*b', 'a'],
    ['(a|aa)+b$', 'a'],
    ['^(a|aa)+c$', 'a'],
    ['(x+x+)+y', 'x'],
    ['(\\w+\\s?)+$!', 'a '],
    ['(.*){1,32}[bc]', 'a'],
    ['((a*)*)*b', 'a'],
  ])('%s on 64 KiB of %j: no match, in bounded time', (source, unit) => {
    expect(patternProblem(source)).toBeUndefined();
    const text = unit.repeat(SIXTY_FOUR_KIB / unit.length);
    const started = performance.now();
    expect(patternMatches(source, text)).toBe(false);
    // Measured at 0.1 to 200 ms on a shared 2-core machine; a backtracking engine never ends.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it.each(['(.*){1,100}[bc]', '(.*){1,1000}[bc]', '((.*){1,100}){1,10}[bc]', '(\\w*){1,1000}'])(
    'refuses %s: linear, but its program is too large to stay fast',
    (source) => {
      expect(patternProblem(source)).toMatch(/compiles to \d+ instructions, more than the 300/);
    },
  );

  it('looks at the first 64 KiB only, also for contains', () => {
    const reply = `${'a'.repeat(MAX_CHECKED_CHARS)}NEEDLE`;
    expect(patternMatches('NEEDLE', reply)).toBe(false);
    expect(patternMatches('^a+$', reply)).toBe(true);
    const values = { messages: [{ type: 'ai', content: reply }] };
    expect(() => checkTurn('t', { input: {}, expect: { contains: 'NEEDLE' } }, values)).toThrow(
      /does not contain "NEEDLE"/,
    );
    expect(() => checkTurn('t', { input: {}, expect: { matches: 'NEED' } }, values)).toThrow(
      /does not match/,
    );
    expect(() => checkTurn('t', { input: {}, expect: { matches: '\\ba+' } }, values)).not.toThrow();
  });
});

describe('describeValue', () => {
  afterEach(() => resetSecretsForTests());

  it('masks a secret before cutting, even one the cut would split', () => {
    const secret = 'sk-live-conversation-secret-77';
    const restore = captureOutputForTests(() => undefined);
    try {
      setSecret(secret);
    } finally {
      restore();
    }
    for (let at = 100; at < 125; at++) {
      const shown = describeValue(`${'x'.repeat(at)}${secret} tail`);
      expect(shown.length).toBeLessThanOrEqual(120);
      expect({ at, leak: shown.includes('sk-live') }).toEqual({ at, leak: false });
    }
  });
});

// The printed block goes through printUntrusted by default: check it wraps the reply.
describe('default printing', () => {
  it('prints the reply of a failed case inside stop-commands', async () => {
    const out: string[] = [];
    const restore = captureOutputForTests((t) => out.push(t));
    try {
      await runConversationTests(context(), {
        url: sim.agentUrl(depId),
        file: 't.yaml',
        cases: suite(
          'cases: [{name: p, turns: [{input: {messages: [{role: user, content: "::error::owned"}]}, expect: {contains: zzz}}]}]',
        ),
      });
    } finally {
      restore();
    }
    const text = out.join('');
    const token = /::stop-commands::(untrusted-[0-9a-f-]+)/.exec(text)?.[1];
    expect(token).toBeDefined();
    expect(text.indexOf('::error::owned')).toBeGreaterThan(
      text.indexOf(`::stop-commands::${token}`),
    );
    expect(text.indexOf('::error::owned')).toBeLessThan(text.indexOf(`::${token}::`));
  });
});

describe('feedbackTarget', () => {
  const host = 'api.smith.langchain.com';
  it.each([
    ['https://api.smith.langchain.com/api/v1/feedback/tokens/0b1c-2d', host, undefined],
    ['http://127.0.0.1:4010/api/v1/feedback/tokens/abc', '127.0.0.1:4010', undefined],
    ['http://api.smith.langchain.com/api/v1/feedback/tokens/abc', host, 'not https'],
    ['https://evil.example/api/v1/feedback/tokens/abc', host, 'not the LangSmith API host'],
    ['https://api.smith.langchain.com.evil.example/api/v1/feedback/tokens/a', host, 'not the'],
    ['https://api.smith.langchain.com:8443/api/v1/feedback/tokens/abc', host, 'not the'],
    ['https://u:p@api.smith.langchain.com/api/v1/feedback/tokens/abc', host, 'credentials'],
    ['https://api.smith.langchain.com/api/v1/runs', host, 'not a /api/v1/feedback/tokens/'],
    ['https://api.smith.langchain.com/api/v1/feedback/tokens/a?x=1', host, 'not a /api/v1'],
    ['http://127.0.0.1:9999/api/v1/feedback/tokens/abc', '127.0.0.1:4010', 'not the'],
  ])('%s for %s: %s', (url, allowed, problem) => {
    const found = feedbackTarget(url, allowed);
    if (problem === undefined) expect(found).toEqual(new URL(url));
    else expect(found).toEqual(expect.stringContaining(problem));
  });
});
