/**
 * Checks of the agent server after `DEPLOYED`: the health check (`GET <url>/ok` until it
 * answers `{"ok": true}`) and the optional smoke run (find the assistant, create a thread,
 * stream one run, delete the thread).
 *
 * Both go through the action's HTTP layer (`src/http.ts`): one deadline, the run's cancel
 * signal, `Retry-After`, and the rule that the stream POST is sent once (a retry would start
 * a second run). The smoke run uses `@langchain/langgraph-sdk` with its own retries off and
 * our `fetch`. The API key goes only to https or loopback URLs; elsewhere both checks are
 * skipped with a warning.
 */
import { ActionError, ApiError, CancelledError, DeadlineError } from './errors.js';
import { formatSeconds, safeJson } from './lib/text.js';
import {
  createResilientFetch,
  keyAllowedFor,
  OutcomeUnknownError,
  parseRetryAfter,
  RefusedAnswerError,
  request,
  type HttpContext,
} from './http.js';
import { inert, redact, type Logger } from './runner.js';

/** A check failed; the message is written for the workflow's author. */
export class CheckError extends ActionError {
  constructor(message: string, title: string) {
    super(message, title);
    this.name = 'CheckError';
  }
}

export interface VerifyContext {
  http: HttpContext;
  apiKey: string;
  logger: Logger;
}

export interface HealthResult {
  ok: true;
  /** Requests made, the successful one included. */
  attempts: number;
}

export interface SmokeResult {
  /** `interrupted`: the run stopped at an interrupt waiting for human input (passes). */
  outcome: 'passed' | 'interrupted';
  assistantId: string;
  graphId: string;
  threadId: string;
  /** A short, redacted JSON view of the run's last values (or update). */
  summary: string;
}

export interface VerifyOptions {
  /** The agent server URL (`url` output); undefined when the deployment has none. */
  url: string | undefined;
  healthCheck: boolean;
  /** The parsed `smoke-test` input; undefined when not set. */
  smokeTest?: unknown;
  smokeTestAssistant?: string;
  /** The validated conversation tests (`tests` input); run after the smoke run. */
  tests?: Omit<import('./verify/conversation-tests.js').ConversationTestsOptions, 'url'>;
}

/** Same shape as the report's `checks`; `error` is set when a check failed. */
export interface VerifyResult {
  health?: 'passed' | 'failed' | 'skipped';
  smoke?: 'passed' | 'interrupted' | 'failed' | 'skipped';
  error?: unknown;
  /** Conversation tests: `failed` when a case failed (the failure is in `error`). */
  tests?: 'passed' | 'failed' | 'skipped';
  testsResult?: import('./verify/conversation-tests.js').ConversationTestsResult;
}

/** Longest single wait between two `/ok` requests, in multiples of the base delay. */
const HEALTH_MAX_DELAY_FACTOR = 5;
/** Timeout of one `/ok` request: a server that hangs is retried rather than waited for. */
const HEALTH_REQUEST_TIMEOUT_MS = 10_000;
const SUMMARY_MAX_CHARS = 300;
const ASSISTANT_PAGE_SIZE = 100;
const ASSISTANT_MAX_PAGES = 10;

/**
 * Runs the checks the inputs ask for, in order (health, then smoke). A missing URL or a
 * plain-http URL on a non-loopback host skips both with one warning. A failed check is
 * returned in `error` (the second check is not run); a cancellation is thrown.
 */
