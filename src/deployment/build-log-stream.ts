/**
 * `build-log: stream`: the build log printed live while the revision builds, the way the
 * platform's own `langgraph deploy` CLI follows a remote build: at each status check while the
 * revision is `AWAITING_BUILD` or `BUILDING`, ask `build_logs` with `order: asc` from the last
 * `next_offset` (keeping the previous offset when none comes back), and print what is new.
 *
 * The status checks keep their timing: `onPoll` starts a read and returns at once (a read still
 * in flight makes it skip), and `finish` waits for the last read once the wait is over. Every
 * read is bounded (a few pages per check); a failed read is logged at debug and the next check
 * tries again, and a 404/405 (no logs on this install) stops the stream for good. Entries seen
 * before (same `id`) are not printed twice. Lines are untrusted: they are printed through
 * `printLogBlock` (a collapsed group, `printUntrusted` inside).
 */
import type { ControlPlane } from '../api/client.js';
import { logEntryId, printLogBlock, renderLogEntry } from './logs.js';
import type { Logger } from '../lib/untrusted.js';
import { statusesWhere } from './revision-status.js';

/** The statuses during which the CLI streams the build log. */
export const STREAMED_STATUSES: ReadonlySet<string> = new Set(
  statusesWhere((rule) => rule.phase === 'building'),
);

export interface BuildLogStreamOptions {
  client: ControlPlane;
  deploymentId: string;
  revisionId: string;
  logger: Pick<Logger, 'debug'>;
  /** Prints one batch of new lines; default `printLogBlock`. */
  print?: (title: string, lines: string[]) => void;
  /** Entries asked per page (the CLI asks 50). */
  pageSize?: number;
  /** Pages read at most per status check, so that one check never reads without end. */
  maxPagesPerPoll?: number;
}

export class BuildLogStream {
  /** Lines printed so far. */
  printed = 0;
  /** Set when the install answered 404/405: no more reads. */
  unavailable = false;
  private offset: string | undefined;
  private readonly seen = new Set<string>();
  private inFlight: Promise<void> | undefined;
  private started = false;
  private readonly print: (title: string, lines: string[]) => void;
  private readonly pageSize: number;
  private readonly maxPages: number;

  constructor(private readonly opts: BuildLogStreamOptions) {
    this.print = opts.print ?? printLogBlock;
    this.pageSize = Math.max(1, Math.floor(opts.pageSize ?? 50));
    this.maxPages = Math.max(1, Math.floor(opts.maxPagesPerPoll ?? 5));
  }

  /** After a status check: starts a read while the revision builds. Never throws or waits. */
  onPoll(status: string): void {
    if (this.unavailable || this.inFlight || !STREAMED_STATUSES.has(status)) return;
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
    for (let page = 0; page < this.maxPages; page++) {
      let answer;
      try {
        answer = await client.getRevisionLogs(deploymentId, revisionId, 'build', {
          order: 'asc',
          limit: this.pageSize,
          ...(this.offset !== undefined ? { offset: this.offset } : {}),
        });
      } catch (error) {
        logger.debug(
          `Could not read the build log of revision ${revisionId} (the next status check tries ` +
            `again): ${error instanceof Error ? error.message : String(error)}`,
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
      const entries = answer.logs.slice(0, this.pageSize);
      const fresh = entries.filter((entry) => {
        const id = logEntryId(entry);
        if (id === undefined) return true;
        if (this.seen.has(id)) return false;
        this.seen.add(id);
        return true;
      });
      const lines = fresh
        .flatMap((entry) => renderLogEntry(entry).split('\n'))
        .filter((line) => line.trim().length > 0);
      if (lines.length > 0) {
        const first = this.printed + 1;
        this.printed += lines.length;
        this.print(
          `Build log of revision ${revisionId}, live: lines ${first}–${this.printed}`,
          lines,
        );
      }
      const next = answer.next_offset;
      const previous = this.offset;
      if (next !== undefined && next !== null && String(next) !== '') this.offset = String(next);
      // A short page is the end of the log for now; an offset that does not move would loop.
      if (entries.length < this.pageSize || this.offset === previous) return;
    }
  }
}
