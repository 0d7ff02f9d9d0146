/**
 * Runs in the simulated LangSmith: the batch and multipart ingest endpoints (the tracer of the
 * `langsmith` SDK, and so of a LangGraph agent server, posts `/runs/multipart`; it falls back to
 * `/runs/batch` where that is missing), one run by ID, and the cursor-paged `/runs/query`.
 */
import type { SimResponse } from './types.js';
import { isObject, isUuid, toMs, type LangSmithStore, type LsRun } from './langsmith-store.js';
import { runWire } from './langsmith-wire.js';

type Json = Record<string, unknown>;
const detail = (status: number, text: string): SimResponse => ({ status, body: { detail: text } });
const MAX_PAGE = 100;

/** Creates first, then updates (the order the SDK means), then feedback; 202 when all stored. */
function ingest(store: LangSmithStore, posts: Json[], patches: Json[], feedback: Json[] = []) {
  const errors = [
    ...posts.map((p) => store.writeRun('post', p)),
    ...patches.map((p) => store.writeRun('patch', p)),
  ].filter((e): e is string => e !== undefined);
  for (const f of feedback) {
    const run = isUuid(f.run_id) ? store.runs.get(f.run_id) : undefined;
    if (!run || typeof f.key !== 'string') {
      errors.push(`Feedback ${String(f.id)}: unknown run or no key.`);
      continue;
    }
    store.addFeedback(run, {
      ...(isUuid(f.id) ? { id: f.id } : {}),
      key: f.key,
      score: typeof f.score === 'number' ? f.score : null,
      value: f.value,
      comment: typeof f.comment === 'string' ? f.comment : null,
      source: isObject(f.feedback_source) ? f.feedback_source : { type: 'api' },
    });
  }
  return errors.length > 0 ? detail(422, errors.join(' ')) : { status: 202, body: {} };
}

/** `POST /runs/batch`: `{post: [...], patch: [...]}`. */
export function ingestBatch(store: LangSmithStore, body: Json): SimResponse {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter(isObject) : []);
  return ingest(store, list(body.post), list(body.patch));
}

/**
 * `POST /runs/multipart`: parts `post.<id>` / `patch.<id>` (the run) with `post.<id>.<field>`
 * for `inputs`, `outputs`, `events`, `extra`, `error`, `serialized`; `feedback.<id>`;
 * `attachment.<id>.<name>` (accepted, not kept). Runs need `trace_id` and `dotted_order`.
 */
export function ingestMultipart(
  store: LangSmithStore,
  form: [string, string][] | 'invalid' | undefined,
): SimResponse {
  if (form === undefined) return detail(415, 'Expected a multipart/form-data body.');
  if (form === 'invalid') return detail(400, 'The multipart/form-data body did not parse.');
  const runs = new Map<string, { op: 'post' | 'patch'; body: Json }>();
  const feedback: Json[] = [];
  for (const [name, text] of form) {
    const [kind, id, field] = name.split('.');
    if (kind === 'attachment') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return detail(422, `Part ${name} is not JSON.`);
    }
    if (kind === 'feedback' && isObject(value)) {
      feedback.push(value);
      continue;
    }
    if ((kind !== 'post' && kind !== 'patch') || !id) return detail(422, `Unknown part ${name}.`);
    const entry = runs.get(`${kind}.${id}`) ?? { op: kind, body: { id } };
    runs.set(`${kind}.${id}`, entry);
    if (field === undefined && isObject(value)) Object.assign(entry.body, value);
    else if (field !== undefined) entry.body[field] = value;
  }
  const all = [...runs.values()];
  const incomplete = all.find((r) => !r.body.trace_id || !r.body.dotted_order);
  if (incomplete) {
    return detail(422, `Run ${String(incomplete.body.id)}: trace_id and dotted_order required.`);
  }
  const bodies = (op: string) => all.filter((r) => r.op === op).map((r) => r.body);
  return ingest(store, bodies('post'), bodies('patch'), feedback);
}