export async function verifyDeployment(
  ctx: VerifyContext,
  options: VerifyOptions,
): Promise<VerifyResult> {
  const wantSmoke = options.smokeTest !== undefined;
  const wantTests = options.tests !== undefined;
  if (!options.healthCheck && !wantSmoke && !wantTests) return {};
  const skipped: VerifyResult = {
    ...(options.healthCheck ? { health: 'skipped' as const } : {}),
    ...(wantSmoke ? { smoke: 'skipped' as const } : {}),
    ...(wantTests ? { tests: 'skipped' as const } : {}),
  };
  const checks = [
    options.healthCheck ? 'the health check' : '',
    wantSmoke ? 'the smoke run' : '',
    wantTests ? 'the conversation tests' : '',
  ].filter(Boolean);
  const what =
    checks.length === 1
      ? `${checks[0]} ${checks[0] === 'the conversation tests' ? 'were' : 'was'}`
      : `${checks.slice(0, -1).join(', ')} and ${checks[checks.length - 1]} were`;
  const reason = skipReason(options.url);
  if (reason !== undefined) {
    ctx.logger.warning(`${reason}, so ${what} skipped. ${skipAdvice(options.url)}`, {
      title: 'Checks skipped',
    });
    return skipped;
  }
  const url = options.url as string;
  const result: VerifyResult = {};
  if (options.healthCheck) {
    try {
      const health = await healthCheck(ctx, url);
      result.health = 'passed';
      ctx.logger.info(
        `Health check passed: ${baseUrl(url)}/ok answered {"ok": true} ` +
          `(${health.attempts} request${health.attempts === 1 ? '' : 's'}).`,
      );
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      return { ...result, health: 'failed', error };
    }
  }
  if (wantSmoke) {
    try {
      const smoke = await smokeTest(ctx, url, options.smokeTest, options.smokeTestAssistant);
      result.smoke = smoke.outcome;
    } catch (error) {
      if (error instanceof CancelledError) throw error;
      return { ...result, smoke: 'failed', error };
    }
  }
  if (options.tests) {
    const { runConversationTests } = await import('./verify/conversation-tests.js');
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

/**
 * Why the checks cannot run against this URL (no URL, not a URL, or plain http to a
 * non-loopback host, where the API key must not go), or undefined when they can.
 */
export function skipReason(url: string | undefined): string | undefined {
  if (url === undefined || url.trim() === '') {
    return 'The deployment has no agent server URL (source_config.custom_url)';
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The agent server URL "${url}" is not a valid URL`;
  }
  if (!keyAllowedFor(parsed)) {
    return (
      `The agent server URL ${parsed.origin} is plain http on a non-loopback host, where ` +
      'the API key is never sent'
    );
  }
  return undefined;
}

function skipAdvice(url: string | undefined): string {
  if (url === undefined || url.trim() === '') {
    return 'For `source: external_docker`, set `custom-url` to the address the agent server is reached at.';
  }
  return 'Serve the agent server over https.';
}

/** Refuses (before any request) a URL the key may not go to. */
function requireCheckableUrl(url: string, check: string): void {
  const reason = skipReason(url);
  if (reason !== undefined) {
    throw new CheckError(
      `${reason}: the ${check} cannot run. ${skipAdvice(url)}`,
      `${check[0]?.toUpperCase()}${check.slice(1)} not run`,
    );
  }
}

function baseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** A short name for what went wrong: `ECONNREFUSED`, `timeout`, `HTTP 503`, … */
export function shortError(error: unknown): string {
  if (error instanceof OutcomeUnknownError) return error.reason;
  const seen = new Set<unknown>();
  let e: unknown = error;
  for (let depth = 0; depth < 6 && e !== null && typeof e === 'object' && !seen.has(e); depth++) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    e = (e as { cause?: unknown }).cause;
  }
  if (typeof error === 'object' && error !== null) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number') return `HTTP ${status}`;
  }
  return error instanceof Error ? error.name : 'error';
}

function isHealthy(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as unknown;
    return (
      typeof parsed === 'object' && parsed !== null && (parsed as { ok?: unknown }).ok === true
    );
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Health check

/**
 * `GET <url>/ok` with the API key until it answers 200 `{"ok": true}`: a fresh revision can
 * take a while to serve. Waits grow from the base delay to 5× it; `Retry-After` on 429 is
 * honoured. Throws `ActionError` naming the URL and the last answer when the deadline would
 * pass, or at once when the key is refused (401/403); `CancelledError` on cancellation.
 */
export async function healthCheck(ctx: VerifyContext, url: string): Promise<HealthResult> {
  requireCheckableUrl(url, 'health check');
  const okUrl = `${baseUrl(url)}/ok`;
  const http = ctx.http;
  const base = http.baseDelayMs ?? 1000;
  const started = http.clock.now();
  const oneRequest: HttpContext = {
    ...http,
    requestTimeoutMs: Math.min(http.requestTimeoutMs ?? 30_000, HEALTH_REQUEST_TIMEOUT_MS),
  };
  let last = 'no answer yet';
  let attempts = 0;
  for (;;) {
    attempts++;
    let retryAfterMs: number | undefined;
    try {
      const res = await request(oneRequest, {
        method: 'GET',
        url: okUrl,
        headers: { 'x-api-key': ctx.apiKey, accept: 'application/json' },
        retry: 'never',
        describe: `GET ${okUrl}`,
      });
      if (res.status === 200 && isHealthy(res.text)) return { ok: true, attempts };
      if (res.status === 401 || res.status === 403) {
        throw new CheckError(
          redact(
            `Health check of ${okUrl} failed: the agent server refused the API key ` +
              `(HTTP ${res.status}). Check that \`api-key\` has access to the deployment's ` +
              'workspace (and `workspace-id`).',
          ),
          'Health check failed',
        );
      }
      last =
        res.status === 200 ? 'HTTP 200 with a body other than {"ok": true}' : `HTTP ${res.status}`;
      if (res.status === 429) {
        retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), http.clock.now());
      }
    } catch (error) {
      if (error instanceof DeadlineError) {
        attempts--; // it was never sent
        break;
      }
      // A network fault or an unknown outcome: retried. Anything else (cancellation, the
      // key refused) ends the check.
      if (!(error instanceof ApiError || error instanceof OutcomeUnknownError)) throw error;
      // A redirect or an oversized answer will not change on a retry: fail at once.
      if (error instanceof RefusedAnswerError) {
        throw new CheckError(
          redact(`Health check of ${okUrl} failed: ${error.message}`),
          'Health check failed',
        );
      }
      last = shortError(error);
    }
    const delay =
      retryAfterMs ?? Math.min(base * HEALTH_MAX_DELAY_FACTOR, base * 2 ** (attempts - 1));
    if (delay >= http.deadline.remainingMs()) break;
    ctx.logger.debug(
      `Health check: ${okUrl} answered ${last}; next try in ${formatSeconds(delay)} ` +
        `(attempt ${attempts + 1}).`,
    );
    try {
      await http.clock.sleep(delay, http.signal);
    } catch (error) {
      if (http.signal?.aborted) {
        throw new CancelledError('The run was cancelled during the health check.');
      }
      throw error;
    }
  }
  throw new CheckError(
    redact(
      `Health check failed: ${okUrl} did not answer {"ok": true} before the \`timeout\` ran out ` +
        `(${attempts} request${attempts === 1 ? '' : 's'} in ` +
        `${formatSeconds(Math.round(http.clock.now() - started))}; last answer: ${last}). The ` +
        "revision is DEPLOYED but its agent server is not serving: check the deployment's " +
        'logs in the LangSmith UI, or raise `timeout` if it needs longer to start.',
    ),
    'Health check failed',
  );
}

