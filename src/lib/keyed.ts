/**
 * The action's keyed records (the skip record, the origin record): a canonical text of what a
 * record covers, and its keyed HMAC, which only a holder of the API key can compute or check.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { isRecord } from './text.js';

/** The records' format: their values start `v1:`. */
export const VERSION = 'v1';

export const byKey = ([a]: readonly [string, unknown], [b]: readonly [string, unknown]) =>
  a < b ? -1 : a > b ? 1 : 0;

/** JSON with object keys sorted at every depth: one text for one value. */
export function canonicalJson(value: unknown): string {
  // Not a JSON.stringify replacer: an object rebuilt from sorted entries puts integer-like keys
  // ("9", "10") first in numeric order, and the text would differ from earlier records.
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(byKey);
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * `v1:` and the base64url HMAC-SHA-256 of `text`, keyed by HKDF-SHA-256 of the API key, the
 * deployment's name and `info` (what the value is for): only a holder of the API key can
 * compute or check it.
 */
export function keyedValue(apiKey: string, name: string, info: string, text: string): string {
  const key = Buffer.from(hkdfSync('sha256', apiKey, `deployment:${name}`, info, 32));
  return `${VERSION}:${createHmac('sha256', key).update(text).digest('base64url')}`;
}
