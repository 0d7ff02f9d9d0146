/**
 * Checks of the agent server after `DEPLOYED`: the health check (`GET <url>/ok` until it
 * answers `{"ok": true}`) and the optional smoke run (find the assistant, create a thread,
 * stream one run, delete the thread).
 *
 * Both go through the action's HTTP layer (`src/api/http/`): one deadline, the run's cancel
 * signal, `Retry-After`, and the rule that the stream POST is sent once (a retry would start
 * a second run). The smoke run uses `@langchain/langgraph-sdk` with its own retries off and
 * our `fetch`. The API key goes only to https or loopback URLs; elsewhere both checks are
 * skipped with a warning.
 */
import { safeJson } from '../lib/text.js';
import { ActionError, CancelledError, DeadlineError } from '../lib/errors.js';
import { createResilientFetch, OutcomeUnknownError } from '../api/http/request.js';
import { inert, redact } from '../lib/untrusted.js';
import {
  CheckError,
  requireCheckableUrl,
  baseUrl,
  shortError,
  type VerifyContext,
} from './shared.js';
import { listAssistants } from './expectations.js';

export interface SmokeResult {
  /** `interrupted`: the run stopped at an interrupt waiting for human input (passes). */
  outcome: 'passed' | 'interrupted';
  assistantId: string;
  graphId: string;
  threadId: string;
  /** A short, redacted JSON view of the run's last values (or update). */
  summary: string;
}

const SUMMARY_MAX_CHARS = 300;

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
    defaultHeaders: { 'x-api-key': ctx.config.apiKey },
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
    await deleteThread(ctx, client, 'smoke-run', threadId);
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

/** Deletes a thread the checks made (best effort: a leftover thread is harmless). */
export async function deleteThread(
  ctx: VerifyContext,
  client: SdkClient,
  what: string,
  threadId: string,
) {
  if (ctx.http.signal?.aborted) return;
  try {
    await client.threads.delete(threadId);
  } catch (error) {
    ctx.logger.debug(
      `Could not delete the ${what} thread ${inert(threadId)} (${shortError(error)}); it is harmless.`,
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
  const assistants = await listAssistants(client, signal);
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
