import { describe, expect, it } from '@jest/globals';
import {
  canonicalJson,
  errorMessage,
  formatDuration,
  formatSeconds,
  isRecord,
  keyedValue,
  safeJson,
  truncate,
} from '../../src/lib/text.js';

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

describe('errorMessage', () => {
  it("gives an Error's message and any other thrown value as a string", () => {
    expect(errorMessage(new TypeError('bad'))).toBe('bad');
    expect(errorMessage('plain')).toBe('plain');
    expect(errorMessage(42)).toBe('42');
  });
});

describe('safeJson', () => {
  it('gives JSON, or a string for values without a JSON form', () => {
    expect(safeJson({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}');
    expect(safeJson(undefined)).toBe('undefined');
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(safeJson(cycle)).toBe('[object Object]');
    expect(safeJson(10n)).toBe('10');
  });
});

describe('isRecord', () => {
  it('accepts plain objects only', () => {
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(Object.create(null))).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([1])).toBe(false);
    expect(isRecord('x')).toBe(false);
    expect(isRecord(undefined)).toBe(false);
  });
});

describe('canonicalJson', () => {
  it('does not depend on key order, at any depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    // Keys in code-unit order, integer-like ones too: the text of records written before.
    expect(canonicalJson({ a: 3, 9: 2, 10: 1 })).toBe('{"10":1,"9":2,"a":3}');
  });
});

describe('keyedValue', () => {
  it('is v1: and a base64url HMAC that changes with the key, the name, the purpose and the text', () => {
    const value = keyedValue('key', 'agent', 'purpose', 'text');
    expect(value).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);
    expect(keyedValue('key', 'agent', 'purpose', 'text')).toBe(value);
    for (const other of [
      keyedValue('key2', 'agent', 'purpose', 'text'),
      keyedValue('key', 'agent2', 'purpose', 'text'),
      keyedValue('key', 'agent', 'purpose2', 'text'),
      keyedValue('key', 'agent', 'purpose', 'text2'),
    ]) {
      expect(other).not.toBe(value);
    }
  });
});
