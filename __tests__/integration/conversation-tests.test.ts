/**
 * Conversation tests against a REAL LangGraph agent server (`langgraphjs dev`, the fixture's
 * `echo` graph): one passing and one failing case, a prepared state through supersteps, and
 * the thread history. No feedback key: the dev server would ask LangSmith for the URLs.
 */
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { HttpContext } from '../../src/api/http/request.js';
import type { Logger } from '../../src/lib/untrusted.js';
import { Deadline, systemClock } from '../../src/lib/time.js';
import { runConversationTests } from '../../src/verify/conversation-tests.js';
import { parseTestsFile } from '../../src/inputs/tests-file.js';
import type { VerifyContext } from '../../src/verify/agent-server.js';
import {
  describeWithServer,
  startLangGraphServer,
  type LangGraphServer,
} from '../helpers/langgraph-server.js';

const describeServer = describeWithServer();

const TESTS = `
cases:
  - name: echoes its input
    assistant: echo
    turns:
      - input: {input: hello}
        expect: {values: {input: hello, output: "echo: hello"}}
      - input: {input: again}
        expect: {values: {output: "echo: again"}}
    checkpoints: 4
  - name: expects another answer
    assistant: echo
    turns:
      - input: {input: hello}
        expect: {values: {output: "ECHO: HELLO"}}
  - name: starts from a prepared state
    assistant: echo
    state:
      - updates: [{as_node: __start__, values: {input: prepared}}]
    turns:
      - input: {}
        expect: {values: {output: "echo: prepared"}}
`;

describeServer('conversation tests against a real LangGraph agent server', () => {
  let server: LangGraphServer;
  const lines: string[] = [];
  const logger: Logger = {
    info: (m) => lines.push(m),
    debug: (m) => lines.push(m),
    notice: (m) => lines.push(m),
    warning: (m) => lines.push(m),
    error: (m) => lines.push(m),
  };

  beforeAll(async () => {
    server = await startLangGraphServer();
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  }, 30_000);

  it('passes the echo case, fails the wrong expectation, and deletes the threads', async () => {
    const parsed = parseTestsFile(TESTS, 'tests.yaml');
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const http: HttpContext = {
      clock: systemClock,
      deadline: new Deadline(systemClock, systemClock.now() + 90 * 1000),
      logger,
      baseDelayMs: 200,
    };
    const ctx: VerifyContext = {
      http,
      config: { apiKey: 'lsv2_sk_integration_key_42' },
      logger,
    };
    const result = await runConversationTests(ctx, {
      url: server.url,
      file: 'tests.yaml',
      cases: parsed.cases,
    });
    const [echo, wrong, prepared] = result.cases;
    expect(echo).toMatchObject({ verdict: 'passed', turnsRun: 2 });
    expect(wrong?.verdict).toBe('failed');
    expect(wrong?.reason).toMatch(
      /^turn 1 \(run [0-9a-f-]+\): values\.output is "echo: hello", expected "ECHO: HELLO"$/,
    );
    // The agent server dropped no update: the run continued from the prepared state.
    expect(prepared?.verdict).toBe('passed');
    expect(result).toMatchObject({ passed: 2, failed: 1 });

    // Threads are gone afterwards.
    const search = await fetch(`${server.url}/threads/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { purpose: 'conversation-test' }, limit: 10 }),
    });
    expect(await search.json()).toEqual([]);
  }, 120_000);
});
