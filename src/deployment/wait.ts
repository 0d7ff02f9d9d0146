/**
 * Follows one revision (the one this run created, never "whatever is latest") until it is
 * DEPLOYED, failed or SKIPPED, within the run's deadline. The gaps between checks come from
 * `nextPollDelay` (poll-policy.ts); time comes from an injectable Clock.
 */
import type { ControlPlane } from '../api/client.js';
import type { Revision } from '../api/schemas.js';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../lib/errors.js';
import { historyFromRevisions, nextPollDelay, statusStartEstimate } from './poll-policy.js';
import { inert } from '../lib/untrusted.js';
import type { RunBasics } from '../lib/time.js';
import { endsWait, revisionStatus } from './revision-status.js';
import { errorMessage as describe, formatDuration } from '../lib/text.js';

/**
 * One status as this run observed it. Only the times of this run's own checks are known: when
 * a status really began or ended, and what happened between two checks, is not.
 */
export interface StatusChange {
  status: string;
  /** Clock time (ms; epoch ms with the system clock) of the check that first saw it. */
  at: number;
  /**
   * Time of the latest check that saw it. Updated in place by later checks, so a caller that
   * keeps the object (`onStatus`) always has the current value.
   */
  lastSeenAt: number;
}

export type WaitResult = Awaited<ReturnType<typeof waitForRevision>>;

export interface WaitOptions extends RunBasics {
  client: ControlPlane;
  deploymentId: string;
  revisionId: string;
  pollIntervalMs: number;
  onStatus?: (change: StatusChange) => void;
  /**
   * After every successful status check, with its status. Not awaited (it must not change
   * the timing of the checks): it starts its own work and returns.
   */
  onPoll?: (status: string) => void;
  /**
   * The revision as its create call answered it: stands in for the first status check (one
   * GET fewer per update).
   */
  initial?: Revision;
}

/**
 * While a revision is in progress, the longest silence: a line at least this often (a minute,
 * or four checks when polling faster), so a 10-minute build never looks hung.
 */
const PROGRESS_EVERY_MS = 60_000;
const PROGRESS_EVERY_CHECKS = 4;

/** Failed checks in a row after which the platform is taken to be down. */
const MAX_FAILED_POLLS = 10;

const NETWORK_CODE = new RegExp(
  '^(ECONNRESET|ECONNREFUSED|ECONNABORTED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH' +
    '|ENOTFOUND|UND_ERR.*)$',
);

/**
 * Whether a failed check may be retried: server-side and network trouble (an `ApiError`
 * without a status or with 5xx, 408 or 429; a reset, refused or timed-out connection; a
 * request whose outcome is unknown). A 4xx answer such as 401 or 404 will not change by asking
 * again.
 */
export function isTransientPollError(error: unknown): boolean {
  if (error instanceof CancelledError || error instanceof DeadlineError) return false;
  if (error instanceof ApiError) {
    const status = error.status;
    return status === undefined || status >= 500 || status === 408 || status === 429;
  }
  if (!(error instanceof Error)) return false;
  if (/OutcomeUnknown|Timeout|AbortError|FetchError|NetworkError/i.test(error.name)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODE.test(code)) return true;
  if (error.cause !== undefined && error.cause !== error) return isTransientPollError(error.cause);
  return error instanceof TypeError && /fetch failed|network|socket/i.test(error.message);
}

