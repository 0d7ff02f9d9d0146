/**
 * Text helpers shared by the log and the reports, one copy each, so both say the same thing
 * the same way, and the one guard for untyped values. Pure, Node built-ins only. (ANSI sequences: `util.stripVTControlCharacters`;
 * untrusted text for a line of the log: `inert` in `./untrusted.ts`; for Markdown:
 * `../report/markdown.ts`.)
 */
import { createHmac, hkdfSync } from 'node:crypto';

/** A duration for people: `12.3 s`, `4 min 05 s`, `1 h 02 min`; `—` when unknown. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  const seconds = ms / 1000;
  if (seconds < 60) return `${(Math.round(seconds * 10) / 10).toFixed(1)} s`;
  const whole = Math.round(seconds);
  if (whole < 3600) {
    return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
  }
  const minutes = Math.round(whole / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A delay or limit as configured, exact: `30 s`, `0.5 s`, `1.3 s` (one decimal at most). */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/** `text` cut to at most `max` characters, the last one `…` when it was cut. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A plain object (not null, not an array): its keys can be read (parsed JSON, answers). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `url` when it is an absolute http(s) URL (as parsed), else `undefined`. */
export function httpUrl(url: string | undefined): string | undefined {
  const parsed = url ? URL.parse(url.trim()) : null;
  return parsed && /^https?:$/.test(parsed.protocol) ? parsed.href : undefined;
}

/** The message of a thrown value (an `Error`'s message, anything else as a string). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A value as JSON, or as a string when it has no JSON form (a cycle, a BigInt, undefined). */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

// The action's keyed records (the skip record, the origin record): a canonical text of what a
// record covers, and its keyed HMAC, which only a holder of the API key can compute or check.

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
