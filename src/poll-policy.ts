/**
 * How long to wait before the next status check of a revision. Pure: no clock, no I/O.
 *
 * A revision spends most of its life in phases whose end nobody waits for (QUEUED,
 * AWAITING_BUILD, BUILDING: minutes), then DEPLOYING, whose end is the moment the workflow
 * is waiting for. So the policy polls at the longest gap (`poll-interval`) through the long
 * phases, sparsely at the start of DEPLOYING (it rarely ends early), and densely from the
 * point where the end becomes likely, with gaps short enough (under 2 s at the default)
 * that success is noticed almost at once. Past the likely window it backs off again
 * gradually, never beyond `poll-interval` (no back-off that grows to minutes).
 *
 * Every duration is a fraction of `pollIntervalMs` (`poll-interval` 1.5 s makes the whole
 * policy ten times faster), except where the deployment's own history gives the time scale
 * of its DEPLOYING phase. Measured against a 290 s deploy (BUILDING 180 s and DEPLOYING
 * 90 s, each ±40 %) it needs about half the requests of a fixed 5 s poller and notices
 * DEPLOYED within about 1.3 s (median); `__tests__/poll-policy.test.ts` simulates it.
 */
import type { Revision } from './control-plane/schemas.js';

export interface PollState {
  status: string;
  /** Time since this status was first seen. */
  msInStatus: number;
  /** Time since the wait began (about when the revision was created). */
  msSinceStart: number;
  /** This status was seen for the first time at the check that just returned. */
  statusJustChanged: boolean;
  history?: DeployHistory;
  /** The longest gap, from the `poll-interval` input (default 15 s). */
  pollIntervalMs: number;
}

/** Learned from the deployment's earlier revisions (`created_at` → `updated_at`). */
export interface DeployHistory {
  typicalTotalMs: number;
  samples: number;
}

/** The default `poll-interval`: the durations below are written for it, then scaled. */
const REFERENCE_INTERVAL_MS = 15_000;
/** The deploy the prior below describes: created to DEPLOYED in about this long. */
const REFERENCE_TOTAL_MS = 290_000;
/**
 * What DEPLOYING usually takes at the reference scale: 50–130 s. Sparse until 60 s (few
 * deploys end sooner), medium gaps until 85 s (a third of them have ended by then), dense
 * until 130 s, then backing off.
 */
const DEPLOYING_SPARSE_UNTIL_MS = 60_000;
const DEPLOYING_DENSE_FROM_MS = 85_000;
const DEPLOYING_LIKELY_END_MS = 130_000;
/** Gaps, as fractions of the poll interval (15 s → 5 s, 1.5 s, 3 s, 1 s). */
const MEDIUM_GAP = 1 / 3;
const DENSE_GAP = 1 / 10;
const TRANSITION_GAP = 1 / 5;
const FLOOR_GAP = 1 / 15;
/** Past the likely window, each second of overrun adds 0.1 s to the gap. */
const OVERRUN_BACKOFF = 0.1;
/** History whose time scale differs from the poll interval's by more than this is ignored. */
const MAX_HISTORY_SCALE_RATIO = 6;
/** Durations of earlier revisions outside this range are not believable samples. */
const MIN_SAMPLE_MS = 1_000;
const MAX_SAMPLE_MS = 6 * 60 * 60 * 1000;

/** Short statuses right before the one whose end we time: check again soon. */
const TRANSITIONS = new Set(['AWAITING_DEPLOY']);

export function nextPollDelay(state: PollState): number {
  const maxGap =
    Number.isFinite(state.pollIntervalMs) && state.pollIntervalMs > 0
      ? state.pollIntervalMs
      : REFERENCE_INTERVAL_MS;
  const floor = maxGap * FLOOR_GAP;
  const bound = (ms: number) => Math.min(maxGap, Math.max(floor, ms));

  if (TRANSITIONS.has(state.status)) return bound(maxGap * TRANSITION_GAP);
  if (state.status !== 'DEPLOYING') return maxGap;

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
export function historyFromRevisions(
  revisions: Revision[],
  currentRevisionId: string,
): DeployHistory | undefined {
  const durations: number[] = [];
  for (const revision of revisions) {
    if (revision.id === currentRevisionId || revision.status !== 'DEPLOYED') continue;
    const ms = Date.parse(revision.updated_at) - Date.parse(revision.created_at);
    if (Number.isFinite(ms) && ms >= MIN_SAMPLE_MS && ms <= MAX_SAMPLE_MS) durations.push(ms);
  }
  if (durations.length === 0) return undefined;
  durations.sort((a, b) => a - b);
  const mid = durations.length >> 1;
  const typicalTotalMs =
    durations.length % 2 === 1
      ? (durations[mid] as number)
      : ((durations[mid - 1] as number) + (durations[mid] as number)) / 2;
  return { typicalTotalMs, samples: durations.length };
}
