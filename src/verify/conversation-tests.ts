/**
 * Conversation tests (`tests` input; how they run: the README's "Conversation tests"): each
 * case on a new thread seeded from `state`, its turns streamed in order, `expect` checked after
 * each turn, `checkpoints` against the history at the end. Agent output reaches the log only
 * through `inert()` / `printUntrusted()`, masked. The verdicts go as feedback (INTERFACE v1.2)
 * to URLs the agent stream names, so only a pre-signed token URL on the LangSmith API host of
 * this run's settings (a self-hosted install serves both) gets a request.
 */
import { CancelledError } from '../lib/errors.js';
import { isRecord, safeJson, truncate } from '../lib/text.js';
import type { DeployConfig } from '../inputs/config.js';
import { keyAllowedFor, request } from '../api/http/request.js';
import { inert, printUntrusted, redact } from '../lib/untrusted.js';
import {
  CheckError,
  baseUrl,
  chooseAssistant,
  createSdkClient,
  deleteThread,
  listAssistants,
  shortError,
  stepFailure,
  streamRun,
  type StreamedRun,
  type VerifyContext,
} from './agent-server.js';
import type { TestCase, TestTurn } from '../inputs/tests-file.js';
import { RE2JS } from 're2js';

const MAX_PARALLEL_CASES = 4;
const REASON_MAX_CHARS = 400;
/** The reply shown under a failure: in the log, the step summary and the PR comment. */
const REPLY_MAX_CHARS = 1000;
const TIMED_OUT = 'the `timeout` ran out (raise `timeout` if the tests need longer)';

/** A case's verdict as the report keeps it. Names, reasons and replies are untrusted. */
export type CaseVerdict = Omit<
  Awaited<ReturnType<typeof runConversationTests>>['cases'][number],
  'runIds'
>;

/** The validated `tests` (as in `Config`) and the agent server URL (checked by the caller). */
type ConversationTestsOptions = NonNullable<DeployConfig['tests']> & {
  url: string;
};

/**
 * Runs every case and returns the verdicts, and how many went as feedback. Throws only
 * `CancelledError` (the run was cancelled); every other problem fails the case it belongs to.
 */
