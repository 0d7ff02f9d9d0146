/**
 * What `skip-unchanged` and `interrupt-previous` save, each as a ratio measured in one run of
 * the real action (`node dist/index.js`) against the simulator, on the realistic deploy of
 * lag.ts time-scaled the same way (one nominal 290 s deploy ≈ 10 s of wall time).
 *
 * - Re-run: a full deploy (create, wait, health check) of a commit, then the same workflow
 *   again: wall time of the re-run's whole step vs the full deploy's at real speed (and, for
 *   information, vs the scaled replay as measured), and how many revisions the re-run created.
 * - Second push: a first revision is building when the second push's run starts (the
 *   simulator queues a new revision behind the one in progress, as the platform does); time
 *   from the second push (its PATCH) to its revision's DEPLOYED, with and without
 *   `interrupt-previous`, from the simulator's own record of the revision.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runAction } from '../scripts/run-action.js';
import {
  scaleTimeline,
  startSimulator,
  type Simulator,
  type TimelineStep,
} from '../simulator/index.js';
import { NOMINAL_DEPLOY_MS, realisticTimeline } from './lag.js';
import { mapConcurrent, seededRandom } from './stats.js';

const INTEGRATION_ID = '00000000-0000-4000-8000-0000000017e6';
const SHA = 'c0ffee0123456789abcdef0123456789abcdef01';
/** The action's default `poll-interval` and `timeout` (real seconds, scaled). */
const POLL_INTERVAL_S = 15;
const TIMEOUT_S = 1800;

export interface PushOptions {
  rounds: number;
  replayMs: number;
  seed: number;
  progress?: (line: string) => void;
}

export interface RerunRound {
  ok: boolean;
  error?: string;
  /** Wall time of the step (spawn → exit), as measured on the scaled replay. */
  fullMs: number;
  /**
   * The same full deploy at real speed: its revision's created → DEPLOYED span scaled back,
   * plus the rest of the step (start, lookup, checks, exit) as measured (that part does not
   * get longer with a slower deploy).
   */
  fullRealMs: number;
  rerunMs: number;
  /** Revisions the re-run created (goal: 0). */
  newRevisions: number;
  skippedBuild: boolean;
}

export interface RerunResults {
  scale: number;
  rounds: RerunRound[];
  wallMs: number;
}

function inputs(sim: Simulator, name: string, scale: number, extra: Record<string, string> = {}) {
  return {
    'api-key': sim.apiKey,
    'control-plane-url': sim.url,
    name,
    'integration-id': INTEGRATION_ID,
    'repo-ref': 'main',
    'poll-interval': String(POLL_INTERVAL_S * scale),
    timeout: String(TIMEOUT_S * scale),
    'pr-comment': 'false',
    ...extra,
  };
}

export async function benchRerun(options: PushOptions): Promise<RerunResults> {
  const started = performance.now();
  const scale = options.replayMs / NOMINAL_DEPLOY_MS;
  const random = seededRandom(options.seed + 3);
  const timelines = Array.from({ length: options.rounds }, () =>
    scaleTimeline(realisticTimeline(random), scale),
  );
  let done = 0;
  // One round at a time: the re-run's wall time is mostly Node's start, which load distorts.
  const rounds = await mapConcurrent(timelines, 1, async (timeline, i) => {
    const sim = await startSimulator({
      timeline,
      commitSha: SHA,
      rateLimit: { requests: 100_000, windowMs: 1000 },
    });
    try {
      const name = `bench-rerun-${i}`;
      const run = () =>
        runAction({
          inputs: inputs(sim, name, scale),
          sha: SHA,
          timeoutMs: TIMEOUT_S * scale * 1000 + 30_000,
        });
      const full = await run();
      const id = sim.deployments().find((d) => d.name === name)?.id;
      if (full.code !== 0 || !id) throw new Error(`the full deploy exited ${String(full.code)}`);
      const built = sim.revisions(id)[0]!;
      const spanMs = Date.parse(built.updated_at) - Date.parse(built.created_at);
      const before = sim.revisions(id).length;
      const rerun = await run();
      if (rerun.code !== 0) throw new Error(`the re-run exited ${String(rerun.code)}`);
      options.progress?.(`re-run: round ${++done}/${timelines.length} done`);
      return {
        ok: true,
        fullMs: full.elapsedMs,
        fullRealMs: spanMs / scale + (full.elapsedMs - spanMs),
        rerunMs: rerun.elapsedMs,
        newRevisions: sim.revisions(id).length - before,
        skippedBuild: rerun.outputs['skipped-build'] === 'true',
      };
    } catch (error) {
      return {
        ok: false,
        error: error instanceof Error ? error.message : String(error),
        fullMs: NaN,
        fullRealMs: NaN,
        rerunMs: NaN,
        newRevisions: NaN,
        skippedBuild: false,
      };
    } finally {
      await sim.close();
    }
  });
  return { scale, rounds, wallMs: performance.now() - started };
}

