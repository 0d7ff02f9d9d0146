/**
 * What every check of the agent server shares: its context, its error, whether the API key
 * may go to the URL, short wordings of what went wrong, and the agent server through
 * `@langchain/langgraph-sdk` on our HTTP layer (`createResilientFetch`): its assistants, one
 * streamed run, a thread deleted afterwards.
 */
import { ActionError, CancelledError, DeadlineError } from '../lib/errors.js';
import { parseJson } from '../api/answers.js';
import {
  OutcomeUnknownError,
  createResilientFetch,
  keyAllowedFor,
  type HttpContext,
} from '../api/http/request.js';
import { errorCodes } from '../api/http/retry-policy.js';
import { isRecord, safeJson } from '../lib/text.js';
import { inert, setSecret, type Logger } from '../lib/untrusted.js';
import type { Assistant, Client as SdkClient } from '@langchain/langgraph-sdk';

/** A check (or a conversation test) failed; the message is written for the workflow's author. */
export class CheckError extends ActionError {
  override name = 'CheckError';
  /** The reply that failed a conversation test, shown (as untrusted text) under the failure. */
  excerpt?: string;
}

/** What the checks take from the run: its HTTP settings, logger and API key. */
export interface VerifyContext {
  http: HttpContext;
  logger: Logger;
  config: { apiKey: string };
}

/**
 * Why the checks cannot run against this URL (no URL, not a URL, or plain http to a
 * non-loopback host, where the API key must not go) and what to do, or undefined when they can.
 */
export function urlProblem(url: string | undefined) {
  if (url === undefined || url.trim() === '') {
    return {
      reason: 'The deployment has no agent server URL (source_config.custom_url)',
      advice:
        'For `source: external_docker`, set `custom-url` to the address the agent server is reached at.',
    };
  }
  const advice = 'Serve the agent server over https.';
  const parsed = URL.parse(url);
  if (parsed === null) {
    return { reason: `The agent server URL "${inert(url, 200)}" is not a valid URL`, advice };
  }
  if (keyAllowedFor(parsed)) return undefined;
  const reason = `The agent server URL ${parsed.origin} is plain http on a non-loopback host, where the API key is never sent`;
  return { reason, advice };
}

/** Refuses (before any request) a URL the key may not go to. */
export function requireCheckableUrl(url: string, check: string): void {
  const problem = urlProblem(url);
  if (problem !== undefined) {
    throw new CheckError(
      `${problem.reason}: the ${check} cannot run. ${problem.advice}`,
      `${check[0]?.toUpperCase()}${check.slice(1)} not run`,
    );
  }
}