// ---------------------------------------------------------------------------------------------
// Smoke run

type SdkClient = import('@langchain/langgraph-sdk').Client;

/**
 * An SDK client on our HTTP layer (`createResilientFetch`: one deadline, cancellation,
 * `Retry-After`, no redirects, size caps, the stream POST sent once).
 */
export async function createSdkClient(
  ctx: VerifyContext,
  apiUrl: string,
  maxConcurrency = 1,
): Promise<SdkClient> {
  const { Client } = await import('@langchain/langgraph-sdk');
  return new Client({
    apiUrl,
    // null: never read LANGSMITH_API_KEY & co. from the environment; the key is sent as a
    // header, which our fetch drops for URLs the key may not go to.
    apiKey: null,
    defaultHeaders: { 'x-api-key': ctx.apiKey },
    // The SDK's own retries ignore Retry-After and would resend the stream POST: off.
    callerOptions: { maxRetries: 0, maxConcurrency, fetch: createResilientFetch(ctx.http) },
  });
}

interface AssistantChoice {
  assistantId: string;
  graphId: string;
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
): Promise<SmokeResult> {
  requireCheckableUrl(url, 'smoke run');
  const apiUrl = baseUrl(url);
  const client = await createSdkClient(ctx, apiUrl);
  const signal = ctx.http.signal;

  const chosen = await step(ctx, apiUrl, 'finding the assistant', () =>
    chooseAssistant(client, apiUrl, assistant, signal),
  );
  const who = describeAssistant(chosen, assistant);
  const thread = await step(ctx, apiUrl, `creating a thread for ${who}`, () =>
    client.threads.create({
      metadata: { created_by: 'langgraph-deploy-action', purpose: 'smoke-test' },
      ...(signal ? { signal } : {}),
    }),
  );
  const threadId = thread.thread_id;
  try {
    return await streamRun(ctx, client, apiUrl, chosen, who, threadId, input);
  } finally {
    await deleteThread(ctx, client, threadId);
  }
}

