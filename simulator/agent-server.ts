/**
 * The agent server of each deployment (LangGraph API subset): `/ok`, assistants, threads,
 * streamed runs in the LangGraph server-sent-events wire format, and stateless `POST /runs/wait`
 * (agent-runs.ts).
 */
import { createHash, randomUUID } from 'node:crypto';
import { waitRun, type AgentTrace } from './agent-runs.js';
import type { AgentBehaviour, RevisionAgent, SimResponse } from './types.js';

export interface AgentRequest {
  deploymentId: string;
  /** Base URL of the simulator, for the pre-signed feedback URLs it hands out. */
  feedbackBase?: string;
  /** Path under the agent server, e.g. `/ok` or `/threads/<id>/runs/stream`. */
  path: string;
  method: string;
  json: unknown;
  now: number;
  /** When the deployment was created (assistants' timestamps). */
  createdAt: number;
  /** Behaviour of the live revision, over the deployment's. */
  revision?: RevisionAgent;
  /** Records a stateless run's trace in the simulated LangSmith (`langsmith_tracer`). */
  trace?: (trace: AgentTrace) => void;
}

interface Thread {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
  status: 'idle' | 'busy' | 'interrupted' | 'error';
  values: unknown;
  /** Checkpoints, oldest first (the agent server's thread history). */
  history: Checkpoint[];
}

interface Checkpoint {
  values: unknown;
  next: string[];
  tasks: unknown[];
  checkpoint: { thread_id: string; checkpoint_ns: string; checkpoint_id: string };
  parent_checkpoint: { thread_id: string; checkpoint_ns: string; checkpoint_id: string } | null;
  metadata: { source: 'input' | 'loop' | 'update'; step: number; graph_id?: unknown };
  created_at: string;
}

/** A verdict POSTed to a pre-signed feedback URL. */
export interface FeedbackRecord {
  token: string;
  /** The run and key the URL was issued for; undefined for an unknown token. */
  runId?: string;
  key?: string;
  /** The POSTed body. */
  body: unknown;
  /** The request carried `X-Api-Key` or `Authorization` (refused with 403). */
  hadApiKey: boolean;
  status: number;
}

export function defaultBehaviour(): AgentBehaviour {
  return {
    unhealthyCount: 0,
    healthy: true,
    graphs: ['agent'],
    run: 'success',
    errorMessage: 'Graph raised: boom',
  };
}