export function baseUrl(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

/** A short name for what went wrong: `ECONNREFUSED`, `timeout`, `HTTP 503`, … */
export function shortError(error: unknown): string {
  if (error instanceof OutcomeUnknownError) return error.reason;
  const status = (error as { status?: unknown } | null | undefined)?.status;
  const named = error instanceof Error ? error.name : 'error';
  return errorCodes(error)[0] ?? (typeof status === 'number' ? `HTTP ${status}` : named);
}

/**
 * A step that failed on the agent server: `CancelledError` (thrown) when the run was
 * cancelled; otherwise whether the `timeout` ran out, and the failure in a few words.
 */
export function stepFailure(ctx: VerifyContext, error: unknown, during: string) {
  if (ctx.http.signal?.aborted) throw new CancelledError(`The run was cancelled during ${during}.`);
  if (error instanceof CancelledError) throw error;
  const timedOut = error instanceof DeadlineError || ctx.http.deadline.passed();
  return { timedOut, text: requestErrorText(error) };
}

/** Status and (when the agent server gave one) its short `detail`/`message`; never the key. */
function requestErrorText(error: unknown): string {
  if (error instanceof OutcomeUnknownError) return `no usable answer (${error.reason})`;
  if (error instanceof ActionError) return error.message.replace(/\.$/, '');
  const { status, text } = (error ?? {}) as { status?: unknown; text?: unknown };
  if (typeof status !== 'number') {
    return error instanceof Error ? inert(`${error.name}: ${error.message}`, 200) : 'unknown error';
  }
  const body = parseJson(String(text)) as { detail?: unknown; message?: unknown } | null;
  const detail = body?.detail ?? body?.message;
  if (detail === undefined) return `HTTP ${status}`;
  return `HTTP ${status} (${inert(typeof detail === 'string' ? detail : JSON.stringify(detail), 200)})`;
}

export async function createSdkClient(ctx: VerifyContext, apiUrl: string, maxConcurrency = 1) {
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

const ASSISTANT_PAGE_SIZE = 100;
const ASSISTANT_MAX_PAGES = 10;

export async function listAssistants(client: SdkClient, signal?: AbortSignal) {
  const all: Assistant[] = [];
  for (let page = 0; page < ASSISTANT_MAX_PAGES; page++) {
    const batch = await client.assistants.search({
      limit: ASSISTANT_PAGE_SIZE,
      offset: page * ASSISTANT_PAGE_SIZE,
      ...(signal && { signal }),
    });
    if (!Array.isArray(batch)) break;
    all.push(...batch);
    if (batch.length < ASSISTANT_PAGE_SIZE) break;
  }
  return all;
}

/**
 * The assistant a run uses: `wanted` (set by the input `input`) as an assistant ID, else as a
 * graph ID (the graph's default, `created_by: system`, first); without it, the only graph's.
 * Anything else throws `fail(problem, several)`, `several` when there are graphs to choose from.
 */
export function chooseAssistant(
  assistants: Assistant[],
  wanted: string | undefined,
  input: string,
  fail: (problem: string, several: boolean) => Error = (problem) => new CheckError(problem),
): Assistant {
  const graphs = [...new Set(assistants.map((a) => a.graph_id))].sort();
  const listed = graphs.length > 0 ? graphs.map((g) => `"${inert(g, 100)}"`).join(', ') : '(none)';
  const ofGraph = (graphId: string) =>
    assistants.find((a) => a.graph_id === graphId && a.metadata?.['created_by'] === 'system') ??
    assistants.find((a) => a.graph_id === graphId);
  if (wanted !== undefined && wanted !== '') {
    const found = assistants.find((a) => a.assistant_id === wanted) ?? ofGraph(wanted);
    if (found) return found;
    throw fail(
      `${input} "${wanted}" is neither a graph ID nor an assistant ID of the agent server (its ` +
        `graphs: ${listed}); set ${input} to one of them (or to an assistant ID)`,
      false,
    );
  }
  if (graphs.length === 1) return ofGraph(graphs[0] as string) as Assistant;
  throw fail(
    graphs.length === 0
      ? 'the agent server lists no assistants, so there is no graph to run (check the `graphs` ' +
          `of your langgraph.json, or set ${input})`
      : `the agent server has ${graphs.length} graphs (${listed}): set ${input} to the graph ID ` +
          '(or assistant ID) to run',
    graphs.length > 1,
  );
}

export interface StreamedRun {
  runId?: string;
  /** The `error` event's message: masked, inert, cut. */
  error?: string;
  values?: unknown;
  update?: unknown;
  /** The run stopped at an interrupt waiting for human input. */
  interrupted?: boolean;
  /** The pre-signed feedback URL for `feedbackKey` (masked as a secret from now on). */
  feedbackUrl?: string;
}

/**
 * Streams one run of `assistantId` on `threadId` with `input` (the POST is sent once: a retry
 * would start a second run) and collects what it brought. Request failures are thrown.
 */
export async function streamRun(
  ctx: VerifyContext,
  client: SdkClient,
  ids: { threadId: string; assistantId: string },
  input: unknown,
  { streamMode, feedbackKey }: { streamMode: ('values' | 'updates')[]; feedbackKey?: string },
): Promise<StreamedRun> {
  const { signal } = ctx.http;
  const run: StreamedRun = {};
  const stream = client.runs.stream(ids.threadId, ids.assistantId, {
    input: input as Record<string, unknown>,
    streamMode,
    ...(feedbackKey !== undefined && { feedbackKeys: [feedbackKey] }),
    onRunCreated: (meta) => {
      run.runId = meta.run_id;
    },
    ...(signal && { signal }),
  });
  for await (const chunk of stream) {
    const event = String(chunk.event).split('|')[0];
    const data: unknown = chunk.data;
    if (event === 'metadata' && run.runId === undefined) {
      const id = (data as { run_id?: unknown } | null)?.run_id;
      if (typeof id === 'string') run.runId = id;
    } else if (event === 'error') {
      run.error = describeRunError(data);
    } else if (event === 'values' || event === 'updates') {
      run[event === 'values' ? 'values' : 'update'] = data;
      const interrupts = (data as { __interrupt__?: unknown } | null)?.__interrupt__;
      const pending = Array.isArray(interrupts) ? interrupts.length > 0 : interrupts !== undefined;
      if (pending) run.interrupted = true;
    } else if (event === 'feedback' && feedbackKey !== undefined) {
      const url = (data as Record<string, unknown> | null)?.[feedbackKey];
      // Pre-signed: the URL is its own credential, so it is masked like one.
      if (typeof url === 'string') setSecret((run.feedbackUrl = url));
    }
  }
  return run;
}

export function describeRunError(data: unknown): string {
  const { error, message }: { error?: unknown; message?: unknown } = isRecord(data) ? data : {};
  const kind = typeof error === 'string' && error !== '' ? `${error}: ` : '';
  if (typeof message === 'string') return inert(`${kind}${message}`, 500);
  const text = typeof error === 'string' ? error : typeof data === 'string' ? data : safeJson(data);
  return inert(text, 500);
}

/** Deletes a thread the checks made (best effort: a leftover thread is harmless). */
export async function deleteThread(
  ctx: VerifyContext,
  client: SdkClient,
  what: string,
  threadId: string,
): Promise<void> {
  if (ctx.http.signal?.aborted) return;
  await client.threads.delete(threadId).catch((error: unknown) => {
    ctx.logger.debug(
      `Could not delete the ${what} thread ${inert(threadId)} (${shortError(error)}); it is harmless.`,
    );
  });
}
