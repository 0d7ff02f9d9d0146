/**
 * What a conversation test checks, pure: a turn's expectations (`contains`, `matches`,
 * `values` as a partial match) and the last message of a reply.
 *
 * `matches` is RE2 syntax (no lookarounds or back-references) on `re2js`, whose time grows
 * linearly with the text, on the first 64 KiB of the reply; the size of the compiled program
 * is bounded as the tests file is read (`patternProblem` in `inputs/tests-file.ts`).
 */
import { isRecord, safeJson, truncate } from '../lib/text.js';
import { redact } from '../lib/untrusted.js';
import type { TestTurn } from '../inputs/tests-file.js';
import { CheckError } from './agent-server.js';
import { RE2JS } from 're2js';

/** The most of a reply that `contains` and `matches` look at (in UTF-16 code units). */
export const MAX_CHECKED_CHARS = 64 * 1024;

const compiled = new Map<string, RE2JS>();

/** Whether `source` (validated by `patternProblem`) finds a match in the first 64 KiB of `text`. */
export function patternMatches(source: string, text: string): boolean {
  const pattern = compiled.get(source) ?? RE2JS.compile(source);
  compiled.set(source, pattern);
  return pattern.matcher(text.slice(0, MAX_CHECKED_CHARS)).find();
}

/** Checks one turn's `expect`; throws `CheckError` with the first unmet expectation. */
export function checkTurn(where: string, turn: TestTurn, values: unknown): void {
  const expect = turn.expect;
  if (!expect) return;
  if (expect.contains !== undefined || expect.matches !== undefined) {
    const full = lastMessageContent(values);
    if (full === undefined) {
      throw new CheckError(
        `${where}: the thread state has no messages, so \`contains\`/\`matches\` cannot be ` +
          'checked (use `values` for graphs without a `messages` key)',
      );
    }
    // Both checks look at the first 64 KiB of the reply only.
    const content = full.slice(0, MAX_CHECKED_CHARS);
    const unmet =
      expect.contains !== undefined && !content.includes(expect.contains)
        ? `${where}: the last message does not contain "${expect.contains}"`
        : expect.matches !== undefined && !patternMatches(expect.matches, content)
          ? `${where}: the last message does not match /${expect.matches}/`
          : undefined;
    if (unmet !== undefined) throw Object.assign(new CheckError(unmet), { excerpt: content });
  }
  const mismatch =
    expect.values === undefined ? undefined : partialMismatch(expect.values, values, 'values');
  if (mismatch === undefined) return;
  throw Object.assign(new CheckError(`${where}: ${mismatch}`), { excerpt: safeJson(values) });
}

/** The text of the last message of `values.messages` (string content or its text parts). */
export function lastMessageContent(values: unknown): string | undefined {
  const messages = (values as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages)) return undefined;
  const last: unknown = messages.at(-1);
  if (typeof last === 'string') return last;
  if (typeof last !== 'object' || last === null) return undefined;
  const content = (last as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        const text = typeof part === 'string' ? part : (part as { text?: unknown } | null)?.text;
        return typeof text === 'string' ? text : '';
      })
      .join('');
  }
  return content === undefined || content === null ? '' : safeJson(content);
}

/**
 * Where `actual` does not match `expected` partially: mappings need the expected keys only
 * (recursively), lists the same length with each item matched, other values equal. Undefined
 * when it matches.
 */
export function partialMismatch(
  expected: unknown,
  actual: unknown,
  path: string,
): string | undefined {
  const list = Array.isArray(expected);
  if (!list && !isRecord(expected)) {
    if (expected === actual) return undefined;
    return `${path} is ${describeValue(actual)}, expected ${describeValue(expected)}`;
  }
  if (list ? !Array.isArray(actual) : !isRecord(actual)) {
    return `${path} is ${describeValue(actual)}, expected ${list ? 'a list' : 'a mapping'}`;
  }
  const found = actual as Record<string, unknown> & unknown[];
  if (list && found.length !== expected.length) {
    return `${path} has ${found.length} items, expected ${expected.length}`;
  }
  for (const [key, value] of Object.entries(expected)) {
    const sub = list ? `${path}[${key}]` : `${path}.${key}`;
    if (!(key in found)) return `${sub} is missing, expected ${describeValue(value)}`;
    const mismatch = partialMismatch(value, found[key], sub);
    if (mismatch !== undefined) return mismatch;
  }
  return undefined;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  // Masked before the cut: a secret the cut would split is still whole here.
  return truncate(redact(safeJson(value)), 120);
}