const detail = (status: number, text: string): SimResponse => ({ status, body: { detail: text } });
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Deterministic uuid-shaped id (like the server's uuid5 of the graph id). */
function assistantId(deploymentId: string, graphId: string): string {
  const h = createHash('sha1').update(`${deploymentId}:${graphId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function definedOnly(agent: RevisionAgent): RevisionAgent {
  return Object.fromEntries(Object.entries(agent).filter(([, v]) => v !== undefined));
}

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class AgentServers {
  private behaviours = new Map<string, AgentBehaviour>();
  private threads = new Map<string, Map<string, Thread>>();
  private defaults: Partial<AgentBehaviour>;
  private feedbackTokens = new Map<string, { runId: string; key: string }>();
  /** Every POST to a feedback URL, in arrival order. */
  readonly feedback: FeedbackRecord[] = [];

  constructor(private readonly initialDefaults: Partial<AgentBehaviour> = {}) {
    this.defaults = { ...initialDefaults };
  }

  clear(): void {
    this.behaviours.clear();
    this.threads.clear();
    this.feedbackTokens.clear();
    this.feedback.length = 0;
    this.defaults = { ...this.initialDefaults };
  }

  /** Behaviour of agent servers not configured yet (their first `behaviour()` call). */
  setDefaults(defaults: Partial<AgentBehaviour>): void {
    this.defaults = { ...this.defaults, ...defaults };
  }

  behaviour(deploymentId: string): AgentBehaviour {
    let b = this.behaviours.get(deploymentId);
    if (!b) {
      b = { ...defaultBehaviour(), ...this.defaults };
      b.graphs = [...b.graphs];
      this.behaviours.set(deploymentId, b);
    }
    return b;
  }

  handle(req: AgentRequest): SimResponse {
    const base = this.behaviour(req.deploymentId);
    const b: AgentBehaviour = req.revision ? { ...base, ...definedOnly(req.revision) } : base;
    const parts = req.path.split('/').filter((p) => p !== '');
    const route = `${req.method} /${parts.map((p, i) => (i === 1 && parts[0] === 'threads' ? ':id' : p)).join('/')}`;
    const threads = this.threadsOf(req.deploymentId);
    const iso = new Date(req.now).toISOString();
    switch (route) {
      case 'GET /ok':
        if (!b.healthy) return detail(503, 'Service Unavailable');
        if (base.unhealthyCount > 0) {
          base.unhealthyCount -= 1;
          return detail(503, 'Service Unavailable');
        }
        return { status: 200, body: { ok: true } };
      case 'POST /assistants/search':
        return { status: 200, body: this.searchAssistants(req, b) };
      case 'POST /threads': {
        const body = isObject(req.json) ? req.json : {};
        const id = typeof body.thread_id === 'string' ? body.thread_id : randomUUID();
        if (threads.has(id)) return detail(409, `Thread with ID ${id} already exists`);
        const supersteps = body.supersteps ?? [];
        const invalid = validateSupersteps(supersteps);
        if (invalid) return { status: 422, body: { detail: invalid } };
        const thread: Thread = {
          thread_id: id,
          created_at: iso,
          updated_at: iso,
          metadata: isObject(body.metadata) ? body.metadata : {},
          status: 'idle',
          values: null,
          history: [],
        };
        for (const step of supersteps as { updates: { values: unknown }[] }[]) {
          let values = thread.values;
          for (const update of step.updates) values = mergeValues(values, update.values);
          thread.values = values;
          addCheckpoint(thread, values, 'update', iso);
        }
        threads.set(id, thread);
        return { status: 200, body: publicThread(thread) };
      }
      case 'GET /threads/:id': {
        const thread = threads.get(parts[1]!);
        return thread
          ? { status: 200, body: publicThread(thread) }
          : detail(404, `Thread with ID ${parts[1]} not found`);
      }
      case 'GET /threads/:id/state': {
        const thread = threads.get(parts[1]!);
        if (!thread) return detail(404, `Thread with ID ${parts[1]} not found`);
        const last = thread.history[thread.history.length - 1];
        return {
          status: 200,
          body: last ?? {
            values: {},
            next: [],
            tasks: [],
            checkpoint: null,
            parent_checkpoint: null,
            metadata: null,
            created_at: null,
          },
        };
      }
      case 'POST /threads/:id/history': {
        const thread = threads.get(parts[1]!);
        if (!thread) return detail(404, `Thread with ID ${parts[1]} not found`);
        const body = isObject(req.json) ? req.json : {};
        const limit = typeof body.limit === 'number' ? body.limit : 10;
        return { status: 200, body: [...thread.history].reverse().slice(0, limit) };
      }
      case 'DELETE /threads/:id':
        if (!threads.delete(parts[1]!)) return detail(404, `Thread with ID ${parts[1]} not found`);
        return { status: 204 };
      case 'POST /threads/:id/runs/stream':
        return this.stream(req, b, parts[1]!);
      case 'POST /runs/wait':
        return waitRun(
          req.json,
          b,
          (id) => this.assistants(req, b).find((a) => a.assistant_id === id || a.graph_id === id),
          req.trace,
        );
      default:
        return detail(404, 'Not Found');
    }
  }

  /**
   * A POST to a pre-signed feedback URL (`/api/v1/feedback/tokens/<token>`, as LangSmith's): no API key needed, and one
   * that carries a key (`X-Api-Key` or `Authorization`) is refused, since the URL is its own
   * authorisation and a key sent there would leak.
   */
  receiveFeedback(req: { token: string; method: string; hadApiKey: boolean; json: unknown }) {
    const issued = this.feedbackTokens.get(req.token);
    const status =
      req.method !== 'POST'
        ? 405
        : req.hadApiKey
          ? 403
          : !issued
            ? 404
            : typeof (req.json as { score?: unknown } | undefined)?.score !== 'number'
              ? 422
              : 200;
    this.feedback.push({
      token: req.token,
      ...(issued ? { runId: issued.runId, key: issued.key } : {}),
      body: req.json,
      hadApiKey: req.hadApiKey,
      status,
    });
    const messages: Record<number, string> = {
      405: 'Method Not Allowed',
      403: 'A pre-signed feedback URL takes no API key.',
      404: 'Unknown feedback token.',
      422: '`score` must be a number.',
    };
    return status === 200
      ? { status, body: { id: randomUUID() } }
      : detail(status, messages[status] ?? 'error');
  }

  private threadsOf(deploymentId: string): Map<string, Thread> {
    let t = this.threads.get(deploymentId);
    if (!t) {
      t = new Map();
      this.threads.set(deploymentId, t);
    }
    return t;
  }

  private assistants(req: AgentRequest, b: AgentBehaviour) {
    const at = new Date(req.createdAt).toISOString();
    return b.graphs.map((graph) => ({
      assistant_id: assistantId(req.deploymentId, graph),
      graph_id: graph,
      name: graph,
      config: {},
      metadata: { created_by: 'system' },
      created_at: at,
      updated_at: at,
      version: 1,
    }));
  }

  private searchAssistants(req: AgentRequest, b: AgentBehaviour) {
    const body = isObject(req.json) ? req.json : {};
    const limit = typeof body.limit === 'number' ? body.limit : 10;
    const offset = typeof body.offset === 'number' ? body.offset : 0;
    return this.assistants(req, b)
      .filter((a) => typeof body.graph_id !== 'string' || a.graph_id === body.graph_id)
      .slice(offset, offset + limit);
  }

  private stream(req: AgentRequest, b: AgentBehaviour, threadId: string): SimResponse {
    const thread = this.threadsOf(req.deploymentId).get(threadId);
    if (!thread) return detail(404, `Thread with ID ${threadId} not found`);
    const body = isObject(req.json) ? req.json : {};
    if (typeof body.assistant_id !== 'string') {
      return {
        status: 422,
        body: {
          detail: [{ loc: ['body', 'assistant_id'], msg: 'Field required', type: 'missing' }],
        },
      };
    }
    const assistant = this.assistants(req, b).find(
      (a) => a.assistant_id === body.assistant_id || a.graph_id === body.assistant_id,
    );
    if (!assistant) return detail(404, `Assistant ${body.assistant_id} not found`);

    const modes = new Set(
      Array.isArray(body.stream_mode)
        ? body.stream_mode
        : typeof body.stream_mode === 'string'
          ? [body.stream_mode]
          : ['values'],
    );
    const runId = randomUUID();
    const iso = new Date(req.now).toISOString();
    const input = isObject(body.input) ? body.input : {};
    const inputMessages = Array.isArray(input.messages) ? input.messages : [];
    // A chat agent: the reply quotes the last message it was sent.
    const said = lastContent(inputMessages);
    const reply = {
      type: 'ai',
      id: `msg-${runId}`,
      content: `Hello from ${assistant.graph_id}.${said !== undefined ? ` You said: ${said}` : ''}`,
    };
    // The thread's values carry over from run to run; `messages` accumulate.
    const start = mergeValues(thread.values, input);
    const final = mergeValues(start, { messages: [reply] });
    const interrupt = [{ value: { question: 'Approve this step?' }, id: `interrupt-${runId}` }];
    // `input.raise` (a string) makes this run fail with that message.
    const raise = typeof input.raise === 'string' ? input.raise : undefined;

    const events = [sseEvent('metadata', { run_id: runId, thread_id: threadId, attempt: 1 })];
    if (modes.has('values')) events.push(sseEvent('values', start));
    addCheckpoint(thread, start, 'input', iso);
    if (b.run === 'error' || raise !== undefined) {
      events.push(sseEvent('error', { error: 'ValueError', message: raise ?? b.errorMessage }));
      thread.status = 'error';
      thread.values = start;
    } else if (b.run === 'interrupt') {
      if (modes.has('updates')) events.push(sseEvent('updates', { __interrupt__: interrupt }));
      if (modes.has('values'))
        events.push(sseEvent('values', { ...start, __interrupt__: interrupt }));
      thread.status = 'interrupted';
      thread.values = start;
    } else {
      if (modes.has('updates'))
        events.push(sseEvent('updates', { [assistant.graph_id]: { messages: [reply] } }));
      if (modes.has('values')) events.push(sseEvent('values', final));
      thread.status = 'idle';
      thread.values = final;
      addCheckpoint(thread, final, 'loop', iso);
    }
    // Pre-signed feedback URLs, after the run (none for a run that errored, as the server).
    const keys = Array.isArray(body.feedback_keys)
      ? body.feedback_keys.filter((k): k is string => typeof k === 'string')
      : [];
    if (keys.length > 0 && thread.status !== 'error' && req.feedbackBase !== undefined) {
      const urls: Record<string, string> = {};
      for (const key of keys) {
        const token = randomUUID();
        this.feedbackTokens.set(token, { runId, key });
        urls[key] = `${req.feedbackBase}/api/v1/feedback/tokens/${token}`;
      }
      events.push(sseEvent('feedback', urls));
    }
    thread.updated_at = iso;
    return {
      ...(b.runDelayMs ? { sseDelayMs: b.runDelayMs } : {}),
      status: 200,
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'content-location': `/threads/${threadId}/runs/${runId}`,
      },
      sse: events,
    };
  }
}

function publicThread(thread: Thread) {
  const { history: _history, ...rest } = thread;
  return rest;
}

/** Merges a state update: `messages` are appended (the messages reducer), the rest replaced. */
function mergeValues(current: unknown, update: unknown): Record<string, unknown> {
  const base = isObject(current) ? current : {};
  if (!isObject(update)) return { ...base };
  const merged: Record<string, unknown> = { ...base, ...update };
  if (Array.isArray(update.messages)) {
    const before = Array.isArray(base.messages) ? base.messages : [];
    merged.messages = [...before, ...update.messages];
  }
  return merged;
}

function addCheckpoint(
  thread: Thread,
  values: unknown,
  source: Checkpoint['metadata']['source'],
  iso: string,
): void {
  const parent = thread.history[thread.history.length - 1]?.checkpoint ?? null;
  thread.history.push({
    values,
    next: [],
    tasks: [],
    checkpoint: { thread_id: thread.thread_id, checkpoint_ns: '', checkpoint_id: randomUUID() },
    parent_checkpoint: parent,
    metadata: { source, step: thread.history.length - 1, graph_id: thread.metadata.graph_id },
    created_at: iso,
  });
}

/** The server's rule: a list of `{updates: [{values, as_node, command?}]}`; undefined when valid. */
function validateSupersteps(supersteps: unknown): unknown[] | undefined {
  if (!Array.isArray(supersteps)) {
    return [
      { loc: ['body', 'supersteps'], msg: 'Input should be a valid list', type: 'list_type' },
    ];
  }
  const errors: unknown[] = [];
  supersteps.forEach((step: unknown, i) => {
    const updates = isObject(step) ? step.updates : undefined;
    if (!Array.isArray(updates)) {
      errors.push({
        loc: ['body', 'supersteps', i, 'updates'],
        msg: 'Field required',
        type: 'missing',
      });
      return;
    }
    updates.forEach((u: unknown, j) => {
      if (!isObject(u) || typeof u.as_node !== 'string') {
        errors.push({
          loc: ['body', 'supersteps', i, 'updates', j, 'as_node'],
          msg: 'Field required',
          type: 'missing',
        });
      }
    });
  });
  return errors.length > 0 ? errors : undefined;
}

function lastContent(messages: unknown[]): string | undefined {
  const last: unknown = messages[messages.length - 1];
  if (!isObject(last)) return undefined;
  return typeof last.content === 'string' ? last.content : undefined;
}
