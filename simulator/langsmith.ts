/**
 * The LangSmith API subset that the official `langsmith` SDK calls for an evaluation, served by
 * the simulator at `/api/v1` of its own origin (the `langsmith-api-url` the action derives from
 * `control-plane-url`): datasets and examples (read), sessions (projects and experiments, with
 * stats and the metadata filter), runs (single, batch and multipart ingest; the cursor query)
 * and feedback. Routes, query parameters and bodies follow the SDK's `Client`
 * (langsmith-sdk js/src/client.ts); the answers its schemas.
 */
import type { RequestLogEntry, SimResponse } from './types.js';
import { isObject, isUuid, LangSmithStore, toMs, type LsSession } from './langsmith-store.js';
import { datasetWire, exampleWire, feedbackWire, sessionWire } from './langsmith-wire.js';
import { ingestBatch, ingestMultipart, queryRuns, readRun } from './langsmith-runs.js';

export interface LangSmithOptions {
  /** The clock of runs, evaluator delays and ingest delays (default `Date.now`). */
  clock?: () => number;
  /** How long after a run ended its evaluators' scores appear (default 0). */
  evaluatorDelayMs?: number;
  /** How long after it arrived a run is seen by reads (default 0: at once). */
  ingestDelayMs?: number;
}

export interface LangSmithRequest {
  method: string;
  /** Under `/api/v1`, e.g. `/datasets`. */
  path: string;
  query: URLSearchParams;
  json: unknown;
  /** The parts of a `multipart/form-data` body; `invalid` when it did not parse. */
  form?: [string, string][] | 'invalid';
}

/** Mutable behaviour of the simulated LangSmith (also reachable as `sim.langsmith.settings`). */
export interface LangSmithSettings {
  evaluatorDelayMs: number;
  ingestDelayMs: number;
  /** List sessions oldest first whatever `sort_by_desc` asks (to test clients that sort). */
  sessionsOldestFirst: boolean;
  /** Every LangSmith request answers this (the key is refused); undefined: accepted. */
  refuseKey?: 401 | 403;
}

export const LANGSMITH_PREFIX = '/api/v1';
const MAX_PAGE = 100;

const detail = (status: number, text: string): SimResponse => ({ status, body: { detail: text } });
const ok = (body: unknown): SimResponse => ({ status: 200, body });

/** offset/limit of a GET list (LangSmith's bounds: limit 1–100); a 422 answer when wrong. */
export function page(query: URLSearchParams): { offset: number; limit: number } | SimResponse {
  const offset = Number(query.get('offset') ?? 0);
  const limit = Number(query.get('limit') ?? MAX_PAGE);
  if (!Number.isInteger(offset) || offset < 0) return detail(422, 'offset must be >= 0.');
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
    return detail(422, `limit must be between 1 and ${MAX_PAGE}.`);
  }
  return { offset, limit };
}
const isAnswer = (v: unknown): v is SimResponse => isObject(v) && typeof v.status === 'number';

export class LangSmithApi {
  readonly store: LangSmithStore;
  readonly settings: LangSmithSettings;

  constructor(
    private readonly options: LangSmithOptions,
    private readonly tenantId: () => string,
  ) {
    this.settings = this.initialSettings();
    this.store = new LangSmithStore({
      clock: options.clock ?? Date.now,
      evaluatorDelayMs: () => this.settings.evaluatorDelayMs,
      ingestDelayMs: () => this.settings.ingestDelayMs,
    });
  }

  private initialSettings(): LangSmithSettings {
    return {
      evaluatorDelayMs: this.options.evaluatorDelayMs ?? 0,
      ingestDelayMs: this.options.ingestDelayMs ?? 0,
      sessionsOldestFirst: false,
    };
  }

  reset(): void {
    this.store.clear();
    Object.assign(this.settings, { refuseKey: undefined }, this.initialSettings());
  }

  handle(req: LangSmithRequest): SimResponse {
    if (this.settings.refuseKey === 401) return detail(401, 'Invalid token');
    if (this.settings.refuseKey === 403) {
      return detail(403, 'Forbidden: this API key has no access to this workspace.');
    }
    const parts = req.path.split('/').filter((p) => p !== '');
    const id = parts[1];
    const route = `${req.method} /${parts.map((p, i) => (i === 1 && isUuid(p) ? ':id' : p)).join('/')}`;
    const tenant = this.tenantId();
    const store = this.store;
    const json = isObject(req.json) ? req.json : {};
    switch (route) {
      case 'GET /info':
        return ok(this.info());
      case 'GET /datasets':
        return this.listDatasets(req.query);
      case 'GET /datasets/:id': {
        const d = store.datasets.get(id!);
        return d ? ok(datasetWire(store, d, tenant)) : detail(404, 'Dataset not found');
      }
      case 'GET /examples':
        return this.listExamples(req.query);
      case 'POST /sessions':
        return this.createSession(json, req.query.get('upsert') === 'true');
      case 'GET /sessions':
        return this.listSessions(req.query);
      case 'GET /sessions/:id': {
        const s = store.sessions.get(id!);
        const stats = req.query.get('include_stats') === 'true';
        return s ? ok(sessionWire(store, s, tenant, stats)) : detail(404, 'Session not found');
      }
      case 'PATCH /sessions/:id':
        return this.updateSession(id!, json);
      case 'DELETE /sessions/:id':
        if (!store.sessions.has(id!)) return detail(404, 'Session not found');
        store.deleteSession(id!);
        return { status: 202, body: {} };
      case 'POST /runs':
        return accepted(store.writeRun('post', json));
      case 'PATCH /runs/:id':
        return accepted(store.writeRun('patch', { ...json, id }));
      case 'GET /runs/:id':
        return readRun(store, id!, tenant);
      case 'POST /runs/batch':
        return ingestBatch(store, json);
      case 'POST /runs/multipart':
        return ingestMultipart(store, req.form);
      case 'POST /runs/query':
        return queryRuns(store, json, tenant);
      case 'POST /feedback':
        return this.createFeedback(json);
      case 'GET /feedback':
        return this.listFeedback(req.query);
      default:
        return detail(404, 'Not Found');
    }
  }

