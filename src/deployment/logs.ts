/**
 * The tail of a failed revision's build or deploy logs, for the failure message. The logs
 * endpoints are those of the platform's own `langgraph deploy` CLI (not in the spec snapshot):
 * `POST /v1/projects/{id}/revisions/{rev}/build_logs` or `deploy_logs` with
 * `{order: 'desc', limit}`, newest first, reversed here. Entries are rendered tolerantly.
 * Best effort throughout: a tail that cannot be read never hides the failure it would have
 * explained. Log lines are untrusted: `printLogBlock` is the one way they reach the log.
 */
import { stripVTControlCharacters } from 'node:util';
import { isRecord, safeJson as toJson } from '../lib/text.js';
import type { ControlPlane } from '../api/client.js';
import {
  endGroup,
  inert,
  printUntrusted,
  redact,
  runnerLogger,
  startGroup,
  type Logger,
} from '../lib/untrusted.js';
import { revisionStatus } from './revision-status.js';

/** Longest rendered line; build logs can hold minified bundles or base64 blobs. */
export const MAX_LINE_CHARS = 500;

export type LogTail = { lines: string[] } | { unavailable: true };

/** Which logs explain a failed status: the build's or the deploy's. */
export function logTypeFor(status: string): 'build' | 'deploy' | undefined {
  const { outcome, log } = revisionStatus(status);
  return outcome === 'failed' && log !== 'none' ? log : undefined;
}

/**
 * The last `limit` entries (asked newest first, returned oldest first), one line each.
 * `{unavailable: true}` when the status has no logs, the install does not offer them
 * (404/405), or reading them failed (logged at debug).
 */
export async function fetchLogTail(
  client: ControlPlane,
  deploymentId: string,
  revisionId: string,
  status: string,
  limit = 50,
  logger: Pick<Logger, 'debug'> = runnerLogger,
): Promise<LogTail> {
  const type = logTypeFor(status);
  if (!type) return { unavailable: true };
  const size = Math.min(1000, Math.max(1, Math.floor(Number.isFinite(limit) ? limit : 50)));
  try {
    const answer = await client.getRevisionLogs(deploymentId, revisionId, type, {
      order: 'desc',
      limit: size,
    });
    if (!answer) return { unavailable: true };
    const entries = Array.isArray(answer.logs) ? answer.logs.slice(0, size) : [];
    const lines = entries
      .reverse()
      .flatMap((entry) => renderLogEntry(entry).split('\n'))
      .filter((line) => line.trim().length > 0);
    return { lines };
  } catch (error) {
    logger.debug(
      `Could not read the ${type} logs of revision ${revisionId} of deployment ${deploymentId}: ` +
        (error instanceof Error ? error.message : String(error)),
    );
    return { unavailable: true };
  }
}

/**
 * Prints untrusted log lines in a collapsed group: the title is the action's own text (with
 * any untrusted part neutralised), the lines go through `printUntrusted`.
 */
export function printLogBlock(title: string, lines: readonly string[]): void {
  startGroup(inert(title));
  printUntrusted(lines);
  endGroup();
}

/** The entry's `id`, when it has one (to recognise an entry seen on an earlier page). */
export function logEntryId(entry: unknown): string | undefined {
  if (!isRecord(entry)) return undefined;
  const id = entry['id'];
  return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * One entry as text: its `message`, after its `timestamp` and `level` when present; a string
 * entry as is; anything else as JSON. Colour codes removed, secrets redacted, each line cut
 * to about 500 characters.
 */
export function renderLogEntry(entry: unknown): string {
  let text: string;
  if (typeof entry === 'string') {
    text = entry;
  } else if (isRecord(entry) && typeof firstOf(entry, MESSAGE_KEYS) === 'string') {
    const parts = [
      renderTimestamp(firstOf(entry, TIMESTAMP_KEYS)),
      renderLevel(firstOf(entry, LEVEL_KEYS)),
      firstOf(entry, MESSAGE_KEYS) as string,
    ];
    text = parts.filter((p) => p !== undefined && p !== '').join(' ');
  } else {
    text = toJson(entry);
  }
  return stripVTControlCharacters(text)
    .replace(/\r\n?/g, '\n')
    .trimEnd()
    .split('\n')
    .map((line) => truncate(redact(line)))
    .join('\n');
}

const MESSAGE_KEYS = ['message', 'msg', 'log', 'text'];
const TIMESTAMP_KEYS = ['timestamp', 'time', 'ts'];
const LEVEL_KEYS = ['level', 'severity'];

function firstOf(entry: Record<string, unknown>, keys: string[]): unknown {
  for (const key of keys) {
    if (entry[key] !== undefined && entry[key] !== null) return entry[key];
  }
  return undefined;
}

function renderTimestamp(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) {
    // Epoch seconds or milliseconds (or nanoseconds, as some log stores keep them).
    const ms = value > 1e17 ? value / 1e6 : value > 1e11 ? value : value * 1000;
    const date = new Date(ms);
    return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
  }
  return undefined;
}

function renderLevel(value: unknown): string | undefined {
  if (typeof value === 'string') return value.toUpperCase();
  if (typeof value === 'number') return String(value);
  return undefined;
}

function truncate(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more characters)`;
}
