/**
 * What one run reports to GitHub: the step summary, the pull-request comment and the GitHub
 * deployment are all rendered from this one record, which the flow fills in as it goes.
 */
import type { StatusChange } from '../deployment/wait.js';
import type { Command } from '../inputs/config.js';
import type { Finding } from '../preflight/document.js';
import type { CaseVerdict } from '../verify/conversation-tests.js';
import type { EvaluationReport } from '../verify/eval/index.js';
import type { Checks } from '../verify/index.js';

/**
 * `skipped`: the revision was superseded by a newer one (`SKIPPED`); `deleted`, `not_found`:
 * `command: delete` removed the deployment, or found nothing to remove; `started`: `wait: false`,
 * the create/update call returned and the run did not wait.
 */
export type RunOutcome =
  'success' | 'failure' | 'skipped' | 'cancelled' | 'deleted' | 'not_found' | 'started';

export type RunSource =
  | { kind: 'github'; repoUrl?: string; repoRef?: string }
  | { kind: 'external_docker' | 'internal_docker'; imageUri?: string }
  | { kind: 'upload'; digest?: string };

/**
 * A status as this run's checks saw it (`StatusChange`); without `lastSeenAt` when only one
 * check saw it. The reports never show how long a status lasted, only when the checks saw it.
 */
export type TimelineEntry = Omit<StatusChange, 'lastSeenAt'> & Partial<StatusChange>;

export interface RunReport {
  command: Command;
  outcome: RunOutcome;
  name?: string;
  deploymentId?: string;
  revisionId?: string;
  /** Final revision status (`DEPLOYED`, `BUILD_FAILED`, …); with delete `DELETED`/`NOT_FOUND`. */
  status?: string;
  /** The revision's `status_message`, when the platform sent one. Untrusted: escaped on output. */
  statusMessage?: string;
  /** Agent server URL. */
  url?: string;
  /** The deployment's page in the LangSmith UI. */
  uiUrl?: string;
  created?: boolean;
  source?: RunSource;
  /** The statuses this run's checks saw, in the order they were first seen. */
  timeline: TimelineEntry[];
  /** When the run started and ended (epoch ms); the end closes the last timeline entry. */
  startedAt?: number;
  finishedAt?: number;
  /** The run stopped at `timeout`: the wait ended, not the revision (it goes on). */
  timedOut?: boolean;
  /** The failure, already written for the workflow's author. Untrusted: escaped on output. */
  error?: string;
  /** Last lines of the build or deploy log (oldest first). Untrusted: fenced on output. */
  logTail?: string[];
  logKind?: 'build' | 'deploy';
  /** Shown instead of a log tail when the install offers no logs (e.g. "see ui-url"). */
  logsUnavailableHint?: string;
  checks?: Checks & { evaluation?: 'passed' | 'failed' };
  /** The evaluation on `eval-dataset` (keys, names and errors are untrusted: escaped). */
  evaluation?: EvaluationReport;
  /** Conversation tests, one entry per case. Names, reasons and replies are untrusted. */
  tests?: CaseVerdict[];
  /** The commit the revision was built from, when the platform reports it. */
  commitSha?: string;
  /** With `delete`: whether the tracing project was deleted too. */
  deletedTracingProject?: boolean;
  /** The pre-flight errors that stopped the run (each also an annotation). Escaped on output. */
  preflightErrors?: Omit<Finding, 'level'>[];
  /** Warnings of the run worth repeating in the summary. Untrusted: escaped on output. */
  warnings?: string[];
  /** `command: rollback`, or `rollback-on-failure` after failed checks. */
  rollback?: RollbackReport;
}

/**
 * An earlier revision served again (`POST …/revisions/{rev}/redeploy`). Its `revisionId` (once
 * known), `status`, `health` and `timeline` are those of the revision the redeploy created.
 */
export interface RollbackReport extends Pick<RunReport, 'revisionId' | 'status' | 'timeline'> {
  /** The revision that was live when the rollback started (the failed one, after checks). */
  from?: string;
  /** The revision served again. */
  to: string;
  /** Why: the failed check, or "requested" for `command: rollback`. Untrusted: escaped. */
  reason: string;
  /** `restored`: the new revision is DEPLOYED (and healthy when checked). */
  outcome: 'restored' | 'failed' | 'started' | 'not_needed';
  health?: NonNullable<RunReport['checks']>['health'];
}