  /** `GET /info`: what the SDK reads to pick multipart ingest and its batch sizes. */
  private info() {
    return {
      version: '0.18.0',
      license_expiration_time: null,
      batch_ingest_config: {
        use_multipart_endpoint: true,
        // The simulator reads at most 1 MiB of a body: the SDK cuts its batches below that.
        size_limit_bytes: 1_000_000,
        size_limit: 100,
        scale_up_qsize_trigger: 1000,
        scale_up_nthreads_limit: 16,
        scale_down_nempty_trigger: 4,
      },
      instance_flags: { gzip_body_enabled: false, dataset_examples_multipart_enabled: false },
    };
  }

  private listDatasets(query: URLSearchParams): SimResponse {
    const p = page(query);
    if (isAnswer(p)) return p;
    const ids = query.getAll('id');
    const name = query.get('name');
    const contains = query.get('name_contains')?.toLowerCase();
    // Seeded datasets carry no metadata: a metadata filter matches none (an empty one, all).
    const metadata = query.get('metadata');
    const found = [...this.store.datasets.values()]
      .filter(() => metadata === null || matchesMetadata(null, parseOr(metadata)))
      .filter((d) => ids.length === 0 || ids.includes(d.id))
      .filter((d) => name === null || d.name === name)
      .filter((d) => contains === undefined || d.name.toLowerCase().includes(contains))
      .sort((a, b) => b.createdAt - a.createdAt);
    return ok(
      found
        .slice(p.offset, p.offset + p.limit)
        .map((d) => datasetWire(this.store, d, this.tenantId())),
    );
  }

  private listExamples(query: URLSearchParams): SimResponse {
    const p = page(query);
    if (isAnswer(p)) return p;
    const datasetId = query.get('dataset');
    if (datasetId === null) return detail(422, 'The query parameter "dataset" is required.');
    if (!isUuid(datasetId)) return detail(422, `dataset "${datasetId}" is not a UUID.`);
    const dataset = this.store.datasets.get(datasetId);
    if (!dataset) return detail(404, 'Dataset not found');
    const splits = query.getAll('splits');
    const ids = query.getAll('id');
    let metadata: unknown = {};
    try {
      metadata = JSON.parse(query.get('metadata') ?? '{}');
    } catch {
      return detail(422, 'metadata must be a JSON object.');
    }
    const found = dataset.examples
      .filter((e) => splits.length === 0 || e.splits.some((s) => splits.includes(s)))
      .filter((e) => ids.length === 0 || ids.includes(e.id))
      .filter((e) => matchesMetadata(e.metadata, metadata));
    return ok(found.slice(p.offset, p.offset + p.limit).map(exampleWire));
  }

  private createSession(body: Record<string, unknown>, upsert: boolean): SimResponse {
    if (typeof body.name !== 'string' || body.name === '') {
      return detail(422, 'A session needs a "name".');
    }
    const datasetId = body.reference_dataset_id;
    if (datasetId !== undefined && datasetId !== null) {
      if (!isUuid(datasetId)) return detail(422, 'reference_dataset_id must be a UUID.');
      if (!this.store.datasets.has(datasetId)) return detail(404, 'Dataset not found');
    }
    const taken = this.store.sessionByName(body.name);
    if (taken && !upsert) {
      return detail(409, `Session with name ${body.name} already exists`);
    }
    const session =
      taken ??
      this.store.addSession({
        name: body.name,
        description: typeof body.description === 'string' ? body.description : null,
        extra: isObject(body.extra) ? body.extra : {},
        referenceDatasetId: typeof datasetId === 'string' ? datasetId : null,
        ...(toMs(body.start_time) !== undefined ? { startTime: toMs(body.start_time)! } : {}),
      });
    return ok(sessionWire(this.store, session, this.tenantId(), false));
  }