async function streamRun(
  ctx: VerifyContext,
  client: SdkClient,
  apiUrl: string,
  chosen: AssistantChoice,
  who: string,
  threadId: string,
  input: unknown,
): Promise<SmokeResult> {
  const signal = ctx.http.signal;
  let runId: string | undefined;
  let lastValues: unknown;
  let lastUpdate: unknown;
  let interrupted = false;
  let runError: string | undefined;
  const stream = client.runs.stream(threadId, chosen.assistantId, {
    input: input as Record<string, unknown>,
    streamMode: ['values', 'updates'],
    onRunCreated: (meta) => {
      runId = meta.run_id;
    },
    ...(signal ? { signal } : {}),
  });
  await step(ctx, apiUrl, `streaming a run of ${who}`, async () => {
    for await (const chunk of stream) {
      const event = String(chunk.event).split('|')[0];
      const data: unknown = chunk.data;
      if (event === 'metadata' && runId === undefined) {
        const id = (data as { run_id?: unknown } | null)?.run_id;
        if (typeof id === 'string') runId = id;
      } else if (event === 'error') {
        runError = describeRunError(data);
      } else if (event === 'values') {
        lastValues = data;
        if (hasInterrupt(data)) interrupted = true;
      } else if (event === 'updates') {
        lastUpdate = data;
        if (hasInterrupt(data)) interrupted = true;
      }
    }
  });
  const run = runId !== undefined ? `run ${inert(runId, 100)}` : 'the run';
  if (runError !== undefined) {
    throw new CheckError(
      redact(
        `Smoke run of ${who} on ${apiUrl} failed: ${run} reported an error: ${runError}. ` +
          "Fix the graph (or the `smoke-test` input it was given); the deployment's logs in " +
          'the LangSmith UI have the details.',
      ),
      'Smoke run failed',
    );
  }
  const result = lastValues ?? lastUpdate;
  if (result === undefined) {
    throw new CheckError(
      redact(
        `Smoke run of ${who} on ${apiUrl} failed: the stream of ${run} ended without any ` +
          "result (no values or updates). Check the deployment's logs in the LangSmith UI.",
      ),
      'Smoke run failed',
    );
  }
  const summary = summarize(result);
  if (interrupted) {
    ctx.logger.notice(
      `Smoke run of ${who}: ${run} stopped at an interrupt waiting for human input; ` +
        'counted as passed.',
      { title: 'Smoke run interrupted' },
    );
  }
  ctx.logger.info(
    `Smoke run ${interrupted ? 'interrupted (passes)' : 'passed'}: ${who}, ${run}; ` +
      `last ${lastValues !== undefined ? 'values' : 'update'}: ${summary}`,
  );
  return {
    outcome: interrupted ? 'interrupted' : 'passed',
    assistantId: chosen.assistantId,
    graphId: chosen.graphId,
    threadId,
    summary,
  };
}

async function deleteThread(ctx: VerifyContext, client: SdkClient, threadId: string) {
  if (ctx.http.signal?.aborted) return;
  try {
    await client.threads.delete(threadId);
  } catch (error) {
    ctx.logger.debug(
      `Could not delete the smoke-run thread ${threadId} (${shortError(error)}); it is harmless.`,
    );
  }
}

function describeAssistant(chosen: AssistantChoice, asked: string | undefined): string {
  const assistant = inert(chosen.assistantId, 100);
  const graph = inert(chosen.graphId, 100);
  if (asked !== undefined && asked === chosen.assistantId) {
    return `assistant ${assistant} (graph "${graph}")`;
  }
  return `graph "${graph}" (assistant ${assistant})`;
}

async function chooseAssistant(
  client: SdkClient,
  apiUrl: string,
  wanted: string | undefined,
  signal: AbortSignal | undefined,
): Promise<AssistantChoice> {
  const assistants: { assistant_id: string; graph_id: string; metadata?: unknown }[] = [];
  for (let page = 0; page < ASSISTANT_MAX_PAGES; page++) {
    const batch = await client.assistants.search({
      limit: ASSISTANT_PAGE_SIZE,
      offset: page * ASSISTANT_PAGE_SIZE,
      ...(signal ? { signal } : {}),
    });
    if (!Array.isArray(batch)) break;
    assistants.push(...batch);
    if (batch.length < ASSISTANT_PAGE_SIZE) break;
  }
  const graphs = [...new Set(assistants.map((a) => a.graph_id))].sort();
  const systemFirst = (graphId: string) =>
    assistants.find(
      (a) =>
        a.graph_id === graphId &&
        (a.metadata as { created_by?: unknown } | undefined)?.created_by === 'system',
    ) ?? assistants.find((a) => a.graph_id === graphId);
  const listed = graphs.length > 0 ? graphs.map((g) => `"${inert(g, 100)}"`).join(', ') : '(none)';

  if (wanted !== undefined && wanted !== '') {
    const byId = assistants.find((a) => a.assistant_id === wanted);
    if (byId) return { assistantId: byId.assistant_id, graphId: byId.graph_id };
    const byGraph = systemFirst(wanted);
    if (byGraph) return { assistantId: byGraph.assistant_id, graphId: byGraph.graph_id };
    throw new CheckError(
      redact(
        `\`smoke-test-assistant\` "${wanted}" is neither a graph ID nor an assistant ID of the ` +
          `agent server at ${apiUrl}. Its graphs: ${listed}. Set \`smoke-test-assistant\` to one ` +
          'of them (or to an assistant ID).',
      ),
      'Smoke run failed',
    );
  }
  if (graphs.length === 0) {
    throw new CheckError(
      `The agent server at ${apiUrl} lists no assistants, so there is no graph to run. Check ` +
        'the `graphs` of your langgraph.json, or set `smoke-test-assistant`.',
      'Smoke run failed',
    );
  }
  if (graphs.length > 1) {
    throw new CheckError(
      redact(
        `The agent server at ${apiUrl} has ${graphs.length} graphs (${listed}): set ` +
          '`smoke-test-assistant` to the graph ID (or assistant ID) the smoke run should use.',
      ),
      'Smoke run: which graph?',
    );
  }
  const only = systemFirst(graphs[0] as string) as { assistant_id: string; graph_id: string };
  return { assistantId: only.assistant_id, graphId: only.graph_id };
}

