/** Small typed-value rules shared by the config sections, and the "looks like a secret" test. */
import type { Checker, Node } from './document.js';
import { typeName } from './document.js';

/**
 * `key` must be a JSON boolean. A string or a number is an error, even one that a lax parser
 * could read as a boolean ("yes", 1): the webhook policy is typed, and a wrong type is only
 * found after a build, when the agent server refuses its configuration.
 */
export function checkBoolean(c: Checker, key: string, node: Node): void {
  if (node.type === 'boolean') return;
  c.error(
    key,
    node,
    `${key} is ${typeName(node)} (${JSON.stringify(node.value ?? null)}): it must be a boolean. Write true or false, without quotes.`,
  );
}

/** `key` must be a JSON integer within [min, max]; a string of digits is an error too. */
export function checkInteger(
  c: Checker,
  key: string,
  node: Node,
  min: number,
  max: number,
  what: string,
): void {
  const raw: unknown = node.value;
  if (node.type !== 'number' || !Number.isInteger(Number(raw))) {
    const unquote =
      node.type === 'string' && /^\s*[+-]?\d+\s*$/.test(String(raw))
        ? ` Write the number ${String(raw).trim()}, without quotes.`
        : '';
    c.error(
      key,
      node,
      `${key} is ${typeName(node)} (${JSON.stringify(raw ?? null)}): it must be ${what}.${unquote}`,
    );
  } else if (Number(raw) < min || Number(raw) > max) {
    c.error(key, node, `${key} is ${Number(raw)}: it must be ${what}.`);
  }
}

const TOKEN_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic…
  /\b[sr]k_(live|test)_[A-Za-z0-9]{16,}/, // Stripe
  /\bgh[pousr]_[A-Za-z0-9]{30,}/, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{16,}/, // GitLab
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack
  /\bAKIA[0-9A-Z]{16}\b/, // AWS
  /\bAIza[0-9A-Za-z_-]{30,}/, // Google
  /\blsv2_(pt|sk)_[A-Za-z0-9_]{20,}/, // LangSmith
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWT
];

/**
 * True when a literal looks like a credential: a known token format, or a long run of
 * token characters that mixes letters and digits. Never put the literal in a message.
 */
export function looksLikeSecret(literal: string): boolean {
  if (TOKEN_PATTERNS.some((re) => re.test(literal))) return true;
  for (const run of literal.match(/[A-Za-z0-9_\-+/=~.]{24,}/g) ?? []) {
    if (/^https?:/.test(run) || run.includes('//')) continue;
    const digits = (run.match(/\d/g) ?? []).length;
    if (digits >= 3 && /[A-Za-z]/.test(run)) return true;
  }
  return false;
}

/** `X-Api-Key` → `X_API_KEY`, for suggested variable names. */
export function toVariableName(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
}
