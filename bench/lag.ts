/**
 * Detection lag and request count: a realistic 290 s deploy replayed against the simulator,
 * time-scaled so one replay takes about 10 s, followed by the real action (`node
 * dist/index.js`, `poll-interval` scaled the same way) and, in the same simulator at the same
 * time, by fixed-interval pollers (3 s, 5 s and 60 s, scaled) on their own deployments.
 *
 * Lag = first status request (GET …/revisions/<id>, in the simulator's request log) at or after
 * the moment the revision became DEPLOYED, minus that moment (its creation time plus the
 * durations of its timeline before DEPLOYED). Lags and intervals are reported scaled back to
 * real seconds; the time from that request to the action's exit is not scaled (the work after
 * detection does not get longer with a slower deploy).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runAction } from '../scripts/run-action.js';
import {
  scaleTimeline,
  startSimulator,
  type Simulator,
  type TimelineStep,
} from '../simulator/index.js';
import type { Revision } from '../src/api/schemas.js';
import {
  historyFromRevisions,
  nextPollDelay,
  statusStartEstimate,
  type PollState,
} from '../src/deployment/poll-policy.js';
import { mapConcurrent, seededRandom } from './stats.js';

/** The realistic deploy: 290 s in all; the two long phases vary by ±40 % from one to the next. */
export const PHASES: readonly { status: string; seconds: number; varies: boolean }[] = [
  { status: 'QUEUED', seconds: 10, varies: false },
  { status: 'AWAITING_BUILD', seconds: 5, varies: false },
  { status: 'BUILDING', seconds: 180, varies: true },
  { status: 'AWAITING_DEPLOY', seconds: 5, varies: false },
  { status: 'DEPLOYING', seconds: 90, varies: true },
];
export const NOMINAL_DEPLOY_MS = PHASES.reduce((sum, p) => sum + p.seconds * 1000, 0);
const VARIATION = 0.4;

/** The action's default `poll-interval` and `timeout`, in real seconds (both scaled). */
const POLL_INTERVAL_S = 15;
const TIMEOUT_S = 1800;
/** The fixed-interval pollers the policy is compared with, in real seconds. */
export const FIXED_INTERVALS_S = [3, 5, 60] as const;
/** Earlier DEPLOYED revisions seeded for the "with history" configuration. */
const EARLIER_REVISIONS = 5;
/** What the action's default `repo-url` is under scripts/run-action.ts (acme/agent). */
const REPO_URL = 'https://github.com/acme/agent';
const INTEGRATION_ID = '00000000-0000-4000-8000-0000000017e6';

/** One deploy's timeline in real milliseconds, ending in DEPLOYED. */
export function realisticTimeline(random: () => number): TimelineStep[] {
  const steps = PHASES.map((p) => {
    const factor = p.varies ? 1 - VARIATION + 2 * VARIATION * random() : 1;
    return { status: p.status, durationMs: Math.round(p.seconds * 1000 * factor) };
  });
  return [...steps, { status: 'DEPLOYED', durationMs: 0 }];
}

/** Milliseconds from the revision's start to DEPLOYED. */
export function msUntilDeployed(steps: readonly TimelineStep[]): number {
  let ms = 0;
  for (const step of steps) {
    if (step.status === 'DEPLOYED') return ms;
    ms += step.durationMs;
  }
  throw new Error('The timeline never reaches DEPLOYED.');
}

export interface LagOptions {
  /** Replays per configuration (with and without earlier revisions). */
  replays: number;
  /** Replays running at once. */
  concurrency: number;
  /** Target wall time of one (nominal) replay. */
  replayMs: number;
  seed: number;
  progress?: (line: string) => void;
}

/** What one poller saw in one replay. Lags are in real (scaled-back) milliseconds. */
export interface Observation {
  ok: boolean;
  lagMs: number;
  statusRequests: number;
  /** Every request of this poller (the action's lookup, update, history… included). */
  allRequests: number;
  /** Our action only: first request that saw DEPLOYED → process exit, unscaled. */
  detectToExitMs?: number;
  error?: string;
}

export interface PollerResults {
  label: string;
  /** Real seconds; undefined for our policy. */
  intervalS?: number;
  observations: Observation[];
}

export interface ConfigResults {
  history: boolean;
  ours: PollerResults;
  fixed: PollerResults[];
}

