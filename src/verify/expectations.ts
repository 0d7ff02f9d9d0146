/**
 * What a conversation test checks, pure where it can be: a turn's expectations (`contains`,
 * `matches`, `values` as a partial match), the last message of a reply, and which assistant a
 * case runs (by graph ID or assistant ID; the only graph by default).
 */
import { safeJson, truncate } from '../lib/text.js';
import { redact } from '../lib/untrusted.js';
import type { TestTurn } from './tests-file.js';
import { checkedText, patternMatches } from './pattern.js';

type SdkClient = import('@langchain/langgraph-sdk').Client;

const ASSISTANT_PAGE_SIZE = 100;
const ASSISTANT_MAX_PAGES = 10;

export interface Assistant {
  assistant_id: string;
  graph_id: string;
  metadata?: unknown;
}

/** A failed expectation or a failed step: ends the case with this reason. */
export class CaseFailure extends Error {
  constructor(
    message: string,
    /** The last reply, shown (as untrusted text) under the failure. */
    readonly excerpt?: string,
  ) {
    super(message);
  }
}

/** The reply shown under a failure: in the log, the step summary and the PR comment. */
const REPLY_MAX_CHARS = 1000;

/** The reply that failed a case, masked and cut (still untrusted: printed inert, fenced). */
export function failedReply(failure: CaseFailure | undefined): string | undefined {
  if (failure?.excerpt === undefined) return undefined;
  return truncate(redact(failure.excerpt), REPLY_MAX_CHARS);
}

/** Checks one turn's `expect`; throws `CaseFailure` with the first unmet expectation. */
export function checkTurn(where: string, turn: TestTurn, values: unknown): void {
  const expect = turn.expect;
  if (!expect) return;
  if (expect.contains !== undefined || expect.matches !== undefined) {
    const full = lastMessageContent(values);
    if (full === undefined) {
      throw new CaseFailure(
        `${where}: the thread state has no messages, so \`contains\`/\`matches\` cannot be ` +
          'checked (use `values` for graphs without a `messages` key)',
      );
    }
    // Both checks look at the first 64 KiB of the reply only.
    const content = checkedText(full);
    if (expect.contains !== undefined && !content.includes(expect.contains)) {
      throw new CaseFailure(
        `${where}: the last message does not contain "${expect.contains}"`,
        content,
      );
    }
    if (expect.matches !== undefined && !patternMatches(expect.matches, content)) {
      throw new CaseFailure(
        `${where}: the last message does not match /${expect.matches}/`,
        content,
      );
    }
  }
  if (expect.values !== undefined) {
    const mismatch = partialMismatch(expect.values, values, 'values');
    if (mismatch !== undefined) {
      throw new CaseFailure(`${where}: ${mismatch}`, safeJson(values));
    }
  }
}

/** The text of the last message of `values.messages` (string content or its text parts). */
export function lastMessageContent(values: unknown): string | undefined {
  if (typeof values !== 'object' || values === null) return undefined;
  const messages = (values as { messages?: unknown }).messages;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  const last: unknown = messages[messages.length - 1];
  if (typeof last === 'string') return last;
  if (typeof last !== 'object' || last === null) return undefined;
  const content = (last as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === 'string'
          ? part
          : typeof part === 'object' &&
              part !== null &&
              typeof (part as { text?: unknown }).text === 'string'
            ? (part as { text: string }).text
            : '',
      )
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
  if (typeof expected === 'object' && expected !== null && !Array.isArray(expected)) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) {
      return `${path} is ${describeValue(actual)}, expected a mapping`;
    }
    for (const [key, value] of Object.entries(expected)) {
      const sub = `${path}.${key}`;
      if (!(key in actual)) return `${sub} is missing, expected ${describeValue(value)}`;
      const found = partialMismatch(value, (actual as Record<string, unknown>)[key], sub);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path} is ${describeValue(actual)}, expected a list`;
    if (actual.length !== expected.length) {
      return `${path} has ${actual.length} items, expected ${expected.length}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const found = partialMismatch(expected[i], actual[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (expected === actual) return undefined;
  return `${path} is ${describeValue(actual)}, expected ${describeValue(expected)}`;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  // Masked before the cut: a secret the cut would split is still whole here.
  return truncate(redact(safeJson(value)), 120);
}

export function chooseAssistant(assistants: Assistant[], wanted: string | undefined): Assistant {
  const graphs = [...new Set(assistants.map((a) => a.graph_id))].sort();
  const listed = graphs.length > 0 ? graphs.map((g) => `"${g}"`).join(', ') : '(none)';
  const ofGraph = (graphId: string) =>
    assistants.find(
      (a) =>
        a.graph_id === graphId &&
        (a.metadata as { created_by?: unknown } | undefined)?.created_by === 'system',
    ) ?? assistants.find((a) => a.graph_id === graphId);
  if (wanted !== undefined) {
    const found = assistants.find((a) => a.assistant_id === wanted) ?? ofGraph(wanted);
    if (found) return found;
    throw new CaseFailure(
      `\`assistant\` "${wanted}" is neither a graph ID nor an assistant ID of the agent server ` +
        `(its graphs: ${listed})`,
    );
  }
  if (graphs.length === 1) return ofGraph(graphs[0] as string) as Assistant;
  throw new CaseFailure(
    graphs.length === 0
      ? 'the agent server lists no assistants, so there is no graph to run'
      : `the agent server has ${graphs.length} graphs (${listed}): set \`assistant\` in the case`,
  );
}

export async function listAssistants(
  client: SdkClient,
  signal: AbortSignal | undefined,
): Promise<Assistant[]> {
  const all: Assistant[] = [];
  for (let page = 0; page < ASSISTANT_MAX_PAGES; page++) {
    const batch = await client.assistants.search({
      limit: ASSISTANT_PAGE_SIZE,
      offset: page * ASSISTANT_PAGE_SIZE,
      ...(signal ? { signal } : {}),
    });
    if (!Array.isArray(batch)) break;
    all.push(...batch);
    if (batch.length < ASSISTANT_PAGE_SIZE) break;
  }
  return all;
}

export { safeJson, truncate } from '../lib/text.js';
