/**
 * Stateless runs of the simulated agent server (`POST /runs/wait`) and their traces: with
 * `langsmith_tracer: {project_name, example_id}` in the body the run is traced into that
 * LangSmith project as a root run named `LangGraph` with one child run (the graph's node), both
 * carrying `reference_example_id`, and a copy of both into the `default` project without it,
 * as a `langgraphjs dev` server does (langgraph-api 2.0.0: stream.mts traces to the run's
 * project and to the default one). A graph that raises answers 200 with `{"__error__": …}`.
 */
import { createHash, randomUUID } from 'node:crypto';
import { isObject, type LangSmithStore } from './langsmith-store.js';
import type { AgentBehaviour, SimResponse } from './types.js';

type Json = Record<string, unknown>;

/** One finished stateless run, to be traced into LangSmith. */
export interface AgentTrace {
  project: string;
  exampleId?: string;
  graphId: string;
  inputs: Json;
  outputs?: Json;
  error?: string;
  startedAt: number;
  endedAt: number;
}

interface Assistant {
  assistant_id: string;
  graph_id: string;
}

const detail = (status: number, text: unknown): SimResponse => ({
  status,
  body: { detail: text },
});

export function waitRun(
  json: unknown,
  b: AgentBehaviour,
  find: (id: string) => Assistant | undefined,
  trace?: (t: AgentTrace) => void,
): SimResponse {
  const body = isObject(json) ? json : {};
  if (typeof body.assistant_id !== 'string') {
    return detail(422, [{ loc: ['body', 'assistant_id'], msg: 'Field required', type: 'missing' }]);
  }
  const assistant = find(body.assistant_id);
  if (!assistant) return detail(404, `Assistant ${body.assistant_id} not found`);
  const tracer = body.langsmith_tracer;
  const bad = (v: unknown) => v !== undefined && v !== null && typeof v !== 'string';
  if (
    tracer !== undefined &&
    tracer !== null &&
    (!isObject(tracer) || bad(tracer.project_name) || bad(tracer.example_id))
  ) {
    return detail(422, [
      { loc: ['body', 'langsmith_tracer'], msg: 'Invalid langsmith_tracer', type: 'value_error' },
    ]);
  }
  const runId = randomUUID();
  const input = isObject(body.input) ? body.input : {};
  const raise = typeof input.raise === 'string' ? input.raise : undefined;
  const failure = b.run === 'error' || raise !== undefined ? (raise ?? b.errorMessage) : undefined;
  const values = failure === undefined ? answer(b, assistant.graph_id, input) : undefined;
  const answered =
    failure !== undefined
      ? // The server serialises the graph's already-serialised error once more (2.0.0).
        {
          __error__: {
            error: 'Error',
            message: JSON.stringify({ error: 'Error', message: failure }),
          },
        }
      : b.run === 'interrupt'
        ? { ...input, __interrupt__: [{ value: { question: 'Approve?' }, id: `i-${runId}` }] }
        : values;
  const startedAt = Date.now();
  const project = isObject(tracer) ? tracer.project_name : undefined;
  const exampleId = isObject(tracer) ? tracer.example_id : undefined;
  const traced =
    typeof project === 'string' && !b.ignoreTracer && trace
      ? () =>
          trace({
            project,
            ...(typeof exampleId === 'string' ? { exampleId } : {}),
            graphId: assistant.graph_id,
            inputs: input,
            ...(values ? { outputs: values } : {}),
            ...(failure !== undefined ? { error: failure } : {}),
            startedAt,
            endedAt: Date.now(),
          })
      : undefined;
  return {
    status: 200,
    headers: { 'content-location': `/runs/${runId}` },
    body: answered,
    agentRun: true,
    ...(b.runDelayMs ? { delayMs: b.runDelayMs } : {}),
    ...(traced ? { onSent: traced } : {}),
  };
}

/** The state a stateless run ends with: the input, its `output`, and a reply to `messages`. */
function answer(b: AgentBehaviour, graphId: string, input: Json): Json {
  if (b.answer) return b.answer(input);
  const messages = Array.isArray(input.messages) ? input.messages : undefined;
  const last: unknown = messages?.at(-1);
  const said =
    typeof input.input === 'string'
      ? input.input
      : isObject(last) && typeof last.content === 'string'
        ? last.content
        : JSON.stringify(input);
  const hash = createHash('sha1').update(JSON.stringify(input)).digest().readUInt32BE(0);
  const wrong = (b.wrongAnswerRate ?? 0) > hash / 2 ** 32;
  const output = `echo: ${said}${wrong ? ' (wrong)' : ''}`;
  return {
    ...input,
    output,
    ...(messages
      ? { messages: [...messages, { type: 'ai', id: `msg-${randomUUID()}`, content: output }] }
      : {}),
  };
}

/** Writes the run's trace: root `LangGraph` and its node, in the project and in `default`. */
export function traceAgentRun(store: LangSmithStore, t: AgentTrace): void {
  for (const [project, exampleId] of [
    [t.project, t.exampleId],
    ['default', undefined],
  ] as const) {
    const rootId = randomUUID();
    const childId = randomUUID();
    const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:.]/g, '').slice(0, -1);
    const rootOrder = `${stamp(t.startedAt)}000Z${rootId}`;
    const common = {
      session_name: project,
      trace_id: rootId,
      run_type: 'chain',
      start_time: t.startedAt,
      end_time: t.endedAt,
      inputs: t.inputs,
      ...(t.outputs ? { outputs: t.outputs } : {}),
      ...(t.error !== undefined ? { error: t.error } : {}),
      ...(exampleId !== undefined ? { reference_example_id: exampleId } : {}),
      extra: { metadata: { graph_id: t.graphId, langgraph_plan: 'developer' } },
    };
    store.writeRun('post', { ...common, id: rootId, name: 'LangGraph', dotted_order: rootOrder });
    store.writeRun('post', {
      ...common,
      id: childId,
      name: t.graphId,
      parent_run_id: rootId,
      dotted_order: `${rootOrder}.${stamp(t.startedAt)}001Z${childId}`,
    });
  }
}
