/**
 * Conversation tests (`tests` input) against the deployed agent server, after the health
 * check and the smoke run: each case on a new thread (seeded with `supersteps` from `state`),
 * its turns in order with `runs/stream`, each `expect` checked right after its turn,
 * `checkpoints` against the thread's history at the end. At most four cases at a time;
 * threads are deleted afterwards (best effort). With a feedback key, each verdict goes to the
 * run's pre-signed feedback URL as `{score, comment}`, without the API key, only where
 * `feedback-url.ts` allows the host (best effort).
 *
 * Every agent-server call goes through `@langchain/langgraph-sdk` on our HTTP layer (one
 * deadline, cancellation, no redirects, size caps, the stream POST never retried). Agent output
 * is untrusted: it reaches the log only through `inert()` / `printUntrusted()`, masked.
 */
import { CancelledError, DeadlineError } from '../lib/errors.js';
import { feedbackTarget } from './feedback-url.js';
import { request } from '../api/http/request.js';
import { inert, printUntrusted, redact, setSecret } from '../lib/untrusted.js';
import { shortError, type VerifyContext } from './shared.js';
import { createSdkClient, deleteThread, describeRequestError, describeRunError } from './smoke.js';
import {
  CaseFailure,
  checkTurn,
  chooseAssistant,
  failedReply,
  listAssistants,
  truncate,
  type Assistant,
} from './expectations.js';
import type { TestCase, TestTurn } from './tests-file.js';

type SdkClient = import('@langchain/langgraph-sdk').Client;

/** Cases that run at the same time, at most. */
export const MAX_PARALLEL_CASES = 4;
const REASON_MAX_CHARS = 400;

export interface CaseResult {
  name: string;
  /** Turns that ran (a failed turn ends its case). */
  turnsRun: number;
  turns: number;
  verdict: 'passed' | 'failed';
  /** Why it failed, or what passed; masked, untrusted (agent text may be quoted). */
  reason: string;
  reply?: string; // the reply that failed the case, masked and cut: for the reports
  durationMs: number;
  runIds: string[];
}

export interface ConversationTestsResult {
  cases: CaseResult[];
  passed: number;
  failed: number;
  /** Verdicts recorded through feedback URLs, and those that could not be. */
  feedback: { sent: number; failed: number };
}

export interface ConversationTestsOptions {
  /** The agent server URL (checked by the caller: https or loopback). */
  url: string;
  file: string;
  cases: TestCase[];
  /** Feedback key asked for on every run; undefined: no feedback. */
  feedbackKey?: string;
  /**
   * The only host verdicts may be POSTed to (`feedback-url.ts`: the region's LangSmith API
   * host, or the control plane's); undefined: none is sent.
   */
  feedbackHost?: string;
  /** Default 4. */
  maxParallel?: number;
  /** Prints a block of untrusted text; default `printUntrusted`. */
  printBlock?: (lines: string[]) => void;
}

/** One turn's run: what the stream brought. */
interface TurnRun {
  runId?: string;
  error?: string;
  values?: unknown;
  feedbackUrl?: string;
}

/**
 * Runs every case and returns the verdicts. Throws only `CancelledError` (the run was
 * cancelled); every other problem fails the case it belongs to.
 */
export async function runConversationTests(
  ctx: VerifyContext,
  options: ConversationTestsOptions,
): Promise<ConversationTestsResult> {
  const apiUrl = options.url.trim().replace(/\/+$/, '');
  const parallel = Math.max(1, Math.min(options.maxParallel ?? MAX_PARALLEL_CASES, 16));
  const client = await createSdkClient(ctx, apiUrl, parallel);
  const print = options.printBlock ?? ((lines: string[]) => printUntrusted(lines));
  const total = options.cases.length;
  ctx.logger.info(
    `Running ${total} conversation test${total === 1 ? '' : 's'} from ${inert(options.file)} ` +
      `against ${apiUrl} (at most ${parallel} at a time).`,
  );

  let assistants: Assistant[] | undefined;
  let listError: string | undefined;
  try {
    assistants = await listAssistants(client, ctx.http.signal);
  } catch (error) {
    throwIfCancelled(ctx, error);
    listError = `could not list the assistants: ${failureText(ctx, error)}`;
  }

  const feedback = { sent: 0, failed: 0, problems: new Set<string>() };
  const results: CaseResult[] = new Array<CaseResult>(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      const testCase = options.cases[index] as TestCase;
      const result = await runCase(ctx, client, testCase, {
        assistants,
        listError,
        feedbackKey: options.feedbackKey,
        feedbackHost: options.feedbackHost,
        feedback,
        print,
      });
      results[index] = result;
      const mark = result.verdict === 'passed' ? '✓' : '✗';
      ctx.logger.info(
        `${mark} ${inert(testCase.name, 200)}: ${result.verdict} ` +
          `(${result.turnsRun}/${result.turns} turn${result.turns === 1 ? '' : 's'}, ` +
          `${(result.durationMs / 1000).toFixed(1)} s)` +
          (result.verdict === 'failed' ? `: ${inert(result.reason, REASON_MAX_CHARS)}` : ''),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, total) }, worker));

  if (feedback.failed > 0) {
    ctx.logger.warning(
      `${feedback.failed} of ${feedback.sent + feedback.failed} test verdicts could not be ` +
        `recorded in LangSmith (${inert([...feedback.problems].slice(0, 3).join('; '), 300)}). ` +
        'The test results are unchanged.',
      { title: 'Test feedback not recorded' },
    );
  } else if (feedback.sent > 0) {
    ctx.logger.info(
      `Recorded ${feedback.sent} verdict${feedback.sent === 1 ? '' : 's'} on the runs' traces ` +
        `under the feedback key "${inert(options.feedbackKey ?? '')}".`,
    );
  }
  const passed = results.filter((r) => r.verdict === 'passed').length;
  return {
    cases: results,
    passed,
    failed: total - passed,
    feedback: { sent: feedback.sent, failed: feedback.failed },
  };
}

