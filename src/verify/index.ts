/**
 * Checks of the agent server after `DEPLOYED`, in order: the health check (`GET <url>/ok`
 * through the action's HTTP layer), the smoke run, the conversation tests. A URL the API key
 * may not go to skips them all with one warning.
 */
import { ApiError, CancelledError, DeadlineError } from '../lib/errors.js';
import { parseJson } from '../api/answers.js';
import { OutcomeUnknownError, RefusedAnswerError, request } from '../api/http/request.js';
import { backoffCeiling, DEFAULTS, parseRetryAfter, retrying } from '../api/http/retry-policy.js';
import { formatSeconds as seconds, safeJson } from '../lib/text.js';
import { inert, redact } from '../lib/untrusted.js';
import type { DeployConfig } from '../inputs/config.js';
import {
  CheckError,
  baseUrl,
  chooseAssistant,
  createSdkClient,
  deleteThread,
  listAssistants,
  requireCheckableUrl,
  shortError,
  stepFailure,
  streamRun,
  urlProblem,
  type VerifyContext,
} from './agent-server.js';
import { runConversationTests } from './conversation-tests.js';

/** The checks' inputs, as in `Config`, and the agent server URL (`url` output, if any). */
export type VerifyOptions = Pick<
  DeployConfig,
  'healthCheck' | 'smokeTest' | 'smokeTestAssistant' | 'tests'
> & { url: string | undefined };

/** What each check came to, as the report keeps it. */
export interface Checks {
  health?: 'passed' | 'failed' | 'skipped';
  smoke?: 'passed' | 'interrupted' | 'failed' | 'skipped';
  tests?: 'passed' | 'failed' | 'skipped';
}

/** The report's `checks`; `error` is set when a check failed. */
export type VerifyResult = Checks & {
  error?: unknown;
  testsResult?: Awaited<ReturnType<typeof runConversationTests>>;
};

/**
 * Runs the checks the inputs ask for, in order: a failed one is returned in `error` (the later
 * ones do not run); a cancellation is thrown.
 */
export async function verifyDeployment(ctx: VerifyContext, options: VerifyOptions) {
  const checks = (
    [
      ['health', options.healthCheck, 'the health check'],
      ['smoke', options.smokeTest !== undefined, 'the smoke run'],
      ['tests', options.tests !== undefined, 'the conversation tests'],
    ] as const
  ).filter(([, wanted]) => wanted);
  if (checks.length === 0) return {};
  const problem = urlProblem(options.url);
  if (problem !== undefined) {
    const names = new Intl.ListFormat('en').format(checks.map(([, , name]) => name));
    const were = checks.length > 1 || checks[0]?.[0] === 'tests' ? 'were' : 'was';
    ctx.logger.warning(`${problem.reason}, so ${names} ${were} skipped. ${problem.advice}`, {
      title: 'Checks skipped',
    });
    return Object.fromEntries(checks.map(([key]) => [key, 'skipped'])) as VerifyResult;
  }
  const url = options.url as string;
  const result: VerifyResult = {};
  let running: 'health' | 'smoke' = 'health';
  try {
    if (options.healthCheck) {
      const { attempts } = await healthCheck(ctx, url);
      result.health = 'passed';
      ctx.logger.info(
        `Health check passed: ${baseUrl(url)}/ok answered {"ok": true} ` +
          `(${attempts} request${attempts === 1 ? '' : 's'}).`,
      );
    }
    running = 'smoke';
    if (options.smokeTest !== undefined) {
      const smoke = await smokeTest(ctx, url, options.smokeTest, options.smokeTestAssistant);
      result.smoke = smoke.outcome;
    }
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    return { ...result, [running]: 'failed', error };
  }
  if (options.tests) {
    const tests = await runConversationTests(ctx, { ...options.tests, url });
    result.testsResult = tests;
    result.tests = tests.failed > 0 ? 'failed' : 'passed';
    if (tests.failed > 0) {
      const failed = tests.cases.filter((c) => c.verdict === 'failed');
      const listed = failed
        .slice(0, 5)
        .map((c) => `"${inert(c.name, 100)}" (${inert(c.reason, 200)})`)
        .join('; ');
      result.error = new CheckError(
        redact(
          `${tests.failed} of ${tests.cases.length} conversation tests failed on ${baseUrl(url)}: ` +
            `${listed}${failed.length > 5 ? `; and ${failed.length - 5} more` : ''}. The table ` +
            'in the step summary has every verdict; fix the agent (or the tests file) and push again.',
        ),
        'Conversation tests failed',
      );
    }
  }
  return result;
}

