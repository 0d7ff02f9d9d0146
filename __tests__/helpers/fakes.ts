/**
 * Shared fakes for unit tests (test-only code lives here, not in src/).
 */
import type { Clock } from '../../src/time.js';

/** A clock for tests: `sleep` advances time instantly and records each wait. */
export class FakeClock implements Clock {
  current: number;
  readonly sleeps: number[] = [];
  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.current += Math.max(0, ms);
  }
}