export async function waitForRevision(opts: WaitOptions) {
  const { client, deploymentId, revisionId, clock, deadline, signal, logger } = opts;
  const label = `Revision ${revisionId.length > 9 ? `${revisionId.slice(0, 8)}…` : revisionId}`;
  const ids = `revision ${revisionId} of deployment ${deploymentId}`;
  const start = clock.now();
  let current: StatusChange | undefined;
  let lastRevision: Revision | undefined;
  let lastMessage: string | undefined;
  let statusSince = start;
  let previousCheckAt = start;
  let pollCount = 0;
  let failuresInRow = 0;
  const progressEveryMs = Math.min(PROGRESS_EVERY_MS, PROGRESS_EVERY_CHECKS * opts.pollIntervalMs);
  let lastLineAt = start;
  /** A line of the wait's own: the time of the last one paces the progress lines. */
  const say = (line: string) => {
    logger.info(line);
    lastLineAt = clock.now();
  };

  const lastSeen = () =>
    current === undefined
      ? 'no status could be read yet'
      : `its last status was ${current.status} (first seen ${formatDuration(
          clock.now() - current.at,
        )} earlier, last seen ${formatDuration(clock.now() - current.lastSeenAt)} earlier)`;
  const cancelled = () =>
    new CancelledError(
      `The run was cancelled while waiting for ${ids}; ${lastSeen()}. The revision goes on ` +
        'on the platform: follow it in the LangSmith UI.',
    );
  const timedOut = () =>
    new DeadlineError(
      `Timed out waiting for ${ids}: ${lastSeen()}. The revision goes on on the platform; ` +
        'only this run stopped waiting. Follow it in the LangSmith UI, or raise the `timeout` ' +
        'input if deploys of this deployment take longer.',
    );

  /** Why the wait ends on a status that is not final: it stayed too long. */
  const heldTooLong = (status: string, now: number) =>
    logger.info(
      `${label} stayed ${inert(status, 80)} for ${formatDuration(now - (current?.at ?? now))}; ` +
        'the action stops waiting for it to go on.',
    );
  /** The caller's hooks: one that fails is only a debug line, never the end of the wait. */
  const callback = (what: string, call: () => void) => {
    try {
      call();
    } catch (error) {
      logger.debug(`The ${what} callback failed: ${describe(error)}`);
    }
  };

  // A status the wait gives up on after a while (INTERRUPTED) ends as its outcome at the
  // deadline too, so the failure names it rather than a timeout.
  const endAtDeadline = () => {
    const held = lastRevision;
    const outcome = held && endsWait(held.status, Infinity);
    if (!held || !outcome) throw timedOut();
    heldTooLong(held.status, clock.now());
    return { outcome, status: held.status, revision: held, pollCount };
  };

  // Earlier revisions tell how long a deploy usually takes here. Best effort, fetched
  // alongside the checks and never waited for: it only matters once DEPLOYING starts.
  let history: ReturnType<typeof historyFromRevisions>;
  void Promise.resolve()
    .then(() => client.listRevisions(deploymentId, { limit: 20 }))
    .then((list) => {
      history = historyFromRevisions(list.resources, revisionId);
      if (!history) return;
      logger.debug(
        `Earlier revisions of deployment ${deploymentId} took ` +
          `${formatDuration(history.typicalTotalMs)} (median of ${history.samples}); ` +
          'the status checks are timed accordingly.',
      );
    })
    .catch((error: unknown) =>
      logger.debug(`Could not read earlier revisions for the polling policy: ${describe(error)}`),
    );

  for (;;) {
    if (signal?.aborted) throw cancelled();
    pollCount++;
    let revision: Revision | undefined;
    try {
      revision =
        pollCount === 1 && opts.initial?.id === revisionId
          ? opts.initial
          : await abortable(client.getRevision(deploymentId, revisionId), signal);
      failuresInRow = 0;
    } catch (error) {
      if (signal?.aborted || error instanceof CancelledError) throw cancelled();
      if (error instanceof DeadlineError) return endAtDeadline();
      if (!isTransientPollError(error)) throw checkFailed(error, ids, current?.status);
      const rateLimited = error instanceof ApiError && error.status === 429;
      if (!rateLimited) failuresInRow++;
      if (failuresInRow >= MAX_FAILED_POLLS) {
        throw new ActionError(
          `${MAX_FAILED_POLLS} status checks of ${ids} failed in a row (last error: ` +
            `${describe(error)}): the platform seems to be down. ` +
            `${lastSeen().replace(/^./, (c) => c.toUpperCase())}; ` +
            'the revision may still go on on the platform. Check the LangSmith status page ' +
            'and UI, and re-run the workflow when the control plane answers again.',
          'Control plane unavailable',
        );
      }
      say(
        `Status check of ${label} failed (${describe(error)}); the action keeps waiting ` +
          (rateLimited
            ? '(rate limited).'
            : `(${failuresInRow} failed in a row; it gives up after ${MAX_FAILED_POLLS}).`),
      );
    }

    const now = clock.now();
    if (revision) {
      const { status } = revision;
      const changed = status !== current?.status;
      // The platform's message: with a new status, or as a line of its own when it changes.
      const message = revision.status_message ?? undefined;
      const said =
        message?.trim() && (changed || message !== lastMessage)
          ? ` — ${inert(message.trim(), 500)}`
          : '';
      lastMessage = message;
      if (changed) {
        // Only what was observed: the previous check's status and how long ago that check
        // was, never how long a status lasted (a check sees a moment).
        const previous = current
          ? ` (the previous check, ${formatDuration(now - current.lastSeenAt)} earlier, saw ${inert(current.status, 80)})`
          : '';
        const { note } = revisionStatus(status);
        say(`${label} status: ${inert(status, 80)}${previous}${note ? ` — ${note}` : ''}${said}`);
        statusSince = !current
          ? now
          : statusStartEstimate({ ...revision, waitStartedAt: start, previousCheckAt, now });
        const change: StatusChange = { status, at: now, lastSeenAt: now };
        current = change;
        callback('status', () => opts.onStatus?.(change));
      } else {
        if (current) current.lastSeenAt = now;
        if (said) say(`${label} status: ${inert(status, 80)}${said}`);
      }
      callback('poll', () => opts.onPoll?.(status));
      previousCheckAt = now;
      lastRevision = revision;
      const outcome = endsWait(status, now - (current?.at ?? now));
      if (outcome) {
        if (!revisionStatus(status).final) heldTooLong(status, now);
        return { outcome, status, revision, pollCount };
      }
    }

    if (deadline.passed()) return endAtDeadline();
    const status = current?.status ?? 'UNKNOWN';
    const delay = nextPollDelay({
      status,
      msInStatus: clock.now() - statusSince,
      history,
      pollIntervalMs: opts.pollIntervalMs,
    });
    // Never past the deadline: the last check happens right at it. A status that ends the
    // wait after a while (INTERRUPTED) is checked again right when that while is over.
    const { finalAfterMs } = revisionStatus(status);
    const untilGiveUp =
      finalAfterMs === undefined || !current ? Infinity : finalAfterMs - (clock.now() - current.at);
    const sleepMs = Math.max(
      0,
      Math.min(delay, deadline.remainingMs(), untilGiveUp, progressEveryMs),
    );
    // A sign of life now when the next check would come more than that long after the last line.
    if (current && clock.now() + sleepMs - lastLineAt > progressEveryMs) {
      say(`${label} still ${inert(status, 80)} (${formatDuration(clock.now() - statusSince)})`);
    }
    await clock.sleep(sleepMs, signal).catch((error: unknown) => {
      throw signal?.aborted ? cancelled() : error;
    });
  }
}

/** A check that will not succeed by asking again (401, 403, 404, …): ends the wait. */
function checkFailed(error: unknown, ids: string, lastStatus: string | undefined): Error {
  if (!(error instanceof ApiError))
    return error instanceof Error ? error : new Error(String(error));
  const hint =
    error.status === 404
      ? ' The deployment or the revision no longer exists: was it deleted meanwhile (another ' +
        'run, a pull-request cleanup, the UI)?'
      : '';
  const seen = lastStatus === undefined ? '' : ` Its last status was ${lastStatus}.`;
  return new ApiError(
    `Checking the status of ${ids} failed: ${error.message}${hint}${seen}`,
    error,
  );
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  promise.catch(() => undefined); // its failure after an abort is nobody's to handle
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, aborted]).finally(() =>
    signal.removeEventListener('abort', onAbort),
  );
}
