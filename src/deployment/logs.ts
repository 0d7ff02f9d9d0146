/**
 * A revision's build and deploy logs (`client.getRevisionLogs`). Two readers: `fetchLogTail`,
 * the tail of a failed revision's log for the failure message, and `BuildLogStream`, the build
 * log printed live (`build-log: stream`). Entries are rendered tolerantly. Best effort
 * throughout: a log that cannot be read never hides the failure it would have explained. Log
 * lines are untrusted: `printUntrusted` (a collapsed group whose title is the action's own
 * text) is the one way they reach the log.
 */
import { stripVTControlCharacters } from 'node:util';
import { errorMessage, isRecord, safeJson as toJson } from '../lib/text.js';
import type { ControlPlane } from '../api/client.js';
import { printUntrusted, redact, runnerLogger, type Logger } from '../lib/untrusted.js';
import { revisionStatus } from './revision-status.js';

/** Longest rendered line; build logs can hold minified bundles or base64 blobs. */
export const MAX_LINE_CHARS = 500;
/** `build-log: stream`: entries asked per page (the CLI asks 50), and pages read per check. */
const PAGE_SIZE = 50;
const MAX_PAGES_PER_POLL = 5;

/**
 * The last 50 entries of the log that explains `status` (`{order: 'desc', limit: 50}`: asked
 * newest first, returned oldest first), one line each. `{unavailable: true}` when the status
 * has no logs, the install does not offer them (404/405), or reading them failed (logged at
 * debug).
 */
export async function fetchLogTail(
  client: ControlPlane,
  deploymentId: string,
  revisionId: string,
  status: string,
): Promise<{ lines: string[] } | { unavailable: true }> {
  const limit = 50;
  const type = revisionStatus(status).log;
  if (!type) return { unavailable: true };
  try {
    const answer = await client.getRevisionLogs(deploymentId, revisionId, type, {
      order: 'desc',
      limit,
    });
    if (!answer) return { unavailable: true };
    return {
      lines: linesOf(Array.isArray(answer.logs) ? answer.logs.slice(0, limit).reverse() : []),
    };
  } catch (error) {
    runnerLogger.debug(
      `Could not read the ${type} logs of revision ${revisionId} of deployment ${deploymentId}: ` +
        errorMessage(error),
    );
    return { unavailable: true };
  }
}

/**
 * `build-log: stream` (the README's "Build and deploy logs"): at each status check in the
 * table's `building` phase, what is new in `build_logs` (`order: asc` from the last
 * `next_offset`, the previous one kept when none comes back), as `langgraph deploy` follows it.
 *
 * The status checks keep their timing: `onPoll` starts a read and returns at once (a read still
 * in flight makes it skip), and `finish` waits for the last read once the wait is over. Every
 * read is bounded (a few pages per check); a failed read is logged at debug and the next check
 * tries again, and a 404/405 (no logs on this install) stops the stream for good. Entries seen
 * before (same `id`) are not printed twice.
 */
export class BuildLogStream {
  printed = 0;
  /** Set when the install answered 404/405: no more reads. */
  unavailable = false;
  private offset: string | undefined;
  private readonly seen = new Set<string>();
  private inFlight: Promise<void> | undefined;
  private started = false;

  constructor(
    private readonly opts: {
      client: ControlPlane;
      deploymentId: string;
      revisionId: string;
      logger: Pick<Logger, 'debug'>;
    },
  ) {}

  /** After a status check: starts a read while the revision builds. Never throws or waits. */
  onPoll(status: string): void {
    if (this.unavailable || this.inFlight || revisionStatus(status).phase !== 'building') return;
    this.started = true;
    this.inFlight = this.readNew().finally(() => {
      this.inFlight = undefined;
    });
  }

  /** Waits for the read in flight; then, if the build was being followed, reads the rest. */
  async finish(): Promise<void> {
    await this.settle();
    if (this.started && !this.unavailable) await this.readNew();
  }

  /** Waits for the read in flight, if any (it never rejects). */
  async settle(): Promise<void> {
    await this.inFlight;
  }

  private async readNew(): Promise<void> {
    const { client, deploymentId, revisionId, logger } = this.opts;
    for (let page = 0; page < MAX_PAGES_PER_POLL; page++) {
      let answer;
      try {
        answer = await client.getRevisionLogs(deploymentId, revisionId, 'build', {
          order: 'asc',
          limit: PAGE_SIZE,
          ...(this.offset !== undefined ? { offset: this.offset } : {}),
        });
      } catch (error) {
        logger.debug(
          `Could not read the build log of revision ${revisionId} (the next status check tries ` +
            `again): ${errorMessage(error)}`,
        );
        return;
      }
      if (!answer) {
        this.unavailable = true;
        logger.debug(
          `This control plane offers no build log for revision ${revisionId}: nothing to stream.`,
        );
        return;
      }
      const entries = Array.isArray(answer.logs) ? answer.logs.slice(0, PAGE_SIZE) : [];
      const lines = linesOf(
        entries.filter((entry) => {
          const id = isRecord(entry) ? entry['id'] : undefined;
          if (typeof id !== 'string' && typeof id !== 'number') return true;
          if (this.seen.has(String(id))) return false;
          this.seen.add(String(id));
          return true;
        }),
      );
      if (lines.length > 0) {
        const first = this.printed + 1;
        this.printed += lines.length;
        const group = `Build log of revision ${revisionId}, live: lines ${first}–${this.printed}`;
        printUntrusted(lines, group);
      }
      const previous = this.offset;
      if ((answer.next_offset ?? '') !== '') this.offset = String(answer.next_offset);
      // A short page is the end of the log for now; an offset that does not move would loop.
      if (entries.length < PAGE_SIZE || this.offset === previous) return;
    }
  }
}

function linesOf(entries: unknown[]): string[] {
  return entries
    .flatMap((entry) => renderLogEntry(entry).split('\n'))
    .filter((line) => line.trim().length > 0);
}

/**
 * One entry as text: its `message`, after its `timestamp` and `level` when present; a string
 * entry as is; anything else as JSON. Colour codes removed, secrets redacted, each line cut
 * to about 500 characters.
 */
export function renderLogEntry(entry: unknown): string {
  const record = isRecord(entry) ? entry : {};
  const message = firstOf(record, ['message', 'msg', 'log', 'text']);
  const level = firstOf(record, ['level', 'severity']);
  const parts = [
    renderTimestamp(firstOf(record, ['timestamp', 'time', 'ts'])),
    typeof level === 'string' ? level.toUpperCase() : typeof level === 'number' ? `${level}` : '',
    message,
  ];
  const text =
    typeof entry === 'string'
      ? entry
      : typeof message === 'string'
        ? parts.filter((part) => part !== '').join(' ')
        : toJson(entry);
  return stripVTControlCharacters(text)
    .replace(/\r\n?/g, '\n')
    .trimEnd()
    .split('\n')
    .map((line) => redact(line))
    .map((line) =>
      line.length <= MAX_LINE_CHARS
        ? line
        : `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more characters)`,
    )
    .join('\n');
}

function firstOf(entry: Record<string, unknown>, keys: string[]): unknown {
  return keys.map((key) => entry[key]).find((value) => value !== undefined && value !== null);
}

function renderTimestamp(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return '';
  // Epoch seconds or milliseconds (or nanoseconds, as some log stores keep them).
  const date = new Date(value > 1e17 ? value / 1e6 : value > 1e11 ? value : value * 1000);
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}
