/**
 * How long to wait before the next status check of a revision. Pure: no clock, no I/O.
 *
 * A revision spends most of its life in phases whose end nobody waits for (QUEUED,
 * AWAITING_BUILD, BUILDING: minutes), then DEPLOYING, whose end is the moment the workflow
 * is waiting for. So the policy polls at the longest gap (`poll-interval`) through the long
 * phases and the start of DEPLOYING (it never ends that early), then at gaps short enough that
 * no end is noticed more than about 3 s late (3.3 s while an end is possible, 1.2 s once it is
 * likely, at the default). Past the likely window it backs off again gradually, never beyond
 * `poll-interval` (no back-off that grows to minutes). DEPLOYING is timed from when it began
 * (`statusStartEstimate`), not from when a check first saw it, which may be a whole gap later.
 *
 * Every duration is a fraction of `pollIntervalMs` (`poll-interval` 1.5 s makes the whole
 * policy ten times faster), except where the deployment's own history gives the time scale
 * of its DEPLOYING phase. `__tests__/poll-policy.test.ts` simulates it; bench/RESULTS.md
 * measures it against fixed pollers and says why its lag goals sit at their limit.
 */
import type { Revision } from '../api/schemas.js';
import { revisionStatus } from './revision-status.js';

export interface PollState {
  status: string;
  /** Time since this status began (`statusStartEstimate`). */
  msInStatus: number;
  history?: DeployHistory;
  /** The longest gap, from the `poll-interval` input (default 15 s). */
  pollIntervalMs: number;
}

/** Learned from the deployment's earlier revisions (`created_at` → `updated_at`). */
export type DeployHistory = NonNullable<ReturnType<typeof historyFromRevisions>>;

/** The default `poll-interval`: the durations below are written for it, then scaled. */
const REFERENCE_INTERVAL_MS = 15_000;
/** The deploy the prior below describes: created to DEPLOYED in about this long. */
const REFERENCE_TOTAL_MS = 290_000;
/**
 * What DEPLOYING takes at the reference scale: 54–126 s (90 s ±40 %). The first close check
 * lands at 57 s (an end at 54 s is seen within 3 s); medium gaps until 90 s (half of them have
 * ended by then), dense until 126 s, then backing off.
 */
const DEPLOYING_SPARSE_UNTIL_MS = 57_000;
const DEPLOYING_DENSE_FROM_MS = 90_000;
const DEPLOYING_LIKELY_END_MS = 126_000;
/** Gaps, as fractions of the poll interval (15 s → 3.3 s, 1.2 s, 1 s). */
const MEDIUM_GAP = 0.22;
const DENSE_GAP = 1.2 / 15;
const FLOOR_GAP = 1 / 15;
/** Past the likely window, each second of overrun adds 0.1 s to the gap. */
const OVERRUN_BACKOFF = 0.1;
/** History whose time scale differs from the poll interval's by more than this is ignored. */
const MAX_HISTORY_SCALE_RATIO = 6;
/** Durations of earlier revisions outside this range are not believable samples. */
const MIN_SAMPLE_MS = 1_000;
const MAX_SAMPLE_MS = 6 * 60 * 60 * 1000;

export function nextPollDelay(state: PollState): number {
  const maxGap =
    Number.isFinite(state.pollIntervalMs) && state.pollIntervalMs > 0
      ? state.pollIntervalMs
      : REFERENCE_INTERVAL_MS;
  const floor = maxGap * FLOOR_GAP;
  const bound = (ms: number) => Math.min(maxGap, Math.max(floor, ms));

  if (revisionStatus(state.status).phase !== 'deploying') return maxGap;

  const scale = timeScale(maxGap, state.history);
  const sparseUntil = DEPLOYING_SPARSE_UNTIL_MS * scale;
  const denseFrom = DEPLOYING_DENSE_FROM_MS * scale;
  const likelyEnd = DEPLOYING_LIKELY_END_MS * scale;
  const elapsed = Math.max(0, state.msInStatus);

  // Land on each boundary rather than overshooting it (unless it is under the floor away).
  if (sparseUntil - elapsed > floor) return bound(sparseUntil - elapsed);
  if (denseFrom - elapsed > floor) return bound(Math.min(maxGap * MEDIUM_GAP, denseFrom - elapsed));
  if (elapsed <= likelyEnd) return bound(maxGap * DENSE_GAP);
  return bound(maxGap * DENSE_GAP + (elapsed - likelyEnd) * OVERRUN_BACKOFF);
}

/**
 * When the status a check has just seen for the first time most likely began, on the wait's
 * clock: the revision's `updated_at` (when its status last changed, on the platform's clock)
 * measured from its `created_at`, counted from `waitStartedAt` (the wait begins right after
 * the call that created the revision), and kept between the previous check (the status was
 * not there yet) and this one. Without usable dates: this check (the old behaviour).
 */
export function statusStartEstimate(
  input: Pick<Revision, 'created_at' | 'updated_at'> & {
    waitStartedAt: number;
    previousCheckAt: number;
    now: number;
  },
): number {
  const sinceCreated = Date.parse(input.updated_at) - Date.parse(input.created_at);
  // A status that changed while updated_at stayed at created_at: the dates say nothing.
  if (!Number.isFinite(sinceCreated) || sinceCreated <= 0) return input.now;
  const lower = Math.min(input.previousCheckAt, input.now);
  return Math.min(input.now, Math.max(lower, input.waitStartedAt + sinceCreated));
}

/**
 * How much longer (or shorter) than the reference this deployment's phases are. From the
 * poll interval alone by default; from the history when it is consistent with it (a history
 * six times off the poll interval's scale is more likely a different setting, e.g. a
 * simulator, than a different deploy), weighted by how many samples it rests on.
 */
function timeScale(pollIntervalMs: number, history: DeployHistory | undefined): number {
  const fromInterval = pollIntervalMs / REFERENCE_INTERVAL_MS;
  if (!history || !(history.samples >= 1) || !(history.typicalTotalMs > 0)) return fromInterval;
  const fromHistory = history.typicalTotalMs / REFERENCE_TOTAL_MS;
  const ratio = fromHistory / fromInterval;
  if (ratio > MAX_HISTORY_SCALE_RATIO || ratio < 1 / MAX_HISTORY_SCALE_RATIO) return fromInterval;
  const weight = history.samples / (history.samples + 1);
  return fromInterval ** (1 - weight) * fromHistory ** weight;
}

/**
 * The typical created → DEPLOYED time of the deployment's earlier revisions: the median of
 * `updated_at - created_at` over those whose status is DEPLOYED (other than the current
 * one), ignoring unparsable dates and durations under 1 s or over 6 h.
 */
export function historyFromRevisions(revisions: Revision[], currentRevisionId: string) {
  const durations: number[] = [];
  for (const revision of revisions) {
    if (revision.id === currentRevisionId || revisionStatus(revision.status).outcome !== 'deployed')
      continue;
    const ms = Date.parse(revision.updated_at) - Date.parse(revision.created_at);
    if (Number.isFinite(ms) && ms >= MIN_SAMPLE_MS && ms <= MAX_SAMPLE_MS) durations.push(ms);
  }
  if (durations.length === 0) return undefined;
  durations.sort((a, b) => a - b);
  // The middle one, or the mean of the two middle ones.
  const [low, high] = [(durations.length - 1) >> 1, durations.length >> 1];
  return { typicalTotalMs: (durations[low]! + durations[high]!) / 2, samples: durations.length };
}
