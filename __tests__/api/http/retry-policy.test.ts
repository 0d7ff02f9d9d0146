/** The one retry rule and loop (src/api/http/retry-policy.ts), which the request loop, the upload and the health check run. */
import { describe, expect, it } from '@jest/globals';
import {
  backoffCeiling,
  backoffDelay,
  retrying,
  type RetryLoop,
} from '../../../src/api/http/retry-policy.js';
import { Deadline } from '../../../src/lib/time.js';
import { FakeClock } from '../../helpers/fakes.js';

describe('backoffCeiling', () => {
  it('doubles from the base and stops at the maximum', () => {
    expect([0, 1, 2, 3, 4].map((n) => backoffCeiling(n, 1000, 5000))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
    expect(backoffCeiling(-1, 1000, 5000)).toBe(1000);
  });

  it('bounds the full-jitter delay of the request loop', () => {
    const ctx = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(3, { ...ctx, random: () => 1 })).toBe(backoffCeiling(3, 100, 1000));
    expect(backoffDelay(3, { ...ctx, random: () => 0.5 })).toBe(400);
    expect(backoffDelay(9, { ...ctx, random: () => 1 })).toBe(1000);
  });
});

describe('retrying', () => {
  function loop(clock: FakeClock, seconds: number, log: string[]): RetryLoop {
    return {
      clock,
      deadline: Deadline.fromSeconds(clock, seconds),
      backoff: (retry) => 100 * 2 ** retry,
      before: (attempt, last) => log.push(`before ${attempt} ${last}`),
      tooLate: (last, delay, attempt) => new Error(`too late after ${last} (${delay}, ${attempt})`),
      log: (last, delay, attempt) => log.push(`wait ${delay} after ${last} (${attempt})`),
    };
  }

  it('waits the backoff, or what the attempt named, until an attempt is done', async () => {
    const clock = new FakeClock();
    const log: string[] = [];
    const result = await retrying(loop(clock, 60, log), async (n) =>
      n === 1
        ? { again: 'HTTP 503' }
        : n === 2
          ? { again: 'HTTP 429', afterMs: 5000 }
          : { done: n },
    );
    expect(result).toBe(3);
    expect(clock.sleeps).toEqual([100, 5000]);
    expect(log).toEqual([
      'before 1 ',
      'wait 100 after HTTP 503 (1)',
      'before 2 HTTP 503',
      'wait 5000 after HTTP 429 (2)',
      'before 3 HTTP 429',
    ]);
  });

  it('does not wait past the deadline (nor up to it with atDeadline), and stops on a throw', async () => {
    const clock = new FakeClock();
    await expect(
      retrying(loop(clock, 1, []), async () => ({ again: 'reset', afterMs: 1001 })),
    ).rejects.toThrow('too late after reset (1001, 1)');
    await expect(
      retrying({ ...loop(clock, 1, []), atDeadline: false }, async (n) =>
        n === 1 ? { again: 'reset', afterMs: 1000 } : { done: 'in time' },
      ),
    ).resolves.toBe('in time');
    await expect(
      retrying({ ...loop(clock, 1, []), atDeadline: true }, async () => ({
        again: 'reset',
        afterMs: 1000,
      })),
    ).rejects.toThrow('too late');
    await expect(
      retrying(loop(clock, 60, []), async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });
});