interface CaseDeps {
  assistants: Assistant[] | undefined;
  listError: string | undefined;
  feedbackKey: string | undefined;
  feedbackHost: string | undefined;
  feedback: { sent: number; failed: number; problems: Set<string> };
  print: (lines: string[]) => void;
}

async function runCase(
  ctx: VerifyContext,
  client: SdkClient,
  testCase: TestCase,
  deps: CaseDeps,
): Promise<CaseResult> {
  const started = ctx.http.clock.now();
  const signal = ctx.http.signal;
  const runs: { url?: string; turn: number; passed: boolean }[] = [];
  const runIds: string[] = [];
  let turnsRun = 0;
  let threadId: string | undefined;
  let failure: CaseFailure | undefined;
  try {
    if (deps.listError !== undefined) throw new CaseFailure(deps.listError);
    const assistant = chooseAssistant(deps.assistants ?? [], testCase.assistant);
    const thread = await step(ctx, 'creating its thread', () =>
      client.threads.create({
        metadata: {
          created_by: 'langgraph-deploy-action',
          purpose: 'conversation-test',
          test_case: testCase.name,
        },
        graphId: assistant.graph_id,
        ...(testCase.state ? { supersteps: testCase.state } : {}),
        ...(signal ? { signal } : {}),
      }),
    );
    threadId = thread.thread_id;
    for (const [i, turn] of testCase.turns.entries()) {
      const label = `turn ${i + 1}`;
      const run = await streamTurn(ctx, client, threadId, assistant.assistant_id, turn, {
        label,
        feedbackKey: deps.feedbackKey,
      });
      turnsRun = i + 1;
      if (run.runId) runIds.push(run.runId);
      const record = {
        ...(run.feedbackUrl ? { url: run.feedbackUrl } : {}),
        turn: i + 1,
        passed: false,
      };
      runs.push(record);
      const where = `${label}${run.runId ? ` (run ${run.runId})` : ''}`;
      if (run.error !== undefined) {
        throw new CaseFailure(`${where} ended with an error: ${run.error}`);
      }
      const id = threadId;
      const values =
        run.values ??
        (await step(ctx, `reading the thread state after ${label}`, async () => {
          const state = await client.threads.getState(id, undefined, {
            ...(signal ? { signal } : {}),
          });
          return state.values as unknown;
        }));
      checkTurn(where, turn, values);
      record.passed = true;
    }
    if (testCase.checkpoints !== undefined && testCase.checkpoints > 0) {
      const id = threadId;
      const wanted = testCase.checkpoints;
      const history = await step(ctx, 'reading the thread history', () =>
        client.threads.getHistory(id, { limit: wanted, ...(signal ? { signal } : {}) }),
      );
      const count = Array.isArray(history) ? history.length : 0;
      if (count < wanted) {
        throw new CaseFailure(
          `the thread history has ${count} checkpoint${count === 1 ? '' : 's'}; ` +
            `\`checkpoints\` asks for at least ${wanted}`,
        );
      }
    }
  } catch (error) {
    throwIfCancelled(ctx, error);
    failure = error instanceof CaseFailure ? error : new CaseFailure(failureText(ctx, error));
  } finally {
    if (threadId !== undefined) await deleteThread(ctx, client, 'test', threadId);
  }
  const verdict = failure ? 'failed' : 'passed';
  const reason = failure
    ? truncate(redact(failure.message), REASON_MAX_CHARS)
    : `${testCase.turns.length} turn${testCase.turns.length === 1 ? '' : 's'} as expected` +
      (testCase.checkpoints ? `, at least ${testCase.checkpoints} checkpoints` : '');
  const reply = failedReply(failure);
  if (reply !== undefined) {
    ctx.logger.info(`Last reply in "${inert(testCase.name, 200)}" (agent output, as received):`);
    deps.print([reply]);
  }
  // The last run that ran carries the case's verdict (checkpoints included); earlier runs
  // carry their own turn's.
  await sendFeedback(ctx, testCase, runs, verdict === 'passed', reason, deps);
  return {
    name: testCase.name,
    turnsRun,
    turns: testCase.turns.length,
    verdict,
    reason,
    ...(reply !== undefined && { reply }),
    durationMs: Math.max(0, ctx.http.clock.now() - started),
    runIds,
  };
}

