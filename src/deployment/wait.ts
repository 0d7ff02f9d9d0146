/**
 * Follows one revision (the one this run created, never "whatever is latest") until it is
 * DEPLOYED, failed or SKIPPED, within the run's deadline. The gaps between checks come from
 * `nextPollDelay` (poll-policy.ts); time comes from an injectable Clock.
 */

import type { ControlPlane } from '../api/client.js';
import type { Revision } from '../api/schemas.js';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../lib/errors.js';
import {
  historyFromRevisions,
  nextPollDelay,
  statusStartEstimate,
  type DeployHistory,
} from './poll-policy.js';
import { inert, type Logger } from '../lib/untrusted.js';
import type { Clock, Deadline } from '../lib/time.js';
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

export interface WaitResult {
  outcome: 'deployed' | 'failed' | 'skipped';
  status: string;
  revision: Revision;
  timeline: StatusChange[];
  pollCount: number;
}

export interface WaitOptions {
  client: ControlPlane;
  deploymentId: string;
  revisionId: string;
  clock: Clock;
  deadline: Deadline;
  signal?: AbortSignal;
  logger: Logger;
  /** The longest gap between two checks (`poll-interval`). */
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
  /** Whether a failed check may be retried; default `isTransientPollError`. */
  isTransient?: (error: unknown) => boolean;
}

/** Failed checks in a row after which the platform is taken to be down. */
export const MAX_FAILED_POLLS = 10;

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * Default for `isTransient`: server-side and network trouble (an `ApiError` without a status
 * or with 5xx, 408 or 429; a reset, refused or timed-out connection; a request whose outcome
 * is unknown). A 4xx answer such as 401 or 404 will not change by asking again.
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
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('UND_ERR'))) {
    return true;
  }
  if (error.cause !== undefined && error.cause !== error) return isTransientPollError(error.cause);
  return error instanceof TypeError && /fetch failed|network|socket/i.test(error.message);
}

export async function waitForRevision(opts: WaitOptions): Promise<WaitResult> {
  const { client, deploymentId, revisionId, clock, deadline, signal, logger } = opts;
  const isTransient = opts.isTransient ?? isTransientPollError;
  const label = `Revision ${shortId(revisionId)}`;
  const ids = `revision ${revisionId} of deployment ${deploymentId}`;
  const start = clock.now();
  const timeline: StatusChange[] = [];
  let lastStatus: string | undefined;
  let lastMessage: string | undefined;
  let statusSince = start;
  let previousCheckAt = start;
  let pollCount = 0;
  let failuresInRow = 0;

  let current: StatusChange | undefined;
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

  // A status the wait gives up on after a while (INTERRUPTED) ends as its outcome at the
  // deadline too, so the failure names it rather than a timeout.
  let lastRevision: Revision | undefined;
  const endAtDeadline = (): WaitResult => {
    const held = lastRevision;
    const outcome =
      held && revisionStatus(held.status).finalAfterMs !== undefined
        ? outcomeOf(held.status, Infinity)
        : undefined;
    if (!held || !outcome) throw timedOut();
    logger.info(heldTooLong(label, held.status, clock.now(), current));
    return { outcome, status: held.status, revision: held, timeline, pollCount };
  };

  // Earlier revisions tell how long a deploy usually takes here. Best effort, fetched
  // alongside the checks and never waited for: it only matters once DEPLOYING starts.
  let history: DeployHistory | undefined;
  void Promise.resolve()
    .then(() => client.listRevisions(deploymentId, { limit: 20 }))
    .then(
      (list) => {
        history = historyFromRevisions(list.resources, revisionId);
        if (history) {
          logger.debug(
            `Earlier revisions of deployment ${deploymentId} took ` +
              `${formatDuration(history.typicalTotalMs)} (median of ${history.samples}); ` +
              'the status checks are timed accordingly.',
          );
        }
      },
      (error: unknown) => {
        logger.debug(`Could not read earlier revisions for the polling policy: ${describe(error)}`);
      },
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
      if (!isTransient(error)) throw checkFailed(error, ids, lastStatus);
      const rateLimited = error instanceof ApiError && error.status === 429;
      if (!rateLimited) failuresInRow++;
      if (failuresInRow >= MAX_FAILED_POLLS) {
        throw new ActionError(
          `${MAX_FAILED_POLLS} status checks of ${ids} failed in a row (last error: ` +
            `${describe(error)}): the platform seems to be down. ${capitalize(lastSeen())}; ` +
            'the revision may still go on on the platform. Check the LangSmith status page ' +
            'and UI, and re-run the workflow when the control plane answers again.',
          'Control plane unavailable',
        );
      }
      logger.info(
        `Status check of ${label} failed (${describe(error)}); the action keeps waiting ` +
          (rateLimited
            ? '(rate limited).'
            : `(${failuresInRow} failed in a row; it gives up after ${MAX_FAILED_POLLS}).`),
      );
    }

    const now = clock.now();
    let justChanged = false;
    if (revision) {
      const status = revision.status;
      if (status !== lastStatus) {
        const change: StatusChange = { status, at: now, lastSeenAt: now };
        timeline.push(change);
        logger.info(statusLine(label, status, current, now) + statusMessageOf(revision, undefined));
        lastMessage = revision.status_message ?? undefined;
        current = change;
        try {
          opts.onStatus?.(change);
        } catch (error) {
          logger.debug(`The status callback failed: ${describe(error)}`);
        }
        lastStatus = status;
        statusSince =
          timeline.length === 1
            ? now
            : statusStartEstimate({
                createdAt: revision.created_at,
                updatedAt: revision.updated_at,
                waitStartedAt: start,
                previousCheckAt,
                now,
              });
        justChanged = true;
      } else {
        if (current) current.lastSeenAt = now;
        if ((revision.status_message ?? undefined) !== lastMessage) {
          // The same status with a new message from the platform: worth a line of its own.
          const message = statusMessageOf(revision, lastMessage);
          lastMessage = revision.status_message ?? undefined;
          if (message) logger.info(`${label} status: ${inert(status, 80)}${message}`);
        }
      }
      try {
        opts.onPoll?.(status);
      } catch (error) {
        logger.debug(`The poll callback failed: ${describe(error)}`);
      }
      previousCheckAt = now;
      lastRevision = revision;
      const outcome = outcomeOf(status, now - (current?.at ?? now));
      if (outcome) {
        if (!revisionStatus(status).final) logger.info(heldTooLong(label, status, now, current));
        return { outcome, status, revision, timeline, pollCount };
      }
    }

    if (deadline.passed()) return endAtDeadline();
    const delay = nextPollDelay({
      status: lastStatus ?? 'UNKNOWN',
      msInStatus: clock.now() - statusSince,
      msSinceStart: clock.now() - start,
      statusJustChanged: justChanged,
      history,
      pollIntervalMs: opts.pollIntervalMs,
    });
    // Never past the deadline: the last check happens right at it. A status that ends the
    // wait after a while (INTERRUPTED) is checked again right when that while is over.
    const { finalAfterMs } = revisionStatus(lastStatus ?? 'UNKNOWN');
    const untilGiveUp =
      finalAfterMs === undefined || !current ? Infinity : finalAfterMs - (clock.now() - current.at);
    const sleepMs = Math.max(0, Math.min(delay, deadline.remainingMs(), untilGiveUp));
    try {
      await clock.sleep(sleepMs, signal);
    } catch (error) {
      if (signal?.aborted) throw cancelled();
      throw error;
    }
  }
}