/** Timeout of one `/ok` request: a server that hangs is retried rather than waited for. */
const HEALTH_REQUEST_TIMEOUT_MS = 10_000;

/**
 * `GET <url>/ok` with the API key until it answers 200 `{"ok": true}`: a fresh revision can
 * take a while to serve. Waits grow from the base delay to 5× it; `Retry-After` on 429 is
 * honoured. Throws `ActionError` naming the URL and the last answer when the deadline would
 * pass, or at once when the key is refused (401/403); `CancelledError` on cancellation.
 * `attempts`: the requests made, the successful one included.
 */
export async function healthCheck(ctx: VerifyContext, url: string) {
  requireCheckableUrl(url, 'health check');
  const okUrl = `${baseUrl(url)}/ok`;
  const { http } = ctx;
  const base = http.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const started = http.clock.now();
  const perRequest = http.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs;
  const oneRequest = { ...http, requestTimeoutMs: Math.min(perRequest, HEALTH_REQUEST_TIMEOUT_MS) };
  let last = 'no answer yet';
  let attempts = 0;
  const failed = (message: string) => new CheckError(redact(message), 'Health check failed');
  const outOfTime = () =>
    failed(
      `Health check failed: ${okUrl} did not answer {"ok": true} before the \`timeout\` ran out ` +
        `(${attempts} request${attempts === 1 ? '' : 's'} in ` +
        `${seconds(Math.round(http.clock.now() - started))}; last answer: ${last}). The ` +
        "revision is DEPLOYED but its agent server is not serving: check the deployment's " +
        'logs in the LangSmith UI, or raise `timeout` if it needs longer to start.',
    );
  const what = `the health check of ${okUrl}`;
  const backoff = (retry: number) => backoffCeiling(retry, base, base * 5);
  return retrying<{ ok: true; attempts: number }>({ http, what, backoff, outOfTime }, async (n) => {
    attempts = n;
    try {
      const res = await request(oneRequest, {
        method: 'GET',
        url: okUrl,
        headers: { 'x-api-key': ctx.config.apiKey, accept: 'application/json' },
        retry: 'never',
        describe: `GET ${okUrl}`,
      });
      const body = parseJson(res.text) as { ok?: unknown } | null | undefined;
      if (res.status === 200 && body?.ok === true) return { done: { ok: true, attempts } };
      if (res.status === 401 || res.status === 403) {
        throw failed(
          `Health check of ${okUrl} failed: the agent server refused the API key ` +
            `(HTTP ${res.status}). Check that \`api-key\` has access to the deployment's ` +
            'workspace (and `workspace-id`).',
        );
      }
      last =
        res.status === 200 ? 'HTTP 200 with a body other than {"ok": true}' : `HTTP ${res.status}`;
      const retryAfter = res.status === 429 ? res.headers.get('retry-after') : null;
      return { again: last, afterMs: parseRetryAfter(retryAfter, http.clock.now()) };
    } catch (error) {
      if (error instanceof DeadlineError) {
        attempts--; // it was never sent
        throw outOfTime();
      }
      // Cut short by the deadline, not answered: the answer before it is the last one.
      if (http.deadline.passed()) throw outOfTime();
      // A network fault or an unknown outcome: retried. Anything else (cancellation, the
      // key refused) ends the check.
      if (!(error instanceof ApiError || error instanceof OutcomeUnknownError)) throw error;
      // A redirect or an oversized answer will not change on a retry: fail at once.
      if (error instanceof RefusedAnswerError) {
        throw failed(`Health check of ${okUrl} failed: ${error.message}`);
      }
      last = shortError(error);
      return { again: last };
    }
  });
}

