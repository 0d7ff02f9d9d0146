/**
 * The simulated LangSmith's answers: datasets, examples, sessions, runs and feedback in the
 * shapes of the LangSmith API (as the `langsmith` SDK's schemas and its OpenAPI client's types
 * describe them). Runs and sessions carry naive UTC timestamps (no `Z`), as LangSmith answers
 * (the SDK adds the `Z` to runs itself).
 */
import {
  feedbackStats,
  type LangSmithStore,
  type LsDataset,
  type LsExample,
  type LsFeedback,
  type LsRun,
  type LsSession,
} from './langsmith-store.js';

const iso = (ms: number) => new Date(ms).toISOString();
/** `2026-01-02T03:04:05.678`: LangSmith's naive UTC form. */
export const naive = (ms: number) => iso(ms).slice(0, -1);

export function datasetWire(store: LangSmithStore, d: LsDataset, tenantId: string) {
  const sessions = [...store.sessions.values()].filter((s) => s.referenceDatasetId === d.id);
  const last = Math.max(...sessions.map((s) => s.startTime));
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    tenant_id: tenantId,
    data_type: 'kv',
    inputs_schema_definition: null,
    outputs_schema_definition: null,
    externally_managed: false,
    transformations: null,
    metadata: null,
    created_at: iso(d.createdAt),
    modified_at: iso(d.createdAt),
    example_count: d.examples.length,
    session_count: sessions.length,
    last_session_start_time: sessions.length ? naive(last) : null,
  };
}

export function exampleWire(e: LsExample) {
  return {
    id: e.id,
    dataset_id: e.datasetId,
    inputs: e.inputs,
    outputs: e.outputs ?? null,
    metadata: { ...e.metadata, dataset_split: e.splits },
    created_at: iso(e.createdAt),
    modified_at: iso(e.createdAt),
    source_run_id: null,
    attachment_urls: null,
    runs: [],
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : null;

/** A session; with `stats` (`include_stats=true`) its run count, latencies and feedback stats. */
export function sessionWire(store: LangSmithStore, s: LsSession, tenantId: string, stats: boolean) {
  const base = {
    id: s.id,
    name: s.name,
    description: s.description,
    tenant_id: tenantId,
    start_time: naive(s.startTime),
    end_time: s.endTime === null ? null : naive(s.endTime),
    extra: s.extra,
    reference_dataset_id: s.referenceDatasetId,
    default_dataset_id: null,
    trace_tier: 'shortlived',
  };
  const empty = {
    run_count: null,
    latency_p50: null,
    latency_p99: null,
    error_rate: null,
    feedback_stats: null,
    last_run_start_time: null,
    total_tokens: null,
    prompt_tokens: null,
    completion_tokens: null,
    total_cost: null,
  };
  if (!stats) return { ...base, ...empty };
  const roots = store.visibleRuns().filter((r) => r.sessionId === s.id && !r.parentRunId);
  const latencies = roots
    .filter((r) => r.endTime !== undefined)
    .map((r) => (r.endTime! - r.startTime) / 1000)
    .sort((a, b) => a - b);
  const feedback = store.visibleFeedback().filter((f) => f.sessionId === s.id);
  return {
    ...base,
    ...empty,
    run_count: roots.length,
    latency_p50: percentile(latencies, 0.5),
    latency_p99: percentile(latencies, 0.99),
    error_rate: roots.length ? roots.filter((r) => r.error).length / roots.length : null,
    feedback_stats: feedbackStats(feedback),
    last_run_start_time: roots.length ? naive(Math.max(...roots.map((r) => r.startTime))) : null,
    total_tokens: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
  };
}

export function runWire(r: LsRun, feedback: LsFeedback[], tenantId: string) {
  const status = r.error !== undefined ? 'error' : r.endTime !== undefined ? 'success' : 'pending';
  return {
    id: r.id,
    name: r.name,
    run_type: r.runType,
    start_time: naive(r.startTime),
    end_time: r.endTime === undefined ? null : naive(r.endTime),
    status,
    inputs: r.inputs,
    outputs: r.outputs ?? null,
    error: r.error ?? null,
    extra: r.extra ?? null,
    events: r.events ?? null,
    tags: r.tags ?? [],
    parent_run_id: r.parentRunId ?? null,
    parent_run_ids: ancestors(r),
    trace_id: r.traceId,
    dotted_order: r.dottedOrder ?? null,
    reference_example_id: r.referenceExampleId ?? null,
    session_id: r.sessionId,
    feedback_stats: feedbackStats(feedback.filter((f) => f.runId === r.id)),
    app_path: `/o/${tenantId}/projects/p/${r.sessionId}/r/${r.id}?trace_id=${r.traceId}`,
    total_tokens: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_cost: null,
    prompt_cost: null,
    completion_cost: null,
    first_token_time: null,
  };
}

/** Every ancestor, root first: the IDs in the dotted order (`<time>Z<id>.<time>Z<id>…`). */
function ancestors(r: LsRun): string[] {
  const ids = (r.dottedOrder ?? '').split('.').map((seg) => seg.slice(seg.indexOf('Z') + 1));
  const above = ids.slice(0, -1).filter((id) => id !== '');
  return above.length > 0 ? above : r.parentRunId ? [r.parentRunId] : [];
}

export function feedbackWire(f: LsFeedback) {
  return {
    id: f.id,
    run_id: f.runId,
    trace_id: f.traceId,
    session_id: f.sessionId,
    key: f.key,
    score: f.score,
    value: f.value ?? null,
    comment: f.comment,
    correction: f.correction,
    feedback_source: f.source,
    created_at: iso(f.createdAt),
    modified_at: iso(f.createdAt),
  };
}