/**
 * Runs one step of the smoke run; turns request failures into a message that names the
 * step and the URL. Cancellation is passed on as `CancelledError`; our own `ActionError`s
 * (already worded) as they are.
 */
async function step<T>(
  ctx: VerifyContext,
  apiUrl: string,
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (ctx.http.signal?.aborted) {
      throw new CancelledError(`The run was cancelled during the smoke run (${what}).`);
    }
    if (error instanceof CheckError) throw error;
    if (error instanceof DeadlineError || ctx.http.deadline.passed()) {
      throw new CheckError(
        redact(
          `Smoke run on ${apiUrl} failed: the \`timeout\` ran out while ${what}. Raise ` +
            '`timeout` if the graph needs longer.',
        ),
        'Smoke run failed',
      );
    }
    const streaming = what.startsWith('streaming');
    throw new CheckError(
      redact(
        `Smoke run on ${apiUrl} failed while ${what}: ${describeRequestError(error)}.` +
          (streaming
            ? ' The run request is never retried (a retry would start a second run).'
            : '') +
          " Check that the agent server is up (the deployment's logs in the LangSmith UI) " +
          'and re-run the job.',
      ),
      'Smoke run failed',
    );
  }
}

/** Status and (when the agent server gave one) its short `detail`/`message`; never the key. */
export function describeRequestError(error: unknown): string {
  if (error instanceof OutcomeUnknownError) return `no usable answer (${error.reason})`;
  if (error instanceof ActionError) return error.message.replace(/\.$/, '');
  const status =
    typeof error === 'object' && error !== null
      ? (error as { status?: unknown }).status
      : undefined;
  if (typeof status === 'number') {
    const text = (error as { text?: unknown }).text;
    const detail = typeof text === 'string' ? detailOf(text) : undefined;
    return `HTTP ${status}${detail ? ` (${detail})` : ''}`;
  }
  if (error instanceof Error) return truncate(`${error.name}: ${error.message}`, 200);
  return 'unknown error';
}

function detailOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { detail?: unknown; message?: unknown };
    const value = parsed.detail ?? parsed.message;
    if (value === undefined) return undefined;
    return truncate(redact(typeof value === 'string' ? value : JSON.stringify(value)), 200);
  } catch {
    return undefined;
  }
}

export function describeRunError(data: unknown): string {
  if (typeof data === 'string') return truncate(redact(data), 500);
  if (typeof data === 'object' && data !== null) {
    const { error, message } = data as { error?: unknown; message?: unknown };
    if (typeof message === 'string') {
      const kind = typeof error === 'string' && error !== '' ? `${error}: ` : '';
      return truncate(redact(`${kind}${message}`), 500);
    }
    if (typeof error === 'string') return truncate(redact(error), 500);
  }
  return truncate(redact(safeJson(data)), 500);
}

function hasInterrupt(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const interrupts = (data as { __interrupt__?: unknown }).__interrupt__;
  return Array.isArray(interrupts) ? interrupts.length > 0 : interrupts !== undefined;
}

/** Agent-server text for one of the action's lines: masked, then made inert, then cut. */
function truncate(text: string, max: number): string {
  return inert(text, max);
}

/** Redacted before it is cut, so a secret cut in half cannot slip through. */
function summarize(value: unknown): string {
  return truncate(redact(safeJson(value)), SUMMARY_MAX_CHARS);
}
