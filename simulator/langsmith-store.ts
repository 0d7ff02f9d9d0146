/**
 * The state of the simulated LangSmith API: datasets with their examples and bound evaluators,
 * sessions (projects and experiments), runs and feedback. Nothing runs in the background: a
 * run becomes visible `ingestDelayMs` after it arrived and an evaluator's score `delayMs` after
 * the run ended, both computed from the clock on every read (as the revision timeline is).
 */
import { randomUUID } from 'node:crypto';
import { scoreRun, validateEvaluators, type SimEvaluator } from './evaluator.js';

type Json = Record<string, unknown>;

export interface LsExample {
  id: string;
  datasetId: string;
  inputs: Json;
  outputs?: Json;
  metadata: Json;
  /** LangSmith's `metadata.dataset_split`; `['base']` when the example was given none. */
  splits: string[];
  createdAt: number;
}

export interface LsDataset {
  id: string;
  name: string;
  description: string | null;
  createdAt: number;
  examples: LsExample[];
  evaluators: SimEvaluator[];
}

export interface LsSession {
  id: string;
  name: string;
  description: string | null;
  extra: Json;
  referenceDatasetId: string | null;
  startTime: number;
  endTime: number | null;
}

export interface LsRun {
  id: string;
  sessionId: string;
  name: string;
  runType: string;
  startTime: number;
  endTime?: number;
  inputs: Json;
  outputs?: Json;
  error?: string;
  extra?: Json;
  events?: unknown[];
  tags?: string[];
  parentRunId?: string;
  traceId: string;
  dottedOrder?: string;
  referenceExampleId?: string;
  /** Simulator clock: when the run arrived, and when its end arrived. */
  receivedAt: number;
  endedAt?: number;
}

export interface LsFeedback {
  id: string;
  runId: string;
  traceId: string;
  sessionId: string;
  key: string;
  score: number | null;
  value?: unknown;
  comment: string | null;
  correction: unknown;
  source: Json;
  createdAt: number;
  /** Simulator clock: from when reads see it. */
  visibleAt: number;
}

export interface StoreConfig {
  clock: () => number;
  evaluatorDelayMs: () => number;
  ingestDelayMs: () => number;
}

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** Epoch ms from what the SDKs send: epoch milliseconds, or ISO 8601 (naive means UTC). */
export function toMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'string' || value === '') return undefined;
  const zoned = /(Z|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? undefined : ms;
}

export class LangSmithStore {
  readonly datasets = new Map<string, LsDataset>();
  readonly sessions = new Map<string, LsSession>();
  readonly runs = new Map<string, LsRun>();
  feedback: LsFeedback[] = [];
  private readonly examples = new Map<string, LsExample>();
  /** Patches of runs whose create has not arrived yet (applied when it does). */
  private readonly pending = new Map<string, Json[]>();

  constructor(private readonly config: StoreConfig) {}

  now(): number {
    return this.config.clock();
  }

  clear(): void {
    this.datasets.clear();
    this.sessions.clear();
    this.runs.clear();
    this.examples.clear();
    this.pending.clear();
    this.feedback = [];
  }

  dataset(idOrName: string): LsDataset | undefined {
    return (
      this.datasets.get(idOrName) ?? [...this.datasets.values()].find((d) => d.name === idOrName)
    );
  }

  example(id: string): LsExample | undefined {
    return this.examples.get(id);
  }

  addDataset(input: {
    name: string;
    id?: string;
    description?: string;
    evaluators?: SimEvaluator[];
  }): LsDataset {
    if (this.dataset(input.name)) throw new Error(`A dataset named ${input.name} already exists.`);
    const id = input.id ?? randomUUID();
    if (!isUuid(id) || this.datasets.has(id)) throw new Error(`Dataset ID ${id} is taken or bad.`);
    const dataset: LsDataset = {
      id,
      name: input.name,
      description: input.description ?? null,
      createdAt: this.now(),
      examples: [],
      evaluators: validateEvaluators(input.evaluators ?? []),
    };
    this.datasets.set(id, dataset);
    return dataset;
  }

