import { describe, expect, it } from '@jest/globals';
import { canonicalJson, keyedValue } from '../../src/lib/keyed.js';

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