export interface SecondPushRound {
  ok: boolean;
  error?: string;
  /** Real (scaled-back) ms from the second PATCH to its revision's DEPLOYED. */
  toDeployedMs: number;
  /** Wall time of the second run's step, scaled back to real ms. */
  stepMs: number;
  /** Status of the first revision at the end. */
  firstStatus: string;
}

export interface SecondPushResults {
  scale: number;
  /** When the second push comes: real seconds after the first revision was created. */
  pushAfterS: number;
  interrupt: SecondPushRound[];
  queue: SecondPushRound[];
  wallMs: number;
}

/** The second push comes this long (real seconds) after the first: its revision is building. */
const SECOND_PUSH_AFTER_S = 60;

export async function benchSecondPush(options: PushOptions): Promise<SecondPushResults> {
  const started = performance.now();
  const scale = options.replayMs / NOMINAL_DEPLOY_MS;
  const random = seededRandom(options.seed + 4);
  const pairs = Array.from({ length: options.rounds }, () => [
    scaleTimeline(realisticTimeline(random), scale),
    scaleTimeline(realisticTimeline(random), scale),
  ]);
  const jobs = pairs.flatMap((pair, i) => [
    { pair, i, interrupt: true },
    { pair, i, interrupt: false },
  ]);
  let done = 0;
  const results = await mapConcurrent(jobs, jobs.length, async (job) => {
    const round = await secondPush(job.pair as [TimelineStep[], TimelineStep[]], job, scale);
    options.progress?.(`second push: ${++done}/${jobs.length} done`);
    return round;
  });
  return {
    scale,
    pushAfterS: SECOND_PUSH_AFTER_S,
    interrupt: results.filter((_, k) => jobs[k]!.interrupt),
    queue: results.filter((_, k) => !jobs[k]!.interrupt),
    wallMs: performance.now() - started,
  };
}

async function secondPush(
  [first, second]: [TimelineStep[], TimelineStep[]],
  job: { i: number; interrupt: boolean },
  scale: number,
): Promise<SecondPushRound> {
  const sim = await startSimulator({
    timeline: second,
    queueBehind: true,
    rateLimit: { requests: 100_000, windowMs: 1000 },
  });
  const failed = (error: unknown): SecondPushRound => ({
    ok: false,
    error: error instanceof Error ? error.message : String(error),
    toDeployedMs: NaN,
    stepMs: NaN,
    firstStatus: '',
  });
  try {
    sim.queueTimeline(first);
    sim.queueTimeline(second);
    const name = `bench-push-${job.i}-${job.interrupt ? 'interrupt' : 'queue'}`;
    // The first push: its run returns at once (wait: false); its revision starts building.
    const firstRun = await runAction({ inputs: inputs(sim, name, scale, { wait: 'false' }) });
    const id = sim.deployments().find((d) => d.name === name)?.id;
    if (firstRun.code !== 0 || !id) throw new Error('the first push failed');
    const firstCreated = Date.parse(sim.revisions(id)[0]!.created_at);
    await sleep(Math.max(0, firstCreated + SECOND_PUSH_AFTER_S * 1000 * scale - Date.now()));
    const firstRevisionId = sim.revisions(id)[0]!.id;

    const run = await runAction({
      inputs: inputs(sim, name, scale, {
        'interrupt-previous': String(job.interrupt),
        'health-check': 'false',
      }),
      timeoutMs: TIMEOUT_S * scale * 1000 + 30_000,
    });
    if (run.code !== 0) throw new Error(`the second push's run exited ${String(run.code)}`);
    const revisions = sim.revisions(id);
    const ours = revisions.find((r) => r.id === run.outputs['revision-id']);
    if (ours?.status !== 'DEPLOYED') throw new Error('the second revision is not DEPLOYED');
    return {
      ok: true,
      toDeployedMs: (Date.parse(ours.updated_at) - Date.parse(ours.created_at)) / scale,
      stepMs: run.elapsedMs / scale,
      firstStatus: revisions.find((r) => r.id === firstRevisionId)?.status ?? '?',
    };
  } catch (error) {
    return failed(error);
  } finally {
    await sim.close();
  }
}