  addExample(
    dataset: LsDataset,
    input: { id?: string; inputs: Json; outputs?: Json; metadata?: Json; splits?: string[] },
  ): LsExample {
    const id = input.id ?? randomUUID();
    if (!isUuid(id) || this.examples.has(id)) throw new Error(`Example ID ${id} is taken or bad.`);
    const example: LsExample = {
      id,
      datasetId: dataset.id,
      inputs: input.inputs,
      ...(input.outputs ? { outputs: input.outputs } : {}),
      metadata: input.metadata ?? {},
      splits: input.splits && input.splits.length > 0 ? [...input.splits] : ['base'],
      createdAt: this.now(),
    };
    dataset.examples.push(example);
    this.examples.set(id, example);
    return example;
  }

  sessionByName(name: string): LsSession | undefined {
    return [...this.sessions.values()].find((s) => s.name === name);
  }

  addSession(input: {
    name: string;
    id?: string;
    description?: string | null;
    extra?: Json;
    referenceDatasetId?: string | null;
    startTime?: number;
  }): LsSession {
    const session: LsSession = {
      id: input.id ?? randomUUID(),
      name: input.name,
      description: input.description ?? null,
      extra: input.extra ?? {},
      referenceDatasetId: input.referenceDatasetId ?? null,
      startTime: input.startTime ?? this.now(),
      endTime: null,
    };
    this.sessions.set(session.id, session);
    return session;
  }

  deleteSession(id: string): void {
    this.sessions.delete(id);
    for (const run of this.runs.values()) if (run.sessionId === id) this.runs.delete(run.id);
    this.feedback = this.feedback.filter((f) => f.sessionId !== id);
  }

  /**
   * A run create (`post`) or update (`patch`) as the SDKs send it. Returns an error message for
   * a create that cannot be stored. A create names its project by `session_id`, else
   * `session_name` (made on first use, as LangSmith does), else `default`.
   */
  writeRun(op: 'post' | 'patch', body: Json): string | undefined {
    const id = body.id;
    if (!isUuid(id)) return `Run ${op}: "id" must be a UUID.`;
    const existing = this.runs.get(id);
    if (op === 'patch' && !existing) {
      this.pending.set(id, [...(this.pending.get(id) ?? []), body]);
      return undefined;
    }
    let run = existing;
    if (!run) {
      if (typeof body.name !== 'string' || typeof body.run_type !== 'string') {
        return `Run ${id}: "name" and "run_type" are required.`;
      }
      const session = this.sessionFor(body);
      if (typeof session === 'string') return session;
      const now = this.now();
      run = {
        id,
        sessionId: session.id,
        name: body.name,
        runType: body.run_type,
        startTime: toMs(body.start_time) ?? now,
        inputs: isObject(body.inputs) ? body.inputs : {},
        traceId: typeof body.trace_id === 'string' ? body.trace_id : id,
        receivedAt: now,
      };
      this.runs.set(id, run);
    }
    apply(run, body);
    for (const patch of this.pending.get(id) ?? []) apply(run, patch);
    this.pending.delete(id);
    if (run.endTime !== undefined && run.endedAt === undefined) {
      run.endedAt = this.now();
      this.evaluate(run);
    }
    return undefined;
  }

  private sessionFor(body: Json): LsSession | string {
    if (body.session_id !== undefined && body.session_id !== null) {
      const byId = typeof body.session_id === 'string' && this.sessions.get(body.session_id);
      return byId || `Session ${String(body.session_id)} not found.`;
    }
    const name = typeof body.session_name === 'string' ? body.session_name : 'default';
    return this.sessionByName(name) ?? this.addSession({ name });
  }

  /** Scores with the dataset's evaluators a root run of an experiment, once it has ended. */
  private evaluate(run: LsRun): void {
    if (run.parentRunId !== undefined || run.referenceExampleId === undefined) return;
    const datasetId = this.sessions.get(run.sessionId)?.referenceDatasetId;
    const example = this.examples.get(run.referenceExampleId);
    const dataset = datasetId ? this.datasets.get(datasetId) : undefined;
    if (!dataset || example?.datasetId !== dataset.id) return;
    const ended = Math.max(run.endedAt ?? 0, run.receivedAt + this.config.ingestDelayMs());
    for (const evaluator of dataset.evaluators) {
      const score = scoreRun(evaluator, run, example);
      if (score === undefined) continue;
      const delay = evaluator.delayMs ?? this.config.evaluatorDelayMs();
      this.addFeedback(run, {
        key: evaluator.key,
        score,
        source: { type: 'auto_eval', metadata: { evaluator: 'simulated dataset evaluator' } },
        visibleAt: ended + delay,
      });
    }
  }

