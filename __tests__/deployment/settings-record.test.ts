import { describe, expect, it } from '@jest/globals';
import {
  canonicalJson,
  canonicalSettings,
  recordMismatch,
  recordValue,
  withRecord,
} from '../../src/deployment/settings-record.js';
import { RECORD_NAME } from '../../src/inputs/secrets.js';

const KEY = 'lsv2_sk_0123';
const SECRETS = [
  { name: 'B', value: 'two\nlines' },
  { name: 'A', value: '' },
];
const COMMIT = { commit: 'a'.repeat(40) };

describe('canonical form', () => {
  it('does not depend on key or entry order, and keeps string boundaries', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    const one = canonicalSettings({ secrets: SECRETS }, COMMIT);
    expect(canonicalSettings({ secrets: [...SECRETS].reverse() }, COMMIT)).toBe(one);
    expect(canonicalSettings({ secrets: [{ name: 'A', value: 'bc' }] }, COMMIT)).not.toBe(
      canonicalSettings({ secrets: [{ name: 'Ab', value: 'c' }] }, COMMIT),
    );
    // The record itself never enters the digest.
    expect(
      canonicalSettings({ secrets: [...SECRETS, { name: RECORD_NAME, value: 'v1:x' }] }, COMMIT),
    ).toBe(one);
  });
});

describe('the record', () => {
  it('is an HMAC that changes with every input, the binding, the key and the deployment', () => {
    const base = recordValue(KEY, 'my-agent', { secrets: SECRETS }, COMMIT);
    expect(base).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);
    expect(base).not.toContain('two');
    const variants = [
      recordValue(KEY, 'my-agent', { secrets: [{ name: 'B', value: 'two\nlines' }] }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS, resourceSpec: { min_scale: 1 } }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS, installCommand: 'yarn' }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS, buildCommand: 'yarn build' }, COMMIT),
      recordValue(KEY, 'my-agent', { secrets: SECRETS }, { commit: 'b'.repeat(40) }),
      recordValue(KEY, 'my-agent', { secrets: SECRETS }, { sourceDigest: 'a'.repeat(40) }),
      recordValue('lsv2_sk_other', 'my-agent', { secrets: SECRETS }, COMMIT),
      recordValue(KEY, 'my-agent-2', { secrets: SECRETS }, COMMIT),
    ];
    expect(new Set([base, ...variants]).size).toBe(variants.length + 1);
  });

  it('travels only with secrets, replacing any earlier record', () => {
    expect(withRecord(KEY, 'x', {}, COMMIT)).toBeUndefined();
    const sent = withRecord(
      KEY,
      'x',
      { secrets: [...SECRETS, { name: RECORD_NAME, value: 'old' }] },
      COMMIT,
    )!;
    expect(sent.map((s) => s.name)).toEqual(['B', 'A', RECORD_NAME]);
    expect(recordMismatch(KEY, 'x', { secrets: SECRETS }, sent, COMMIT)).toBeUndefined();
  });

  it('cannot compare two records or a record without a value', () => {
    const sent = withRecord(KEY, 'x', { secrets: SECRETS }, COMMIT)!;
    const twice = [...sent, sent[sent.length - 1]!];
    expect(recordMismatch(KEY, 'x', { secrets: SECRETS }, twice, COMMIT)).toBeDefined();
    expect(recordMismatch(KEY, 'x', { secrets: SECRETS }, [{ name: RECORD_NAME }], COMMIT)).toMatch(
      /readable record/,
    );
  });
});
