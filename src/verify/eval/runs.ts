/**
 * Step 3 of the evaluation: each example runs once on the deployed agent (a stateless
 * `POST /runs/wait` through `@langchain/langgraph-sdk`, `eval-concurrency` at a time) with
 * `langsmith_tracer`, so that the agent server's own trace becomes the experiment's run; then
 * the experiment is read until it holds a root run per example, and the action records the
 * runs an agent server did not trace.
 */
import type { Example, LangSmith } from '../../api/langsmith.js';
import { parseJson } from '../../api/answers.js';
import type { HttpContext } from '../../api/http/request.js';
import { backoffCeiling, retrying } from '../../api/http/retry-policy.js';
import { ActionError, DeadlineError } from '../../lib/errors.js';
import { isRecord } from '../../lib/text.js';
import { Deadline } from '../../lib/time.js';
import { inert } from '../../lib/untrusted.js';
import {
  baseUrl,
  chooseAssistant,
  createSdkClient,
  describeRunError,
  listAssistants,
  requireCheckableUrl,
  stepFailure,
  type VerifyContext as Context,
} from '../agent-server.js';

/** An evaluation that could not run: it fails the step, but is no failed check. */
export const notRun = (message: string) => new ActionError(message, 'Evaluation not run');

/** What one example's run brought: the agent's output, or why it failed (inert, cut). */
export type Outcome = { outputs: Record<string, unknown> } | { error: string };

/** Runs one example, traced into the experiment `project`. */
export type RunExample = (example: Example, project: string) => Promise<Outcome>;

/**
 * The graph (`eval-assistant`, default: the only one) and a runner of its examples. A run
 * lasts as long as it takes, within the run's `timeout`; it is never retried (a retry would
 * run the example twice).
 */
export async function agentRunner(
  ctx: Context,
  url: string | undefined,
  assistant: string | undefined,
  concurrency: number,
): Promise<{ run: RunExample; graph: string }> {
  requireCheckableUrl(url ?? '', 'evaluation');
  const apiUrl = baseUrl(url as string);
  const http = { ...ctx.http, requestTimeoutMs: Number.POSITIVE_INFINITY };
  const client = await createSdkClient({ ...ctx, http }, apiUrl, concurrency);
  const chosen = chooseAssistant(
    await listAssistants(client, http.signal),
    assistant,
    '`eval-assistant`',
    (problem) => notRun(`The evaluation cannot run on ${apiUrl}: ${problem}.`),
  );
  const run: RunExample = async (example, project) => {
    const answer: unknown = await client.runs.wait(null, chosen.assistant_id, {
      input: example.inputs,
      // The SDK sends it as `langsmith_tracer: {project_name, example_id}`.
      _langsmithTracer: { projectName: project, exampleId: example.id } as never,
      raiseError: false,
      ...(http.signal && { signal: http.signal }),
    });
    const failed = isRecord(answer) ? answer['__error__'] : undefined;
    // langgraph-api serialises a graph's error once more: its message is the error as JSON.
    const inner = isRecord(failed) ? parseJson(String(failed['message'])) : undefined;
    if (failed !== undefined) return { error: describeRunError(isRecord(inner) ? inner : failed) };
    return { outputs: isRecord(answer) ? answer : { output: answer } };
  };
  return { run, graph: chosen.graph_id };
}

/** Every example once, `concurrency` at a time; a cancellation or the deadline stops them all. */
export async function runAll(
  ctx: Context,
  examples: readonly Example[],
  project: string,
  concurrency: number,
  run: RunExample,
): Promise<Map<string, Outcome & { start_time: number; end_time: number }>> {
  const outcomes = new Map<string, Outcome & { start_time: number; end_time: number }>();
  const { clock } = ctx.http;
  let next = 0;
  const worker = async () => {
    try {
      while (next < examples.length) {
        const example = examples[next++] as Example;
        const start_time = clock.now();
        let outcome = await run(example, project).catch((error: unknown): Outcome => {
          const { timedOut, text } = stepFailure(ctx, error, 'the evaluation runs');
          if (!timedOut) return { error: text };
          throw new DeadlineError(
            `The \`timeout\` ran out during the evaluation runs (${outcomes.size} of ` +
              `${examples.length} examples run). Raise \`timeout\`, or lower \`eval-max-examples\`.`,
          );
        });
        if ('outputs' in outcome && JSON.stringify(outcome.outputs).length > 1024 * 1024) {
          outcome = { outputs: { note: 'output over 1 MiB, not kept by the action' } };
        }
        outcomes.set(example.id, { ...outcome, start_time, end_time: clock.now() });
      }
    } catch (error) {
      next = examples.length; // the other workers stop after their current run
      throw error;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, examples.length) }, worker));
  return outcomes;
}

/**
 * Reads the experiment's root runs (every page, one read at a time) until each example has one,
 * for at most 60 s (or `waitSeconds`, when less); then records those still missing (inputs,
 * output or error, the example), as the agent server did not trace them. Returns how many.
 */
export async function recordUntraced(
  ctx: Context,
  langsmith: LangSmith,
  experiment: { id: string; name: string; graph: string },
  examples: readonly Example[],
  outcomes: Map<string, Outcome & { start_time: number; end_time: number }>,
  waitSeconds: number,
): Promise<number> {
  let missing = [...examples];
  await pollWithin(ctx.http, Math.min(60_000, waitSeconds * 1000), 5000, async () => {
    const runs = await langsmith.rootRuns(experiment.id, examples.length * 10 + 100);
    const traced = new Set(runs.map((r) => r.reference_example_id));
    missing = examples.filter((e) => !traced.has(e.id));
    return missing.length === 0;
  });
  for (const example of missing) {
    const outcome = outcomes.get(example.id) ?? { error: 'not run', start_time: 0, end_time: 0 };
    await langsmith.createRun({
      ...outcome,
      name: experiment.graph,
      project_name: experiment.name,
      reference_example_id: example.id,
      inputs: example.inputs,
    });
  }
  if (missing.length > 0) {
    ctx.logger.notice(
      `${missing.length} of ${outcomes.size} example runs did not show up in the experiment ` +
        `"${inert(experiment.name, 200)}" (the agent server did not trace them with ` +
        '`langsmith_tracer`, or traced them to another LangSmith): the action recorded them ' +
        'itself (inputs, output, reference example), so the experiment is complete.',
      { title: 'Evaluation runs recorded by the action' },
    );
  }
  return missing.length;
}

/**
 * Calls `check` until it says done, waiting between calls (growing to `maxDelayMs`), for at most
 * `windowMs` and never past the run's deadline. True when done.
 */
export async function pollWithin(
  http: HttpContext,
  windowMs: number,
  maxDelayMs: number,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const { clock } = http;
  // At least one call, as the window may be 0 (`eval-wait: 0`).
  const end = Math.max(clock.now() + 1, Math.min(http.deadline.at, clock.now() + windowMs));
  const over = new Error('window over');
  try {
    return await retrying<boolean>(
      {
        http: { ...http, deadline: new Deadline(clock, end) },
        what: 'the evaluation',
        backoff: (retry) => backoffCeiling(retry, 1000, maxDelayMs),
        outOfTime: () => over,
      },
      async () => ((await check()) ? { done: true } : { again: 'not yet' }),
    );
  } catch (error) {
    if (error === over) return false;
    throw error;
  }
}