async function streamTurn(
  ctx: VerifyContext,
  client: SdkClient,
  threadId: string,
  assistantId: string,
  turn: TestTurn,
  options: { label: string; feedbackKey: string | undefined },
): Promise<TurnRun> {
  const signal = ctx.http.signal;
  const run: TurnRun = {};
  const stream = client.runs.stream(threadId, assistantId, {
    input: turn.input as Record<string, unknown>,
    streamMode: ['values'],
    ...(options.feedbackKey !== undefined ? { feedbackKeys: [options.feedbackKey] } : {}),
    onRunCreated: (meta) => {
      run.runId = meta.run_id;
    },
    ...(signal ? { signal } : {}),
  });
  await step(ctx, `streaming ${options.label}`, async () => {
    for await (const chunk of stream) {
      const event = String(chunk.event);
      const data: unknown = chunk.data;
      if (event === 'metadata' && run.runId === undefined) {
        const id = (data as { run_id?: unknown } | null)?.run_id;
        if (typeof id === 'string') run.runId = id;
      } else if (event === 'error') {
        run.error = describeRunError(data);
      } else if (event === 'values') {
        run.values = data;
      } else if (event === 'feedback' && options.feedbackKey !== undefined) {
        const url = (data as Record<string, unknown> | null)?.[options.feedbackKey];
        // Pre-signed: the URL is its own credential, so it is masked like one.
        if (typeof url === 'string') setSecret((run.feedbackUrl = url));
      }
    }
  });
  return run;
}

/** Runs one step; a request failure becomes a `CaseFailure` naming the step. */
async function step<T>(ctx: VerifyContext, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throwIfCancelled(ctx, error);
    if (error instanceof CaseFailure) throw error;
    const streaming = what.startsWith('streaming');
    throw new CaseFailure(
      `failed while ${what}: ${failureText(ctx, error)}` +
        (streaming && !(error instanceof DeadlineError || ctx.http.deadline.passed())
          ? ' (a run request is never retried)'
          : ''),
    );
  }
}

function failureText(ctx: VerifyContext, error: unknown): string {
  if (error instanceof DeadlineError || ctx.http.deadline.passed()) {
    return 'the `timeout` ran out (raise `timeout` if the tests need longer)';
  }
  return describeRequestError(error);
}

function throwIfCancelled(ctx: VerifyContext, error: unknown): void {
  if (error instanceof CancelledError) throw error;
  if (ctx.http.signal?.aborted) {
    throw new CancelledError('The run was cancelled during the conversation tests.');
  }
}

/**
 * POSTs `{score, comment}` to each run's pre-signed feedback URL: no API key, no other
 * header that could carry one; only https or a loopback host. Best effort: failures are
 * counted (one warning for the whole file), never thrown.
 */
async function sendFeedback(
  ctx: VerifyContext,
  testCase: TestCase,
  runs: { url?: string; turn: number; passed: boolean }[],
  casePassed: boolean,
  caseReason: string,
  deps: CaseDeps,
): Promise<void> {
  if (deps.feedbackKey === undefined) return;
  const total = testCase.turns.length;
  for (const [i, run] of runs.entries()) {
    if (run.url === undefined) continue;
    if (ctx.http.signal?.aborted || ctx.http.deadline.passed()) return;
    const isLast = i === runs.length - 1;
    const passed = isLast ? casePassed : run.passed;
    const comment = truncate(
      redact(
        `Conversation test "${testCase.name}", turn ${run.turn} of ${total}: ` +
          (passed ? 'passed' : `failed: ${caseReason}`),
      ),
      1000,
    );
    // Only the LangSmith API host the settings name: no request anywhere else.
    const target = feedbackTarget(run.url, deps.feedbackHost);
    if (!target.ok) {
      deps.feedback.failed++;
      deps.feedback.problems.add(target.problem);
      continue;
    }
    const url = target.url;
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
      if (res.status >= 200 && res.status < 300) deps.feedback.sent++;
      else {
        deps.feedback.failed++;
        deps.feedback.problems.add(`HTTP ${res.status} from ${url.host}`);
      }
    } catch (error) {
      if (error instanceof CancelledError) return;
      deps.feedback.failed++;
      deps.feedback.problems.add(`${shortError(error)} from ${url.host}`);
    }
  }
}
