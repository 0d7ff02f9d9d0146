import { describe, expect, it } from '@jest/globals';
import { formatDuration } from '../src/format.js';

describe('formatDuration', () => {
  it('reads well at every scale, the same in the log and the reports', () => {
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
    expect(formatDuration(400)).toBe('0.4 s');
    expect(formatDuration(Number.NaN)).toBe('—');
    expect(formatDuration(-1)).toBe('—');
  });
});