export interface LagResults {
  scale: number;
  replays: number;
  pollIntervalS: number;
  configs: ConfigResults[];
  /** Real length of each replay's DEPLOYING phase (index = replay, same in every config). */
  deployingMs: number[];
  wallMs: number;
}

export async function benchLag(options: LagOptions): Promise<LagResults> {
  const started = performance.now();
  const scale = options.replayMs / NOMINAL_DEPLOY_MS;
  const random = seededRandom(options.seed);
  const timelines = Array.from({ length: options.replays }, () => realisticTimeline(random));
  // A separate stream, so the replays' timelines do not depend on how much history is drawn.
  const historyRandom = seededRandom(options.seed + 1);
  const histories = timelines.map(() =>
    Array.from({ length: EARLIER_REVISIONS }, () =>
      msUntilDeployed(realisticTimeline(historyRandom)),
    ),
  );

  const configs: ConfigResults[] = [];
  for (const history of [false, true]) {
    const label = history ? 'with earlier revisions' : 'without earlier revisions';
    let done = 0;
    const replays = await mapConcurrent(timelines, options.concurrency, async (timeline, i) => {
      const result = await replay({
        timeline,
        scale,
        earlierSpansMs: history ? histories[i]! : undefined,
        tag: `${history ? 'h' : 'n'}${i}`,
      });
      options.progress?.(`lag ${label}: replay ${++done}/${timelines.length} done`);
      return result;
    });
    configs.push({
      history,
      ours: {
        label: `our policy (poll-interval ${POLL_INTERVAL_S} s)`,
        observations: replays.map((r) => r.ours),
      },
      fixed: FIXED_INTERVALS_S.map((intervalS, k) => ({
        label: `fixed ${intervalS} s`,
        intervalS,
        observations: replays.map((r) => r.fixed[k]!),
      })),
    });
  }
  return {
    scale,
    replays: options.replays,
    pollIntervalS: POLL_INTERVAL_S,
    configs,
    deployingMs: timelines.map((t) => t.find((step) => step.status === 'DEPLOYING')!.durationMs),
    wallMs: performance.now() - started,
  };
}

interface ReplayInput {
  /** Real milliseconds. */
  timeline: TimelineStep[];
  scale: number;
  /** Created → DEPLOYED spans of the earlier revisions (real ms); undefined: no history. */
  earlierSpansMs?: number[];
  /** Makes the deployment names of a replay unique and recognisable. */
  tag: string;
}

/** One replay: its own simulator, our action and the fixed pollers side by side. */
async function replay(input: ReplayInput): Promise<{ ours: Observation; fixed: Observation[] }> {
  const { scale } = input;
  const timeline = scaleTimeline(input.timeline, scale);
  const sim = await startSimulator({
    timeline,
    // One simulator per replay; the limit is not what this part measures.
    rateLimit: { requests: 100_000, windowMs: 1000 },
  });
  try {
    // The fixed pollers' deployments first, so that every other request is the action's.
    const fixedTargets: Target[] = [];
    for (const intervalS of FIXED_INTERVALS_S) {
      fixedTargets.push(await createDeployment(sim, `bench-fixed-${intervalS}s-${input.tag}`));
    }
    const setupRequests = sim.requests.length;

    const name = `bench-ours-${input.tag}`;
    if (input.earlierSpansMs) seedHistory(sim, name, input.earlierSpansMs, scale);

    const [ours, ...fixed] = await Promise.all([
      runOurs(sim, name, scale, timeline),
      ...FIXED_INTERVALS_S.map(async (intervalS, k) => {
        const target = fixedTargets[k]!;
        try {
          await pollFixed(sim, target, intervalS * 1000 * scale);
        } catch (error) {
          return failed(error);
        }
        const { seenAt: _, ...observation } = observe(sim, target, timeline, scale);
        return observation;
      }),
    ]);
    if (ours.ok) {
      const fixedIds = fixedTargets.map((t) => t.deploymentId);
      ours.allRequests = sim.requests
        .slice(setupRequests)
        .filter((r) => !fixedIds.some((id) => r.path.includes(id))).length;
    }
    return { ours, fixed: fixed as Observation[] };
  } finally {
    await sim.close();
  }
}

interface Target {
  deploymentId: string;
  revisionId: string;
}