function outcomeOf(status: string, msInStatus: number): WaitResult['outcome'] | undefined {
  const outcome = endsWait(status, msInStatus);
  if (outcome === undefined || outcome === 'in_progress') return undefined;
  return outcome === 'superseded' ? 'skipped' : outcome;
}

/** Why the wait ends on a status that is not final: it stayed too long. */
function heldTooLong(label: string, status: string, now: number, seen?: StatusChange): string {
  return (
    `${label} stayed ${inert(status, 80)} for ${formatDuration(now - (seen?.at ?? now))}; ` +
    'the action stops waiting for it to go on.'
  );
}

/**
 * The log line of a new status. It says only what was observed: the previous check's status
 * and how long ago that check was, never how long a status lasted (a check sees a moment).
 */
function statusLine(
  label: string,
  status: string,
  previous: StatusChange | undefined,
  now: number,
): string {
  let line = `${label} status: ${inert(status, 80)}`;
  if (previous !== undefined) {
    line += ` (the previous check, ${formatDuration(now - previous.lastSeenAt)} earlier, saw ${inert(previous.status, 80)})`;
  }
  const { note } = revisionStatus(status);
  if (note) line += ` — ${note}`;
  return line;
}

/**
 * ` — <status_message>` when the revision carries one (and it differs from `previous`):
 * untrusted text, neutralised and cut to one line.
 */
export function statusMessageOf(revision: Revision, previous: string | undefined): string {
  const message = revision.status_message;
  if (typeof message !== 'string' || message.trim() === '' || message === previous) return '';
  return ` — ${inert(message.trim(), 500)}`;
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
  return new ApiError(`Checking the status of ${ids} failed: ${error.message}${hint}${seen}`, {
    status: error.status,
    method: error.method,
    path: error.path,
    title: error.title,
  });
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      promise.catch(() => undefined);
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function shortId(id: string): string {
  return id.length > 9 ? `${id.slice(0, 8)}…` : id;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
