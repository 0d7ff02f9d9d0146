/**
 * Revisions move along a timeline in real time. Nothing runs in the background: the status is
 * computed from the revision's start time each time it is read.
 */
import type { SourceRevisionConfig, TimelineStep, RevisionAgent } from './types.js';

export const DEFAULT_TIMELINE: readonly TimelineStep[] = [
  { status: 'QUEUED', durationMs: 300 },
  { status: 'AWAITING_BUILD', durationMs: 300 },
  { status: 'BUILDING', durationMs: 600 },
  { status: 'AWAITING_DEPLOY', durationMs: 300 },
  { status: 'DEPLOYING', durationMs: 600 },
  { status: 'DEPLOYED', durationMs: 0 },
];

/** Statuses a revision never leaves (the spec's success, failures and superseded). */
export const TERMINAL_STATUSES = new Set([
  'DEPLOYED',
  'CREATE_FAILED',
  'BUILD_FAILED',
  'DEPLOY_FAILED',
  'SKIPPED',
  'INTERRUPTED',
]);

/** `status_message` of a status when its timeline step gives none. */
export const DEFAULT_STATUS_MESSAGES: Readonly<Record<string, string>> = {
  CREATE_FAILED: 'Failed to create the revision: see the build logs.',
  BUILD_FAILED: 'Image build failed: see the build logs.',
  DEPLOY_FAILED: 'The agent server did not become healthy: see the deploy logs.',
  INTERRUPTED: 'Interrupted by a user.',
};

export interface RevisionRecord {
  id: string;
  source: string;
  createdAt: number;
  /** When the first step began. */
  startAt: number;
  steps: TimelineStep[];
  config: SourceRevisionConfig;
  /** Set when a newer revision superseded this one. */
  skippedAt?: number;
  /** The revision this one serves again (`POST …/redeploy`). */
  replayOf?: string;
  /** Agent-server behaviour while this revision is live (see `RevisionAgent`). */
  agent?: RevisionAgent;
  /** Set by `POST …/interruption` while the revision was in progress. */
  interruptedAt?: number;
  /**
   * With `queueBehind`: the revision that was in progress when this one was created. This one
   * stays `QUEUED` until that one ends (its timeline reaches a final status, or it is
   * interrupted), then follows its own timeline from there.
   */
  blockedBy?: RevisionRecord;
}

/** When the revision's own timeline starts: once the revision it queues behind has ended. */
export function effectiveStart(rev: RevisionRecord): number {
  return rev.blockedBy ? Math.max(rev.startAt, endTime(rev.blockedBy)) : rev.startAt;
}

/** When the revision reaches a status it never leaves; Infinity when it never does. */
export function endTime(rev: RevisionRecord): number {
  const end = Math.min(rev.skippedAt ?? Infinity, rev.interruptedAt ?? Infinity);
  let at = effectiveStart(rev);
  for (const step of rev.steps) {
    if (at >= end) break;
    if (TERMINAL_STATUSES.has(step.status)) return Math.min(end, at);
    at += Math.max(0, step.durationMs);
  }
  return end;
}

export interface StatusChange {
  status: string;
  at: number;
  /** The step's own `statusMessage`, when it gives one. */
  message?: string;
}

/** Every status the revision has had up to `now`, oldest first (never empty). */
export function statusHistory(rev: RevisionRecord, now: number): StatusChange[] {
  const history: StatusChange[] = [];
  const start = effectiveStart(rev);
  if (start > rev.startAt) {
    // Waiting behind another revision: QUEUED until that one ends.
    history.push({ status: 'QUEUED', at: rev.startAt });
  }
  let at = start;
  for (let i = 0; i < rev.steps.length && at <= now; i++) {
    const step = rev.steps[i]!;
    const last = history.at(-1);
    if (last?.status !== step.status || last.message !== step.statusMessage) {
      history.push({
        status: step.status,
        at,
        ...(step.statusMessage !== undefined ? { message: step.statusMessage } : {}),
      });
    }
    at += Math.max(0, step.durationMs);
  }
  if (history.length === 0) history.push({ status: rev.steps[0]!.status, at: rev.startAt });
  const stops = [
    { status: 'SKIPPED', at: rev.skippedAt },
    { status: 'INTERRUPTED', at: rev.interruptedAt },
  ].filter((s): s is StatusChange => s.at !== undefined && s.at <= now);
  const stop = stops.sort((a, b) => a.at - b.at)[0];
  if (stop) {
    const before = history.filter((h, i) => i === 0 || h.at < stop.at);
    return [...before, stop];
  }
  return history;
}

export function currentStatus(rev: RevisionRecord, now: number): StatusChange {
  const history = statusHistory(rev, now);
  return history[history.length - 1]!;
}

export function isTerminal(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}

export function validateTimeline(steps: TimelineStep[]): TimelineStep[] {
  if (steps.length === 0) throw new Error('A timeline needs at least one step.');
  for (const step of steps) {
    if (typeof step.status !== 'string' || step.status === '') {
      throw new Error(`Timeline step ${JSON.stringify(step)} has no status.`);
    }
    if (!Number.isFinite(step.durationMs) || step.durationMs < 0) {
      throw new Error(`Timeline step ${step.status} needs a duration >= 0 ms.`);
    }
  }
  return steps.map((s) => ({
    status: s.status,
    durationMs: s.durationMs,
    ...(typeof s.statusMessage === 'string' ? { statusMessage: s.statusMessage } : {}),
  }));
}

/** Parses `QUEUED:1000,BUILDING:3000,DEPLOYED:0` (the CLI's `--timeline`). */
export function parseTimeline(text: string): TimelineStep[] {
  const steps = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const match = /^([A-Za-z_]+)(?::(\d+(?:\.\d+)?))?$/.exec(part);
      if (!match) {
        throw new Error(`Timeline step "${part}" is not STATUS:MILLISECONDS (e.g. BUILDING:3000).`);
      }
      return { status: match[1]!.toUpperCase(), durationMs: Number(match[2] ?? 0) };
    });
  return validateTimeline(steps);
}

export function scaleTimeline(steps: readonly TimelineStep[], factor: number): TimelineStep[] {
  return steps.map((s) => ({ ...s, durationMs: Math.round(s.durationMs * factor) }));
}
