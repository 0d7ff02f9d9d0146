/**
 * The optional smoke run after the health check: find the assistant, create a thread, stream
 * one run (sent once: a retry would start a second run), delete the thread.
 */
import { safeJson } from '../lib/text.js';
import { inert, redact } from '../lib/untrusted.js';
import {
  CheckError,
  baseUrl,
  chooseAssistant,
  createSdkClient,
  deleteThread,
  listAssistants,
  requireCheckableUrl,
  stepFailure,
  streamRun,
  type VerifyContext,
} from './shared.js';

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
  let doing = 'finding the assistant';
  let threadId: string | undefined;
  try {
    const chosen = chooseAssistant(
      await listAssistants(client, signal),
      assistant,
      '`smoke-test-assistant`',
      (problem, several) =>
        new CheckError(
          redact(`Smoke run on ${apiUrl} failed: ${problem}.`),
          several ? 'Smoke run: which graph?' : 'Smoke run failed',
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
      throw new CheckError(
        redact(
          `Smoke run of ${who} on ${apiUrl} failed: ${run} reported an error: ${streamed.error}. ` +
            "Fix the graph (or the `smoke-test` input it was given); the deployment's logs in " +
            'the LangSmith UI have the details.',
        ),
        'Smoke run failed',
      );
    }
    const result = streamed.values ?? streamed.update;
    if (result === undefined) {
      throw new CheckError(
        redact(
          `Smoke run of ${who} on ${apiUrl} failed: the stream of ${run} ended without any ` +
            "result (no values or updates). Check the deployment's logs in the LangSmith UI.",
        ),
        'Smoke run failed',
      );
    }
    // Masked before the cut, so a secret cut in half cannot slip through.
    const summary = inert(redact(safeJson(result)), SUMMARY_MAX_CHARS);
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
    return {
      outcome,
      assistantId: chosen.assistant_id,
      graphId: chosen.graph_id,
      threadId,
      summary,
    };
  } catch (error) {
    // Our own `CheckError`s (already worded) go on as they are; a request failure is worded
    // with the step and the URL.
    const { timedOut, text } = stepFailure(ctx, error, `the smoke run (${doing})`);
    if (error instanceof CheckError) throw error;
    throw new CheckError(
      redact(
        timedOut
          ? `Smoke run on ${apiUrl} failed: the \`timeout\` ran out while ${doing}. Raise ` +
              '`timeout` if the graph needs longer.'
          : `Smoke run on ${apiUrl} failed while ${doing}: ${text}.` +
              (doing.startsWith('streaming')
                ? ' The run request is never retried (a retry would start a second run).'
                : '') +
              " Check that the agent server is up (the deployment's logs in the LangSmith UI) " +
              'and re-run the job.',
      ),
      'Smoke run failed',
    );
  } finally {
    if (threadId !== undefined) await deleteThread(ctx, client, 'smoke-run', threadId);
  }
}
