import { describe, expect, it } from '@jest/globals';
import { mean, pairedInterval, t975 } from '../../../src/verify/eval/stats.js';

describe('t975', () => {
  it('is the table value for small samples', () => {
    expect(t975(1)).toBe(12.7062);
    expect(t975(3)).toBe(3.1824);
    expect(t975(30)).toBe(2.0423);
  });

  it('follows Student’s t beyond the table (reference values of the t distribution)', () => {
    expect(t975(31)).toBeCloseTo(2.03951, 4);
    expect(t975(50)).toBeCloseTo(2.00856, 4);
    expect(t975(199)).toBeCloseTo(1.97196, 4);
    expect(t975(1000)).toBeCloseTo(1.96234, 4);
  });

  it('is undefined without a degree of freedom', () => {
    expect(t975(0)).toBeNaN();
  });
});

describe('mean', () => {
  it('is the average, or null for no values', () => {
    expect(mean([1, 0, 0, 1, 1])).toBe(0.6);
    expect(mean([])).toBeNull();
  });
});

describe('pairedInterval', () => {
  it('gives the mean difference with its 95% t interval (computed by hand)', () => {
    // d = 0.1 0.2 0.3 0.4: mean 0.25, s = sqrt(0.05 / 3) = 0.129099, se = s / 2 = 0.0645497,
    // t(3) = 3.1824, half-width 0.205423.
    const { delta, low, high } = pairedInterval([0.1, 0.2, 0.3, 0.4]);
    expect(delta).toBeCloseTo(0.25, 10);
    expect(low).toBeCloseTo(0.044577, 5);
    expect(high).toBeCloseTo(0.455423, 5);
  });

  it('is a point when every difference is the same', () => {
    expect(pairedInterval([-0.5, -0.5, -0.5])).toEqual({ delta: -0.5, low: -0.5, high: -0.5 });
  });

  it('has no interval with fewer than two pairs', () => {
    expect(pairedInterval([0.3])).toEqual({ delta: 0.3, low: null, high: null });
    expect(pairedInterval([])).toEqual({ delta: null, low: null, high: null });
  });

  it('narrows with more examples of the same spread', () => {
    const few = pairedInterval([0, 1, 0, 1]);
    const many = pairedInterval(Array.from({ length: 200 }, (_, i) => i % 2));
    // 200 values of 0 and 1: mean 0.5, s = sqrt(50 / 199) = 0.501255, se = 0.0354441,
    // t(199) = 1.97196, half-width 0.0698942.
    expect(many.low).toBeCloseTo(0.5 - 0.0698942, 5);
    expect((many.high as number) - (many.low as number)).toBeLessThan(
      (few.high as number) - (few.low as number),
    );
  });
});