/**
 * One run of the deployment's graph: find the assistant (`assistant` is a graph ID or an
 * assistant ID; default: the only graph), create a thread, stream one run with `input`, and
 * delete the thread (best effort). Fails on an `error` event or a stream that ends without
 * any result; an interrupt waiting for human input passes with a notice.
 */
export async function smokeTest(
  ctx: VerifyContext,
  url: string,
  input: unknown,
  assistant?: string,
) {
  requireCheckableUrl(url, 'smoke run');
  const apiUrl = baseUrl(url);
  const client = await createSdkClient(ctx, apiUrl);
  const signal = ctx.http.signal;
  const failed = (message: string, title = 'Smoke run failed') =>
    new CheckError(redact(message), title);
  let doing = 'finding the assistant';
  let threadId: string | undefined;
  try {
    const chosen = chooseAssistant(
      await listAssistants(client, signal),
      assistant,
      '`smoke-test-assistant`',
      (problem, several) =>
        failed(
          `Smoke run on ${apiUrl} failed: ${problem}.`,
          several ? 'Smoke run: which graph?' : undefined,
        ),
    );
    const [id, graph] = [inert(chosen.assistant_id, 100), inert(chosen.graph_id, 100)];
    const who =
      assistant === chosen.assistant_id
        ? `assistant ${id} (graph "${graph}")`
        : `graph "${graph}" (assistant ${id})`;
    doing = `creating a thread for ${who}`;
    const thread = await client.threads.create({
      metadata: { created_by: 'langgraph-deploy-action', purpose: 'smoke-test' },
      ...(signal && { signal }),
    });
    threadId = thread.thread_id;
    doing = `streaming a run of ${who}`;
    const streamed = await streamRun(
      ctx,
      client,
      { threadId, assistantId: chosen.assistant_id },
      input,
      { streamMode: ['values', 'updates'] },
    );
    const run = streamed.runId !== undefined ? `run ${inert(streamed.runId, 100)}` : 'the run';
    if (streamed.error !== undefined) {
      throw failed(
        `Smoke run of ${who} on ${apiUrl} failed: ${run} reported an error: ${streamed.error}. ` +
          "Fix the graph (or the `smoke-test` input it was given); the deployment's logs in " +
          'the LangSmith UI have the details.',
      );
    }
    const result = streamed.values ?? streamed.update;
    if (result === undefined) {
      throw failed(
        `Smoke run of ${who} on ${apiUrl} failed: the stream of ${run} ended without any ` +
          "result (no values or updates). Check the deployment's logs in the LangSmith UI.",
      );
    }
    // Masked before the cut, so a secret cut in half cannot slip through.
    const summary = inert(redact(safeJson(result)), 300);
    if (streamed.interrupted) {
      ctx.logger.notice(
        `Smoke run of ${who}: ${run} stopped at an interrupt waiting for human input; ` +
          'counted as passed.',
        { title: 'Smoke run interrupted' },
      );
    }
    ctx.logger.info(
      `Smoke run ${streamed.interrupted ? 'interrupted (passes)' : 'passed'}: ${who}, ${run}; ` +
        `last ${streamed.values !== undefined ? 'values' : 'update'}: ${summary}`,
    );
    const outcome = streamed.interrupted ? 'interrupted' : 'passed';
    const { assistant_id: assistantId, graph_id: graphId } = chosen;
    return { outcome, assistantId, graphId, threadId, summary } as const;
  } catch (error) {
    // Our own `CheckError`s (already worded) go on as they are; a request failure is worded
    // with the step and the URL.
    const { timedOut, text } = stepFailure(ctx, error, `the smoke run (${doing})`);
    if (error instanceof CheckError) throw error;
    throw failed(
      timedOut
        ? `Smoke run on ${apiUrl} failed: the \`timeout\` ran out while ${doing}. Raise ` +
            '`timeout` if the graph needs longer.'
        : `Smoke run on ${apiUrl} failed while ${doing}: ${text}.` +
            (doing.startsWith('streaming')
              ? ' The run request is never retried (a retry would start a second run).'
              : '') +
            " Check that the agent server is up (the deployment's logs in the LangSmith UI) " +
            'and re-run the job.',
    );
  } finally {
    if (threadId !== undefined) await deleteThread(ctx, client, 'smoke-run', threadId);
  }
}