  addFeedback(
    run: LsRun,
    input: {
      id?: string;
      key: string;
      score?: number | null;
      value?: unknown;
      comment?: string | null;
      correction?: unknown;
      source?: Json;
      visibleAt?: number;
    },
  ): LsFeedback {
    const now = this.now();
    const feedback: LsFeedback = {
      id: input.id ?? randomUUID(),
      runId: run.id,
      traceId: run.traceId,
      sessionId: run.sessionId,
      key: input.key,
      score: input.score ?? null,
      ...(input.value !== undefined ? { value: input.value } : {}),
      comment: input.comment ?? null,
      correction: input.correction ?? null,
      source: input.source ?? { type: 'api' },
      createdAt: now,
      visibleAt: input.visibleAt ?? now,
    };
    this.feedback.push(feedback);
    return feedback;
  }

  /** Runs a read sees now (arrived at least `ingestDelayMs` ago). */
  visibleRuns(): LsRun[] {
    const seen = this.now() - this.config.ingestDelayMs();
    return [...this.runs.values()].filter((r) => r.receivedAt <= seen);
  }

  visibleFeedback(): LsFeedback[] {
    const now = this.now();
    return this.feedback.filter((f) => f.visibleAt <= now);
  }
}

/** Copies the fields a create or update carries onto the run. */
function apply(run: LsRun, body: Json): void {
  const end = toMs(body.end_time);
  if (end !== undefined) run.endTime = end;
  if (isObject(body.outputs)) run.outputs = body.outputs;
  if (isObject(body.inputs) && Object.keys(body.inputs).length > 0) run.inputs = body.inputs;
  if (typeof body.error === 'string') run.error = body.error;
  if (isObject(body.extra)) run.extra = { ...run.extra, ...body.extra };
  if (Array.isArray(body.events)) run.events = body.events;
  if (Array.isArray(body.tags)) run.tags = body.tags.filter((t) => typeof t === 'string');
  if (typeof body.parent_run_id === 'string') run.parentRunId = body.parent_run_id;
  if (typeof body.dotted_order === 'string') run.dottedOrder = body.dotted_order;
  if (typeof body.reference_example_id === 'string') {
    run.referenceExampleId = body.reference_example_id;
  }
}

/** One feedback key's aggregate, in LangSmith's `feedback_stats` shape. */
export interface FeedbackStat {
  n: number;
  avg: number | null;
  stdev: number | null;
  min: number | null;
  max: number | null;
  median: number | null;
  errors: number;
  values: Record<string, number>;
  type: 'PRIMARY';
  contains_thread_feedback: false;
}

export function feedbackStats(items: LsFeedback[]): Record<string, FeedbackStat> {
  const byKey = new Map<string, LsFeedback[]>();
  for (const f of items) {
    const list = byKey.get(f.key);
    if (list) list.push(f);
    else byKey.set(f.key, [f]);
  }
  const stats: Record<string, FeedbackStat> = {};
  for (const [key, list] of byKey) {
    const scores = list.map((f) => f.score).filter((s): s is number => typeof s === 'number');
    const values: Record<string, number> = {};
    for (const f of list)
      if (typeof f.value === 'string') values[f.value] = (values[f.value] ?? 0) + 1;
    const avg = scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null;
    const sorted = [...scores].sort((a, b) => a - b);
    const mid = sorted.length / 2;
    stats[key] = {
      n: list.length,
      avg,
      stdev:
        avg === null
          ? null
          : Math.sqrt(scores.reduce((a, s) => a + (s - avg) ** 2, 0) / scores.length),
      min: sorted[0] ?? null,
      max: sorted.at(-1) ?? null,
      median: sorted.length
        ? sorted.length % 2
          ? sorted[Math.floor(mid)]!
          : (sorted[mid - 1]! + sorted[mid]!) / 2
        : null,
      errors: 0,
      values,
      type: 'PRIMARY',
      contains_thread_feedback: false,
    };
  }
  return stats;
}