  private listSessions(query: URLSearchParams): SimResponse {
    const p = page(query);
    if (isAnswer(p)) return p;
    let metadata: unknown = undefined;
    const rawMetadata = query.get('metadata');
    if (rawMetadata !== null) {
      try {
        metadata = JSON.parse(rawMetadata);
      } catch {
        return detail(422, 'metadata must be a JSON object.');
      }
      if (!isObject(metadata)) return detail(422, 'metadata must be a JSON object.');
    }
    const ids = query.getAll('id');
    const datasets = query.getAll('reference_dataset');
    const name = query.get('name');
    const contains = query.get('name_contains')?.toLowerCase();
    const free = query.get('reference_free');
    const desc = !this.settings.sessionsOldestFirst && query.get('sort_by_desc') !== 'false';
    const found = [...this.store.sessions.values()]
      .filter((s) => ids.length === 0 || ids.includes(s.id))
      .filter((s) => datasets.length === 0 || datasets.includes(s.referenceDatasetId ?? ''))
      .filter((s) => name === null || s.name === name)
      .filter((s) => contains === undefined || s.name.toLowerCase().includes(contains))
      .filter((s) => free === null || (free === 'true') === (s.referenceDatasetId === null))
      .filter((s) => metadata === undefined || matchesMetadata(s.extra.metadata, metadata))
      .sort((a, b) => (desc ? b.startTime - a.startTime : a.startTime - b.startTime));
    const stats = query.get('include_stats') === 'true';
    return ok(
      found
        .slice(p.offset, p.offset + p.limit)
        .map((s) => sessionWire(this.store, s, this.tenantId(), stats)),
    );
  }

  private updateSession(id: string, body: Record<string, unknown>): SimResponse {
    const session: LsSession | undefined = this.store.sessions.get(id);
    if (!session) return detail(404, 'Session not found');
    if (typeof body.name === 'string') session.name = body.name;
    if (typeof body.description === 'string') session.description = body.description;
    if (isObject(body.extra)) session.extra = body.extra;
    const end = toMs(body.end_time);
    if (end !== undefined) session.endTime = end;
    return ok(sessionWire(this.store, session, this.tenantId(), false));
  }

  private createFeedback(body: Record<string, unknown>): SimResponse {
    if (typeof body.key !== 'string' || body.key === '') {
      return detail(422, 'Feedback needs a "key".');
    }
    if (!isUuid(body.run_id)) return detail(422, 'Feedback needs a "run_id" (UUID).');
    const run = this.store.runs.get(body.run_id);
    if (!run) return detail(404, `Run ${body.run_id} not found`);
    const score = typeof body.score === 'boolean' ? Number(body.score) : body.score;
    if (score !== undefined && score !== null && typeof score !== 'number') {
      return detail(422, 'score must be a number, a boolean or null.');
    }
    const feedback = this.store.addFeedback(run, {
      ...(isUuid(body.id) ? { id: body.id } : {}),
      key: body.key,
      score: score ?? null,
      value: body.value,
      comment: typeof body.comment === 'string' ? body.comment : null,
      correction: body.correction,
      source: isObject(body.feedback_source) ? body.feedback_source : { type: 'api' },
    });
    return ok(feedbackWire(feedback));
  }

  private listFeedback(query: URLSearchParams): SimResponse {
    const p = page(query);
    if (isAnswer(p)) return p;
    const runs = query.getAll('run');
    const keys = query.getAll('key');
    const sessions = query.getAll('session');
    const found = this.store
      .visibleFeedback()
      .filter((f) => runs.length === 0 || runs.includes(f.runId))
      .filter((f) => keys.length === 0 || keys.includes(f.key))
      .filter((f) => sessions.length === 0 || sessions.includes(f.sessionId));
    return ok(found.slice(p.offset, p.offset + p.limit).map(feedbackWire));
  }
}

function accepted(error: string | undefined): SimResponse {
  return error === undefined ? { status: 202, body: {} } : detail(422, error);
}

const parseOr = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Every key of the filter has the same (JSON) value in the metadata. */
function matchesMetadata(metadata: unknown, filter: unknown): boolean {
  if (!isObject(filter)) return false;
  const have = isObject(metadata) ? metadata : {};
  return Object.entries(filter).every(([k, v]) => JSON.stringify(have[k]) === JSON.stringify(v));
}

/**
 * Requests to the LangSmith API counted by route (`GET /api/v1/sessions/{id}`: UUIDs become
 * `{id}`), from the simulator's request log.
 */
export function countLangSmithRequests(requests: RequestLogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of requests) {
    if (!r.path.startsWith('/api/')) continue;
    const route = `${r.method} ${r.path.replace(/\/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}(?=\/|$)/gi, '/{id}')}`;
    counts[route] = (counts[route] ?? 0) + 1;
  }
  return counts;
}

/** The parts of a `multipart/form-data` body, parsed by Node's own `Response.formData()`. */
export async function parseMultipart(
  contentType: string | undefined,
  raw: string,
): Promise<[string, string][] | 'invalid' | undefined> {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) return undefined;
  try {
    const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
    const entries: [string, string | Blob][] = [];
    form.forEach((value, name) => entries.push([name, value]));
    const parts: [string, string][] = [];
    for (const [name, value] of entries) {
      parts.push([name, typeof value === 'string' ? value : await value.text()]);
    }
    return parts;
  } catch {
    return 'invalid';
  }
}
