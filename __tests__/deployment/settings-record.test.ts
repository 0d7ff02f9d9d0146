import { describe, expect, it } from '@jest/globals';
import {
  canonicalJson,
  canonicalSettings,
  compareSettings,
  RECORD_NAME,
  recordKey,
  recordValue,
  withRecord,
} from '../../src/deployment/settings-record.js';

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
    const key = recordKey(KEY, 'my-agent');
    const base = recordValue(key, { secrets: SECRETS }, COMMIT);
    expect(base).toMatch(/^v1:[A-Za-z0-9_-]{43}$/);
    expect(base).not.toContain('two');
    const variants = [
      recordValue(key, { secrets: [{ name: 'B', value: 'two\nlines' }] }, COMMIT),
      recordValue(key, { secrets: SECRETS, resourceSpec: { min_scale: 1 } }, COMMIT),
      recordValue(key, { secrets: SECRETS, installCommand: 'yarn' }, COMMIT),
      recordValue(key, { secrets: SECRETS, buildCommand: 'yarn build' }, COMMIT),
      recordValue(key, { secrets: SECRETS }, { commit: 'b'.repeat(40) }),
      recordValue(key, { secrets: SECRETS }, { sourceDigest: 'a'.repeat(40) }),
      recordValue(recordKey('lsv2_sk_other', 'my-agent'), { secrets: SECRETS }, COMMIT),
      recordValue(recordKey(KEY, 'my-agent-2'), { secrets: SECRETS }, COMMIT),
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
    expect(compareSettings(KEY, 'x', { secrets: SECRETS }, sent, COMMIT)).toEqual({ same: true });
  });

  it('cannot compare two records, a record without a value, or settings without secrets', () => {
    const sent = withRecord(KEY, 'x', { secrets: SECRETS }, COMMIT)!;
    const twice = [...sent, sent[sent.length - 1]!];
    expect(compareSettings(KEY, 'x', { secrets: SECRETS }, twice, COMMIT)).toMatchObject({
      same: false,
    });
    expect(
      compareSettings(KEY, 'x', { secrets: SECRETS }, [{ name: RECORD_NAME }], COMMIT),
    ).toMatchObject({ same: false, reason: expect.stringMatching(/readable record/) });
    expect(compareSettings(KEY, 'x', { resourceSpec: {} }, sent, COMMIT)).toMatchObject({
      same: false,
      reason: expect.stringMatching(/without `secrets`/),
    });
    expect(compareSettings(KEY, 'x', {}, undefined, COMMIT)).toEqual({ same: true });
  });
});