export async function runConversationTests(ctx: VerifyContext, options: ConversationTestsOptions) {
  const apiUrl = baseUrl(options.url);
  const client = await createSdkClient(ctx, apiUrl, MAX_PARALLEL_CASES);
  const total = options.cases.length;
  ctx.logger.info(
    `Running ${total} conversation test${total === 1 ? '' : 's'} from ${inert(options.file)} ` +
      `against ${apiUrl} (at most ${MAX_PARALLEL_CASES} at a time).`,
  );

  const assistants = await listAssistants(client, ctx.http.signal).catch((error: unknown) => {
    const { timedOut, text } = stepFailure(ctx, error, 'the conversation tests');
    return `could not list the assistants: ${timedOut ? TIMED_OUT : text}`;
  });
  /** Verdicts recorded through feedback URLs, and why others could not be (one each). */
  const feedback = { sent: 0, problems: [] as string[] };

  const results: Awaited<ReturnType<typeof runCase>>[] = [];
  const queue = [...options.cases.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      results[next[0]] = await runCase(next[1]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_CASES, total) }, worker));

  const { sent, problems } = feedback;
  if (problems.length > 0) {
    const some = [...new Set(problems)].slice(0, 3).join('; ');
    ctx.logger.warning(
      `${problems.length} of ${sent + problems.length} test verdicts could not be recorded in ` +
        `LangSmith (${inert(some, 300)}). The test results are unchanged.`,
      { title: 'Test feedback not recorded' },
    );
  } else if (sent > 0) {
    ctx.logger.info(
      `Recorded ${sent} verdict${sent === 1 ? '' : 's'} on the runs' traces under the feedback ` +
        `key "${inert(options.feedbackKey ?? '')}".`,
    );
  }
  const passed = results.filter((r) => r.verdict === 'passed').length;
  return {
    cases: results,
    passed,
    failed: total - passed,
    feedback: { sent, failed: problems.length },
  };

  /** One case on its own thread, turn by turn; its verdict goes to the log and as feedback. */
  async function runCase(testCase: TestCase) {
    const turns = testCase.turns.length;
    const started = ctx.http.clock.now();
    const withSignal = ctx.http.signal ? { signal: ctx.http.signal } : {};
    /** Each turn's run, as far as the case went. */
    const runs: StreamedRun[] = [];
    let threadId: string | undefined;
    let failure: CheckError | undefined;
    let doing = 'creating its thread';
    try {
      if (typeof assistants === 'string') throw new CheckError(assistants);
      const assistant = chooseAssistant(assistants, testCase.assistant, '`assistant`');
      const thread = await client.threads.create({
        metadata: {
          created_by: 'langgraph-deploy-action',
          purpose: 'conversation-test',
          test_case: testCase.name,
        },
        graphId: assistant.graph_id,
        ...(testCase.state ? { supersteps: testCase.state } : {}),
        ...withSignal,
      });
      const id = (threadId = thread.thread_id);
      for (const [i, turn] of testCase.turns.entries()) {
        const label = `turn ${i + 1}`;
        doing = `streaming ${label}`;
        const run = await streamRun(
          ctx,
          client,
          { threadId: id, assistantId: assistant.assistant_id },
          turn.input,
          { streamMode: ['values'], feedbackKey: options.feedbackKey },
        );
        runs.push(run);
        const where = `${label}${run.runId ? ` (run ${run.runId})` : ''}`;
        if (run.error !== undefined) {
          throw new CheckError(`${where} ended with an error: ${run.error}`);
        }
        doing = `reading the thread state after ${label}`;
        const values =
          run.values ?? (await client.threads.getState(id, undefined, withSignal)).values;
        checkTurn(where, turn, values);
      }
      if (testCase.checkpoints !== undefined && testCase.checkpoints > 0) {
        const wanted = testCase.checkpoints;
        doing = 'reading the thread history';
        const history = await client.threads.getHistory(id, { limit: wanted, ...withSignal });
        const count = Array.isArray(history) ? history.length : 0;
        if (count < wanted) {
          throw new CheckError(
            `the thread history has ${count} checkpoint${count === 1 ? '' : 's'}; ` +
              `\`checkpoints\` asks for at least ${wanted}`,
          );
        }
      }
    } catch (error) {
      const { timedOut, text } = stepFailure(ctx, error, 'the conversation tests');
      failure =
        error instanceof CheckError
          ? error
          : new CheckError(
              `failed while ${doing}: ${timedOut ? TIMED_OUT : text}` +
                (doing.startsWith('streaming') && !timedOut
                  ? ' (a run request is never retried)'
                  : ''),
            );
    } finally {
      if (threadId !== undefined) await deleteThread(ctx, client, 'test', threadId);
    }
    const verdict: 'passed' | 'failed' = failure ? 'failed' : 'passed';
    const reason = failure
      ? truncate(redact(failure.message), REASON_MAX_CHARS)
      : `${turns} turn${turns === 1 ? '' : 's'} as expected` +
        (testCase.checkpoints ? `, at least ${testCase.checkpoints} checkpoints` : '');
    // The reply that failed the case, masked and cut (still untrusted: printed inert, fenced).
    const reply = failure?.excerpt && truncate(redact(failure.excerpt), REPLY_MAX_CHARS);
    if (reply !== undefined) {
      ctx.logger.info(`Last reply in "${inert(testCase.name, 200)}" (agent output, as received):`);
      printUntrusted([reply]);
    }
    // The last run that ran carries the case's verdict (checkpoints included); earlier runs
    // passed their turns (a failed turn ends the case).
    await sendFeedback(testCase, runs, failure ? reason : undefined);
    const durationMs = Math.max(0, ctx.http.clock.now() - started);
    ctx.logger.info(
      `${failure ? '✗' : '✓'} ${inert(testCase.name, 200)}: ${verdict} ` +
        `(${runs.length}/${turns} turn${turns === 1 ? '' : 's'}, ${(durationMs / 1000).toFixed(1)} s)` +
        (failure ? `: ${inert(reason, REASON_MAX_CHARS)}` : ''),
    );
    return {
      name: testCase.name,
      turnsRun: runs.length,
      turns,
      verdict,
      reason,
      ...(reply !== undefined && { reply }),
      durationMs,
      runIds: runs.flatMap((r) => (r.runId ? [r.runId] : [])),
    };
  }

  /**
   * POSTs `{score, comment}` to each run's pre-signed feedback URL: no API key, no other
   * header that could carry one; only https or a loopback host. Best effort: failures are
   * counted (one warning for the whole file), never thrown.
   */
  async function sendFeedback(testCase: TestCase, runs: StreamedRun[], caseFailed?: string) {
    const failed = (problem: string) => feedback.problems.push(problem);
    for (const [i, run] of runs.entries()) {
      if (run.feedbackUrl === undefined) continue;
      if (ctx.http.signal?.aborted || ctx.http.deadline.passed()) return;
      const passed = i < runs.length - 1 || caseFailed === undefined;
      const comment = truncate(
        redact(
          `Conversation test "${testCase.name}", turn ${i + 1} of ${testCase.turns.length}: ` +
            (passed ? 'passed' : `failed: ${caseFailed}`),
        ),
        1000,
      );
      // Only the LangSmith API host the settings name: no request anywhere else.
      const url = feedbackTarget(run.feedbackUrl, options.feedbackHost);
      if (typeof url === 'string') {
        failed(url);
        continue;
      }
      try {
        const res = await request(ctx.http, {
          method: 'POST',
          url: url.href,
          headers: { accept: 'application/json' },
          body: { score: passed ? 1 : 0, comment },
          // Creates feedback: retried only when it certainly was not received.
          retry: 'unsafe',
          describe: `POST the feedback URL on ${url.host}`,
        });
        if (res.status >= 200 && res.status < 300) feedback.sent++;
        else failed(`HTTP ${res.status} from ${url.host}`);
      } catch (error) {
        if (error instanceof CancelledError) return;
        failed(`${shortError(error)} from ${url.host}`);
      }
    }
  }
}

