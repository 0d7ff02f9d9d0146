import { describe, expect, it } from '@jest/globals';
import { formatDuration, formatSeconds, truncate } from '../../src/lib/text.js';

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

describe('formatSeconds', () => {
  it('gives whole seconds exactly and others to one decimal', () => {
    expect(formatSeconds(30_000)).toBe('30 s');
    expect(formatSeconds(500)).toBe('0.5 s');
    expect(formatSeconds(1_250)).toBe('1.3 s');
  });
});

describe('truncate', () => {
  it('keeps a short text and cuts a long one to max characters, ending in …', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcdef', 4)).toHaveLength(4);
  });
});
