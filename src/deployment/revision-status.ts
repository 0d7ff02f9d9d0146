/**
 * How the action treats each revision status: the one table. To change what a status means
 * (is it final? a failure? which log explains it? how is it polled? what does the summary
 * call it?), change its row here: every reader of a status reads it. The statuses are the
 * ones the control plane's OpenAPI description lists; a status it adds later is treated as still
 * in progress (`UNKNOWN_STATUS`).
 * The simulator keeps its own list on purpose: it plays the platform, not the action.
 */

/**
 * What a status means for this run's revision: `skipped`, a newer revision superseded it;
 * `in_progress`, work still going on (not INTERRUPTED: nothing works on it unless someone
 * resumes it).
 */
export type RevisionOutcome = 'deployed' | 'failed' | 'skipped' | 'in_progress';

/**
 * Where the revision is, for the polling and the build-log stream: before the build, building
 * (its log streams live), deploying (the phase whose end the poll policy watches closely), or
 * done.
 */
export type PollPhase = 'queued' | 'building' | 'deploying' | 'done';

export interface RevisionStatusRule {
  outcome: RevisionOutcome;
  /** Whether the status will not change any more (the wait ends on it). */
  final: boolean;
  /**
   * For a status that is not final but may never change: after this long in it (as this run
   * saw it), the wait ends with `outcome` anyway.
   */
  finalAfterMs?: number;
  /** Which log explains a failure in this status, if any: the build's or the deploy's. */
  log?: 'build' | 'deploy' | undefined;
  phase: PollPhase;
  /** What the status means, in words (logs, summary). */
  summary: string;
  /** Said after the status in the log line that shows it, when set. */
  note?: string;
}

const inProgress = (phase: PollPhase, summary: string): RevisionStatusRule => ({
  outcome: 'in_progress',
  final: false,
  phase,
  summary,
});

const done = (
  outcome: RevisionOutcome,
  summary: string,
  log?: 'build' | 'deploy',
): RevisionStatusRule => ({ outcome, final: true, log, phase: 'done', summary });

export const REVISION_STATUS = {
  CREATING: inProgress('queued', 'being created'),
  QUEUED: inProgress('queued', 'queued for a build'),
  AWAITING_BUILD: inProgress('building', 'waiting for a builder'),
  BUILDING: inProgress('building', 'building'),
  AWAITING_DEPLOY: inProgress('queued', 'built, waiting to deploy'),
  DEPLOYING: inProgress('deploying', 'deploying'),
  CREATE_FAILED: done('failed', 'could not be created', 'build'),
  BUILD_FAILED: done('failed', 'failed to build', 'build'),
  DEPLOY_FAILED: done('failed', 'failed to deploy', 'deploy'),
  // A person or a newer run stopped it. Not final: both official tools (the Terraform provider,
  // the `langgraph deploy` CLI) keep following it, since it "can still progress"; one that
  // stays INTERRUPTED for `finalAfterMs` ends the wait as a failure. No log explains it.
  INTERRUPTED: {
    ...done('failed', 'interrupted before it was deployed'),
    final: false,
    phase: 'queued',
    finalAfterMs: 5 * 60_000,
    note: 'not a final status; the action keeps waiting up to 5 minutes for it to go on',
  },
  DEPLOYED: done('deployed', 'deployed'),
  SKIPPED: done('skipped', 'superseded by a newer one'),
  UNKNOWN: {
    ...inProgress('queued', 'in a state the platform calls UNKNOWN'),
    note: 'not a final status; the action keeps waiting',
  },
} as const satisfies Record<string, RevisionStatusRule>;

export const UNKNOWN_STATUS: RevisionStatusRule = {
  ...inProgress('queued', 'in a state this action does not know'),
  note: 'not a status this action knows; it is taken as still in progress and the action keeps waiting',
};

/**
 * What the wait makes of a status seen for `msInStatus`: an outcome when the wait ends on it
 * (a final status, or one held past its `finalAfterMs`), else `undefined` (keep waiting).
 */
export function endsWait(status: string, msInStatus: number) {
  const rule = revisionStatus(status);
  const ends = rule.final || (rule.finalAfterMs !== undefined && msInStatus >= rule.finalAfterMs);
  return ends && rule.outcome !== 'in_progress' ? rule.outcome : undefined;
}

/** The row of a status; a status the table does not know is in progress. */
export function revisionStatus(status: string): RevisionStatusRule {
  return Object.hasOwn(REVISION_STATUS, status)
    ? REVISION_STATUS[status as keyof typeof REVISION_STATUS]
    : UNKNOWN_STATUS;
}
