/** Time, injectable: polling and retry code takes a Clock so tests run without waiting. */
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from './untrusted.js';

/**
 * What every layer takes from the run, handed down as it is (the run's context is one): its
 * clock, its one deadline, its cancellation and its logger.
 */
export interface RunBasics {
  clock: Clock;
  deadline: Deadline;
  /** Aborted when the run is cancelled (SIGINT/SIGTERM). */
  signal?: AbortSignal | undefined;
  logger: Logger;
}

export const systemClock = {
  /** Milliseconds, monotonic enough for deadlines. */
  now: (): number => performance.timeOrigin + performance.now(),
  /** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
  sleep: (ms: number, signal?: AbortSignal): Promise<void> =>
    // `timers/promises` rejects with an AbortError: the caller gets the signal's reason instead.
    delay(Math.max(0, ms), undefined, { signal }).catch((error: unknown) => {
      throw signal?.aborted ? signal.reason : error;
    }),
};

export type Clock = typeof systemClock;

/** The run's single deadline (`timeout`, counted from process start). */
export class Deadline {
  constructor(
    readonly clock: Clock,
    readonly at: number,
  ) {}
  remainingMs(): number {
    return Math.max(0, this.at - this.clock.now());
  }
  passed(): boolean {
    return this.clock.now() >= this.at;
  }
}
