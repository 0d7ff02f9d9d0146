/**
 * The agent server of each deployment (LangGraph API subset): `/ok`, assistants, threads and
 * streamed runs in the LangGraph server-sent-events wire format.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { AgentBehaviour, RevisionAgent, SimResponse } from './types.js';

export interface AgentRequest {
  deploymentId: string;
  /** Path under the agent server, e.g. `/ok` or `/threads/<id>/runs/stream`. */
  path: string;
  method: string;
  json: unknown;
  now: number;
  /** When the deployment was created (assistants' timestamps). */
  createdAt: number;
  /** Behaviour of the live revision, over the deployment's. */
  revision?: RevisionAgent;
}

interface Thread {
  thread_id: string;
  created_at: string;
  updated_at: string;
  metadata: Record<string, unknown>;
  status: 'idle' | 'busy' | 'interrupted' | 'error';
  values: unknown;
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

  constructor(private readonly initialDefaults: Partial<AgentBehaviour> = {}) {
    this.defaults = { ...initialDefaults };
  }

  clear(): void {
    this.behaviours.clear();
    this.threads.clear();
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
        const thread: Thread = {
          thread_id: id,
          created_at: iso,
          updated_at: iso,
          metadata: isObject(body.metadata) ? body.metadata : {},
          status: 'idle',
          values: null,
        };
        threads.set(id, thread);
        return { status: 200, body: thread };
      }
      case 'GET /threads/:id': {
        const thread = threads.get(parts[1]!);
        return thread
          ? { status: 200, body: thread }
          : detail(404, `Thread with ID ${parts[1]} not found`);
      }
      case 'DELETE /threads/:id':
        if (!threads.delete(parts[1]!)) return detail(404, `Thread with ID ${parts[1]} not found`);
        return { status: 204 };
      case 'POST /threads/:id/runs/stream':
        return this.stream(req, b, parts[1]!);
      default:
        return detail(404, 'Not Found');
    }
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
    const input = isObject(body.input) ? body.input : {};
    const inputMessages = Array.isArray(input.messages) ? input.messages : [];
    const reply = { type: 'ai', id: `msg-${runId}`, content: `Hello from ${assistant.graph_id}.` };
    const final = { ...input, messages: [...inputMessages, reply] };
    const interrupt = [{ value: { question: 'Approve this step?' }, id: `interrupt-${runId}` }];

    const events = [sseEvent('metadata', { run_id: runId, thread_id: threadId, attempt: 1 })];
    if (modes.has('values')) events.push(sseEvent('values', input));
    if (b.run === 'error') {
      events.push(sseEvent('error', { error: 'ValueError', message: b.errorMessage }));
      thread.status = 'error';
    } else if (b.run === 'interrupt') {
      if (modes.has('updates')) events.push(sseEvent('updates', { __interrupt__: interrupt }));
      if (modes.has('values'))
        events.push(sseEvent('values', { ...input, __interrupt__: interrupt }));
      thread.status = 'interrupted';
      thread.values = input;
    } else {
      if (modes.has('updates'))
        events.push(sseEvent('updates', { [assistant.graph_id]: { messages: [reply] } }));
      if (modes.has('values')) events.push(sseEvent('values', final));
      thread.status = 'idle';
      thread.values = final;
    }
    thread.updated_at = new Date(req.now).toISOString();
    return {
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