const TOKEN_PATH = /^\/api\/v1\/feedback\/tokens\/[A-Za-z0-9_-]{1,100}$/;

/** The URL to POST a verdict to, or why there is none (a phrase for the one warning). */
export function feedbackTarget(raw: string, allowedHost: string | undefined): URL | string {
  if (!URL.canParse(raw)) return 'the feedback URL is not a URL';
  const url = new URL(raw);
  const refused = (
    [
      [allowedHost === undefined, 'no LangSmith API host is known'],
      [!keyAllowedFor(url), 'not https'],
      [url.host !== allowedHost, `not the LangSmith API host ${allowedHost}`],
      [url.username !== '' || url.password !== '', 'it holds credentials'],
      [
        !TOKEN_PATH.test(url.pathname) || url.search !== '' || url.hash !== '',
        'not a /api/v1/feedback/tokens/<id> URL',
      ],
    ] as const
  ).find(([refuses]) => refuses)?.[1];
  if (refused === undefined) return url;
  return `a feedback URL on ${url.protocol}//${url.host} was not called (${refused})`;
}

// What a case checks, pure: a turn's expectations (`contains`, `matches`, `values` as a partial
// match) and the last message of a reply. `matches` is RE2 syntax (no lookarounds or
// back-references) on `re2js`, whose time grows linearly with the text, on the first 64 KiB of
// the reply; the size of the compiled program is bounded as the tests file is read
// (`patternProblem` in `inputs/tests-file.ts`).

/** The most of a reply that `contains` and `matches` look at (in UTF-16 code units). */
export const MAX_CHECKED_CHARS = 64 * 1024;

const compiled = new Map<string, RE2JS>();

/** Whether `source` (validated by `patternProblem`) finds a match in the first 64 KiB of `text`. */
export function patternMatches(source: string, text: string): boolean {
  const pattern = compiled.get(source) ?? RE2JS.compile(source);
  compiled.set(source, pattern);
  return pattern.matcher(text.slice(0, MAX_CHECKED_CHARS)).find();
}

/** Checks one turn's `expect`; throws `CheckError` with the first unmet expectation. */
export function checkTurn(where: string, turn: TestTurn, values: unknown): void {
  const expect = turn.expect;
  if (!expect) return;
  if (expect.contains !== undefined || expect.matches !== undefined) {
    const full = lastMessageContent(values);
    if (full === undefined) {
      throw new CheckError(
        `${where}: the thread state has no messages, so \`contains\`/\`matches\` cannot be ` +
          'checked (use `values` for graphs without a `messages` key)',
      );
    }
    const content = full.slice(0, MAX_CHECKED_CHARS);
    const unmet =
      expect.contains !== undefined && !content.includes(expect.contains)
        ? `${where}: the last message does not contain "${expect.contains}"`
        : expect.matches !== undefined && !patternMatches(expect.matches, content)
          ? `${where}: the last message does not match /${expect.matches}/`
          : undefined;
    if (unmet !== undefined) throw Object.assign(new CheckError(unmet), { excerpt: content });
  }
  const mismatch = expect.values !== undefined && partialMismatch(expect.values, values, 'values');
  if (!mismatch) return;
  throw Object.assign(new CheckError(`${where}: ${mismatch}`), { excerpt: safeJson(values) });
}

/** The text of the last message of `values.messages` (string content or its text parts). */
export function lastMessageContent(values: unknown): string | undefined {
  const messages = (values as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return undefined;
  const last: unknown = messages.at(-1);
  if (typeof last === 'string') return last;
  if (typeof last !== 'object' || last === null) return undefined;
  const content = (last as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        const text = typeof part === 'string' ? part : (part as { text?: unknown } | null)?.text;
        return typeof text === 'string' ? text : '';
      })
      .join('');
  }
  return content === undefined || content === null ? '' : safeJson(content);
}

/**
 * Where `actual` does not match `expected` partially: mappings need the expected keys only
 * (recursively), lists the same length with each item matched, other values equal. Undefined
 * when it matches.
 */
export function partialMismatch(
  expected: unknown,
  actual: unknown,
  path: string,
): string | undefined {
  const list = Array.isArray(expected);
  if (!list && !isRecord(expected)) {
    if (expected === actual) return undefined;
    return `${path} is ${describeValue(actual)}, expected ${describeValue(expected)}`;
  }
  if (list ? !Array.isArray(actual) : !isRecord(actual)) {
    return `${path} is ${describeValue(actual)}, expected ${list ? 'a list' : 'a mapping'}`;
  }
  const found = actual as Record<string, unknown> & unknown[];
  if (list && found.length !== expected.length) {
    return `${path} has ${found.length} items, expected ${expected.length}`;
  }
  for (const [key, value] of Object.entries(expected)) {
    const sub = list ? `${path}[${key}]` : `${path}.${key}`;
    if (!(key in found)) return `${sub} is missing, expected ${describeValue(value)}`;
    const mismatch = partialMismatch(value, found[key], sub);
    if (mismatch !== undefined) return mismatch;
  }
  return undefined;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  // Masked before the cut: a secret the cut would split is still whole here.
  return truncate(redact(safeJson(value)), 120);
}
