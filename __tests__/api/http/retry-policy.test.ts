/** The one retry rule (src/api/http/retry-policy.ts): the ceilings both the request loop and the health check follow. */
import { describe, expect, it } from '@jest/globals';
import { backoffCeiling, backoffDelay } from '../../../src/api/http/retry-policy.js';

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