async function createDeployment(sim: Simulator, name: string): Promise<Target> {
  const response = await fetch(`${sim.url}/v2/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
    body: JSON.stringify({
      name,
      source: 'github',
      source_config: {
        integration_id: INTEGRATION_ID,
        repo_url: REPO_URL,
        deployment_type: 'dev',
        build_on_push: false,
      },
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
      secrets: [],
    }),
  });
  if (response.status !== 201) {
    throw new Error(`The simulator refused to create ${name}: HTTP ${response.status}.`);
  }
  const body = (await response.json()) as { id: string; latest_revision_id: string };
  return { deploymentId: body.id, revisionId: body.latest_revision_id };
}

/** Earlier DEPLOYED revisions whose created → updated spans are the given ones, scaled. */
function seedHistory(sim: Simulator, name: string, spansMs: number[], scale: number): void {
  const now = Date.now();
  const gap = 2 * Math.max(...spansMs) * scale;
  sim.seedDeployment({
    name,
    repoUrl: REPO_URL,
    revisions: spansMs.map((span, i) => {
      const createdAt = now - (spansMs.length - i) * gap;
      return {
        status: 'DEPLOYED',
        createdAt: new Date(createdAt).toISOString(),
        updatedAt: new Date(createdAt + Math.round(span * scale)).toISOString(),
      };
    }),
  });
}

const FINAL_STATUSES = ['DEPLOYED', 'CREATE_FAILED', 'BUILD_FAILED', 'DEPLOY_FAILED', 'SKIPPED'];

/**
 * A simple loop: GET the revision every `intervalMs` until it is in a final status. The
 * checks keep to a fixed schedule (one every interval from the first), so that the time a
 * request takes, multiplied by the time scale, does not stretch the interval.
 */
async function pollFixed(sim: Simulator, target: Target, intervalMs: number): Promise<void> {
  const url = `${sim.url}/v2/deployments/${target.deploymentId}/revisions/${target.revisionId}`;
  const start = Date.now();
  const deadline = start + 120_000;
  for (let check = 1; ; check++) {
    const response = await fetch(url, { headers: { 'x-api-key': sim.apiKey } });
    if (response.ok) {
      const { status } = (await response.json()) as { status: string };
      if (FINAL_STATUSES.includes(status)) return;
    } else {
      await response.body?.cancel();
    }
    if (Date.now() > deadline) throw new Error('The revision did not end within 120 s.');
    await sleep(Math.max(0, start + check * intervalMs - Date.now()));
  }
}

async function runOurs(
  sim: Simulator,
  name: string,
  scale: number,
  timeline: TimelineStep[],
): Promise<Observation> {
  let result;
  try {
    result = await runAction({
      inputs: {
        'api-key': sim.apiKey,
        'control-plane-url': sim.url,
        name,
        'integration-id': INTEGRATION_ID,
        'repo-ref': 'main',
        'poll-interval': String(POLL_INTERVAL_S * scale),
        timeout: String(TIMEOUT_S * scale),
        'health-check': 'false',
        'pr-comment': 'false',
      },
      timeoutMs: TIMEOUT_S * scale * 1000 + 30_000,
    });
  } catch (error) {
    return failed(error);
  }
  const exitedAt = Date.now();
  const deploymentId =
    result.outputs['deployment-id'] ?? sim.deployments().find((d) => d.name === name)?.id;
  const revisionId = result.outputs['revision-id'];
  if (result.code !== 0 || !deploymentId || !revisionId) {
    const firstError = result.annotations.find((a) => a.kind === 'error')?.message;
    return failed(
      new Error(
        `exit code ${String(result.code)}` +
          (firstError ? `: ${firstError}` : revisionId ? '' : ' (no revision-id output)'),
      ),
    );
  }
  const { seenAt, ...observation } = observe(sim, { deploymentId, revisionId }, timeline, scale);
  if (seenAt !== undefined) observation.detectToExitMs = exitedAt - seenAt;
  return observation;
}

function failed(error: unknown): Observation {
  return {
    ok: false,
    lagMs: NaN,
    statusRequests: NaN,
    allRequests: NaN,
    error: error instanceof Error ? error.message.split('\n')[0] : String(error),
  };
}

/** Lag and request count of one revision, from the simulator's request log. */
function observe(
  sim: Simulator,
  target: Target,
  timeline: readonly TimelineStep[],
  scale: number,
): Observation & { seenAt?: number } {
  const path = `/v2/deployments/${target.deploymentId}/revisions/${target.revisionId}`;
  const checks = sim.requests.filter((r) => r.method === 'GET' && r.path === path);
  // `created_at` is the time of the create (POST) or update (PATCH) that made the revision,
  // which is also when its timeline starts.
  const revision = sim.revisions(target.deploymentId).find((r) => r.id === target.revisionId);
  if (!revision) return failed(new Error(`revision ${target.revisionId} not found`));
  const deployedAt = Date.parse(revision.created_at) + msUntilDeployed(timeline);
  const answered = checks.filter((r) => r.status === 200);
  // A check that arrived a fraction of a millisecond before DEPLOYED may still have seen it
  // (the status is computed once the request is read); the poller stopped after it, so it is
  // the detecting one when no check came later.
  const seen = answered.find((r) => r.at >= deployedAt) ?? answered.at(-1);
  if (!seen) return failed(new Error(`no answered status check of ${target.revisionId}`));
  return {
    ok: true,
    lagMs: Math.max(0, seen.at - deployedAt) / scale,
    statusRequests: checks.length,
    allRequests: checks.length + 1,
    seenAt: seen.at,
  };
}

/** What one poller would see on one replay in the model (real ms). */
export interface ModelObservation {
  lagMs: number;
  statusRequests: number;
}

export interface LagModel {
  /** Per history setting (false, true): our policy and the fixed pollers, per replay. */
  configs: { history: boolean; ours: ModelObservation[]; fixed: ModelObservation[][] }[];
}

/**
 * The same replays (same seed, same timelines, same earlier revisions) through a model of the
 * wait loop instead of processes and HTTP: no request takes time and no timer fires late, so
 * this is what the policy itself allows, independent of the machine's load. A new status is
 * timed from its start as the simulator's `updated_at` tells it (as the action does).
 */
export function modelLag(options: { replays: number; seed: number }): LagModel {
  const random = seededRandom(options.seed);
  const timelines = Array.from({ length: options.replays }, () => realisticTimeline(random));
  const historyRandom = seededRandom(options.seed + 1);
  const histories = timelines.map(() =>
    Array.from({ length: EARLIER_REVISIONS }, () =>
      msUntilDeployed(realisticTimeline(historyRandom)),
    ),
  );
  const interval = POLL_INTERVAL_S * 1000;
  return {
    configs: [false, true].map((history) => ({
      history,
      ours: timelines.map((timeline, i) => {
        const spans = histories[i]!;
        const earlier: Revision[] = spans.map((span, k) => ({
          id: `old-${k}`,
          status: 'DEPLOYED',
          created_at: new Date(k * 3_600_000).toISOString(),
          updated_at: new Date(k * 3_600_000 + span).toISOString(),
          source: 'github',
          source_revision_config: {},
        }));
        const deployHistory = history ? historyFromRevisions(earlier, 'current') : undefined;
        return modelOne(timeline, (state) =>
          nextPollDelay({ ...state, pollIntervalMs: interval, history: deployHistory }),
        );
      }),
      fixed: FIXED_INTERVALS_S.map((s) =>
        timelines.map((timeline) => modelOne(timeline, () => s * 1000, false)),
      ),
    })),
  };
}

function modelOne(
  timeline: readonly TimelineStep[],
  delay: (state: Omit<PollState, 'pollIntervalMs'>) => number,
  dated = true,
): ModelObservation {
  const starts: { status: string; at: number }[] = [];
  let at = 0;
  for (const step of timeline) {
    starts.push({ status: step.status, at });
    at += step.durationMs;
  }
  const statusAt = (t: number) => [...starts].reverse().find((s) => t >= s.at)!;
  const deployedAt = msUntilDeployed(timeline);
  const iso = (ms: number) => new Date(ms).toISOString();
  let t = 0;
  let requests = 0;
  let last: string | undefined;
  let since = 0;
  let previous = 0;
  for (;;) {
    requests++;
    const { status, at: began } = statusAt(t);
    if (status === 'DEPLOYED') return { lagMs: t - deployedAt, statusRequests: requests };
    const changed = status !== last;
    if (changed) {
      since =
        last === undefined || !dated
          ? t
          : statusStartEstimate({
              created_at: iso(0),
              updated_at: iso(began),
              waitStartedAt: 0,
              previousCheckAt: previous,
              now: t,
            });
      last = status;
    }
    previous = t;
    t += delay({ status, msInStatus: t - since });
    if (requests > 10_000) throw new Error('The model never reached DEPLOYED.');
  }
}
