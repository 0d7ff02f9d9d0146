/** The one retry rule and loop (src/api/http/retry-policy.ts), which the request loop, the upload and the health check run. */
import { describe, expect, it } from '@jest/globals';
import {
  backoffCeiling,
  backoffDelay,
  retrying,
  type RetryCall,
} from '../../../src/api/http/retry-policy.js';
import { CancelledError, DeadlineError } from '../../../src/lib/errors.js';
import { Deadline } from '../../../src/lib/time.js';
import { FakeClock, recordingLogger } from '../../helpers/fakes.js';

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
  function call(clock: FakeClock, seconds: number, extra: Partial<RetryCall> = {}) {
    const logger = recordingLogger();
    const signal = new AbortController();
    const http = {
      clock,
      deadline: new Deadline(clock, clock.now() + seconds * 1000),
      logger,
      signal: signal.signal,
    };
    const retry: RetryCall = {
      http,
      what: 'GET thing 1',
      maxAttempts: 5,
      backoff: (n) => 100 * 2 ** n,
      ...extra,
    };
    const debug = () => logger.lines.filter((l) => l.level === 'debug').map((l) => l.message);
    return { retry, debug, cancel: () => signal.abort(new Error('the signal')) };
  }

  it('waits the backoff, or what the attempt named, until an attempt is done', async () => {
    const clock = new FakeClock();
    const { retry, debug } = call(clock, 60);
    const result = await retrying(retry, async (n) =>
      n === 1
        ? { again: 'HTTP 503' }
        : n === 2
          ? { again: 'HTTP 429', afterMs: 5000 }
          : { done: n },
    );
    expect(result).toBe(3);
    expect(clock.sleeps).toEqual([100, 5000]);
    expect(debug()).toEqual([
      'Retrying GET thing 1 after HTTP 503 in 0.1 s (attempt 2 of 5)',
      'Retrying GET thing 1 after HTTP 429 in 5 s (attempt 3 of 5)',
    ]);
  });

  it('does not wait past the deadline nor up to it, and stops on a throw', async () => {
    const clock = new FakeClock();
    await expect(
      retrying(call(clock, 1).retry, async () => ({ again: 'reset', afterMs: 1001 })),
    ).rejects.toThrow(
      'The `timeout` would run out before the next attempt of GET thing 1 (last: reset; next attempt in 1.0 s, 1 s left)',
    );
    await expect(
      retrying(call(clock, 1).retry, async (n) =>
        n === 1 ? { again: 'reset', afterMs: 999 } : { done: 'in time' },
      ),
    ).resolves.toBe('in time');
    const outOfTime = (last: string) => new Error(`out of time after ${last}`);
    await expect(
      retrying(call(clock, 1, { outOfTime }).retry, async () => ({
        again: 'reset',
        afterMs: 1000,
      })),
    ).rejects.toThrow('out of time after reset');
    await expect(
      retrying(call(clock, 60).retry, async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
  });

  it('owns the deadline and the cancellation, and says which call they stopped', async () => {
    const clock = new FakeClock();
    const spent = call(clock, 0);
    const error = await retrying(spent.retry, async () => ({ done: 'never' })).catch((e) => e);
    expect(error).toBeInstanceOf(DeadlineError);
    expect(error.message).toBe(
      'The `timeout` ran out before GET thing 1 could be sent. Raise `timeout` if the platform needs longer.',
    );
    const cancelled = call(clock, 60);
    let attempts = 0;
    const stopped = retrying(cancelled.retry, async () => {
      attempts++;
      cancelled.cancel(); // during the attempt: the wait after it is cut short
      return { again: 'HTTP 503' };
    });
    await expect(stopped).rejects.toThrow(
      new CancelledError('The run was cancelled during GET thing 1.'),
    );
    expect(attempts).toBe(1);
  });
});