export function readRun(store: LangSmithStore, id: string, tenantId: string): SimResponse {
  const run = store.visibleRuns().find((r) => r.id === id);
  if (!run) return detail(404, 'Run not found');
  return { status: 200, body: runWire(run, store.visibleFeedback(), tenantId) };
}

const FILTERS = ['filter', 'query', 'trace_filter', 'tree_filter'] as const;

/**
 * `POST /runs/query` (the SDK's `listRuns`): `session`, `is_root`, `reference_example`, `id`,
 * `trace`, `parent_run`, `run_type`, `error`, `start_time`, `select`, `order`, `limit` (page
 * size, at most 100) and `cursor`; answers `{runs, cursors: {next}}`. Filter expressions
 * (`filter`, `query`, …) are not simulated: 400, rather than an answer that ignored them.
 */
export function queryRuns(store: LangSmithStore, body: Json, tenantId: string): SimResponse {
  const used = FILTERS.find((f) => body[f] !== undefined && body[f] !== null && body[f] !== '');
  if (used) return detail(400, `The simulator does not evaluate "${used}" expressions.`);
  const list = (v: unknown) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
  const sessions = list(body.session);
  const ids = list(body.id);
  const examples = list(body.reference_example);
  const trace = typeof body.trace === 'string' ? body.trace : undefined;
  const parent = typeof body.parent_run === 'string' ? body.parent_run : undefined;
  if (!sessions?.length && !ids?.length && !examples?.length && !trace && !parent) {
    return detail(
      400,
      'Specify at least one of session, id, trace, parent_run, reference_example.',
    );
  }
  const unknown = sessions?.find((s) => !store.sessions.has(s));
  if (unknown) return detail(404, `Session ${unknown} not found`);
  const limit = body.limit === undefined || body.limit === null ? MAX_PAGE : Number(body.limit);
  if (!Number.isInteger(limit) || limit < 1) return detail(422, 'limit must be >= 1.');
  const offset = decodeCursor(body.cursor);
  if (offset === undefined) return detail(422, 'cursor is not one this server gave.');
  const since = toMs(body.start_time);
  const keep = (r: LsRun) =>
    (!sessions?.length || sessions.includes(r.sessionId)) &&
    (!ids?.length || ids.includes(r.id)) &&
    (!examples?.length || examples.includes(r.referenceExampleId ?? '')) &&
    (trace === undefined || r.traceId === trace) &&
    (parent === undefined || r.parentRunId === parent) &&
    (typeof body.is_root !== 'boolean' || body.is_root === (r.parentRunId === undefined)) &&
    (typeof body.run_type !== 'string' || r.runType === body.run_type) &&
    (typeof body.error !== 'boolean' || body.error === (r.error !== undefined)) &&
    (since === undefined || r.startTime >= since);
  const asc = body.order === 'asc';
  const found = store
    .visibleRuns()
    .filter(keep)
    .sort((a, b) => (asc ? 1 : -1) * (a.startTime - b.startTime || a.id.localeCompare(b.id)));
  const size = Math.min(limit, MAX_PAGE);
  const select = list(body.select);
  const feedback = store.visibleFeedback();
  const runs = found.slice(offset, offset + size).map((r) => {
    const wire: Json = runWire(r, feedback, tenantId);
    if (!select?.length) return wire;
    return Object.fromEntries(
      Object.entries(wire).filter(([k]) => k === 'id' || select.includes(k)),
    );
  });
  const next = offset + size < found.length ? encodeCursor(offset + size) : null;
  return { status: 200, body: { runs, cursors: { next, prev: null }, search_cursors: null } };
}

const encodeCursor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
function decodeCursor(cursor: unknown): number | undefined {
  if (cursor === undefined || cursor === null) return 0;
  if (typeof cursor !== 'string') return undefined;
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}
