/**
 * How tests, the demo and the bench set up and inspect the simulated LangSmith
 * (`sim.langsmith`): datasets with examples, splits and bound evaluators, earlier experiments
 * (a production baseline with its metadata and scores), a refused key, and what was stored.
 */
import { randomUUID } from 'node:crypto';
import type { SimEvaluator } from './evaluator.js';
import { validateEvaluators } from './evaluator.js';
import { countLangSmithRequests, type LangSmithApi, type LangSmithSettings } from './langsmith.js';
import { toMs, type LsExample, type LsRun } from './langsmith-store.js';
import { feedbackWire, runWire, sessionWire } from './langsmith-wire.js';
import type { RequestLogEntry } from './types.js';

type Json = Record<string, unknown>;

export interface SeedExample {
  id?: string;
  inputs: Json;
  outputs?: Json;
  metadata?: Json;
  /** The example's splits (LangSmith's `metadata.dataset_split`); default `['base']`. */
  splits?: string[];
}

export interface SeedDataset {
  name: string;
  id?: string;
  description?: string;
  examples?: SeedExample[];
  /** The evaluators bound to the dataset: they score each new experiment's root runs. */
  evaluators?: SimEvaluator[];
}

/** A score per feedback key: one for every example, one per example (null: none), or computed. */
export type SeedScores = Record<
  string,
  number | (number | null)[] | ((example: SeedExample, index: number) => number | null | undefined)
>;

export interface SeedExperiment {
  name: string;
  /** The dataset's name or ID. */
  dataset: string;
  /** `extra.metadata` of the session, e.g. `{langgraph_deploy_action: true, event: 'push'}`. */
  metadata?: Json;
  /** Default: now on the simulator's clock. */
  startTime?: string | number;
  /** One root run per example (these IDs only, when given), ended, with these scores. */
  examples?: string[];
  scores?: SeedScores;
  /** Outputs of the run for an example (default: the example's own outputs). */
  outputs?: (example: SeedExample, index: number) => Json;
}

export interface LangSmithControls {
  /** Mutable: evaluator delay, ingest delay, session order, a refused key. */
  readonly settings: LangSmithSettings;
  seedDataset(input: SeedDataset): { id: string; name: string; exampleIds: string[] };
  /** Replaces the evaluators bound to a dataset (name or ID). */
  setEvaluators(dataset: string, evaluators: SimEvaluator[]): void;
  seedExperiment(input: SeedExperiment): { id: string; name: string; runIds: string[] };
  /** Every LangSmith request answers 401 (or 403) until `acceptKey()`. */
  refuseKey(status?: 401 | 403): void;
  acceptKey(): void;
  /** Sessions as `GET /sessions?include_stats=true` answers them (newest first). */
  sessions(): ReturnType<typeof sessionWire>[];
  /** Runs of a session (name or ID) as `/runs/query` answers them, oldest first. */
  runs(session: string): ReturnType<typeof runWire>[];
  feedback(): ReturnType<typeof feedbackWire>[];
  /** LangSmith requests so far by route, e.g. `{'POST /api/v1/runs/query': 2}`. */
  requestCounts(): Record<string, number>;
}

export function langSmithControls(
  api: LangSmithApi,
  tenantId: () => string,
  requests: () => RequestLogEntry[],
): LangSmithControls {
  const store = api.store;
  const dataset = (idOrName: string) => {
    const found = store.dataset(idOrName);
    if (!found) throw new Error(`The simulator has no dataset ${idOrName}.`);
    return found;
  };
  const session = (idOrName: string) => {
    const found = store.sessions.get(idOrName) ?? store.sessionByName(idOrName);
    if (!found) throw new Error(`The simulator has no session ${idOrName}.`);
    return found;
  };
  return {
    settings: api.settings,
    seedDataset(input) {
      const d = store.addDataset(input);
      const ids = (input.examples ?? []).map((e) => store.addExample(d, e).id);
      return { id: d.id, name: d.name, exampleIds: ids };
    },
    setEvaluators(name, evaluators) {
      dataset(name).evaluators = validateEvaluators(evaluators);
    },
    seedExperiment(input) {
      const d = dataset(input.dataset);
      if (store.sessionByName(input.name)) throw new Error(`Session ${input.name} exists.`);
      const start = toMs(input.startTime) ?? store.now();
      const s = store.addSession({
        name: input.name,
        referenceDatasetId: d.id,
        extra: input.metadata ? { metadata: input.metadata } : {},
        startTime: start,
      });
      s.endTime = start + d.examples.length * 1000;
      const chosen = input.examples
        ? d.examples.filter((e) => input.examples!.includes(e.id))
        : d.examples;
      const runIds = chosen.map((example, i) => {
        const run = seededRun(s.id, example, start + i * 1000, input.outputs?.(example, i));
        store.runs.set(run.id, run);
        for (const [key, scores] of Object.entries(input.scores ?? {})) {
          const score =
            typeof scores === 'number'
              ? scores
              : Array.isArray(scores)
                ? scores[i]
                : scores(example, i);
          if (typeof score === 'number') {
            store.addFeedback(run, { key, score, source: { type: 'auto_eval' }, visibleAt: 0 });
          }
        }
        return run.id;
      });
      return { id: s.id, name: s.name, runIds };
    },
    refuseKey(status = 401) {
      api.settings.refuseKey = status;
    },
    acceptKey() {
      delete api.settings.refuseKey;
    },
    sessions() {
      return [...store.sessions.values()]
        .sort((a, b) => b.startTime - a.startTime)
        .map((s) => sessionWire(store, s, tenantId(), true));
    },
    runs(name) {
      const id = session(name).id;
      const feedback = store.visibleFeedback();
      return store
        .visibleRuns()
        .filter((r) => r.sessionId === id)
        .sort((a, b) => a.startTime - b.startTime)
        .map((r) => runWire(r, feedback, tenantId()));
    },
    feedback() {
      return store.visibleFeedback().map(feedbackWire);
    },
    requestCounts() {
      return countLangSmithRequests(requests());
    },
  };
}

function seededRun(sessionId: string, example: LsExample, at: number, outputs?: Json): LsRun {
  const id = randomUUID();
  return {
    id,
    sessionId,
    name: 'LangGraph',
    runType: 'chain',
    startTime: at,
    endTime: at + 500,
    inputs: example.inputs,
    outputs: outputs ?? example.outputs ?? {},
    traceId: id,
    referenceExampleId: example.id,
    // Already in LangSmith: seen by every read, whatever the clock.
    receivedAt: 0,
    endedAt: 0,
  };
}

/**
 * Seeds from JSON (`npm run sim -- --langsmith-seed FILE`): `{datasets: SeedDataset[],
 * experiments: SeedExperiment[]}` with declarative evaluators and scores only.
 */
export function seedFromJson(controls: LangSmithControls, text: string): void {
  const seed = JSON.parse(text) as { datasets?: unknown; experiments?: unknown };
  const list = (v: unknown, what: string) => {
    if (v === undefined) return [];
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'object' && x !== null)) {
      throw new Error(`"${what}" must be a list of objects.`);
    }
    return v as Json[];
  };
  for (const d of list(seed.datasets, 'datasets')) {
    if (typeof d.name !== 'string') throw new Error('Each dataset needs a "name".');
    controls.seedDataset(d as unknown as SeedDataset);
  }
  for (const e of list(seed.experiments, 'experiments')) {
    if (typeof e.name !== 'string' || typeof e.dataset !== 'string') {
      throw new Error('Each experiment needs a "name" and a "dataset".');
    }
    controls.seedExperiment(e as unknown as SeedExperiment);
  }
}
