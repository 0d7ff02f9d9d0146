/** Small typed-value rules shared by the config sections, and the "looks like a secret" test. */
import type { Checker, Node } from './document.js';
import { typeName } from './document.js';

// Strings that the agent server's (pydantic, lax mode) validation turns into booleans.
const BOOLEAN_WORDS = new Set([
  '0',
  '1',
  'true',
  'false',
  'yes',
  'no',
  'on',
  'off',
  't',
  'f',
  'y',
  'n',
]);

/** `key` must be a JSON boolean; a string or 0/1 that the server would coerce is a warning. */
export function checkBoolean(c: Checker, key: string, node: Node): void {
  if (node.type === 'boolean') return;
  const coercible =
    (node.type === 'string' && BOOLEAN_WORDS.has(String(node.value).toLowerCase())) ||
    (node.type === 'number' && (node.value === 0 || node.value === 1));
  const message = `${key} is ${typeName(node)} (${JSON.stringify(node.value ?? null)}): write true or false, without quotes.`;
  if (coercible) c.warning(key, node, message);
  else c.error(key, node, message);
}

/**
 * `key` must be an integer within [min, max]; a string of digits in range (which the server
 * would coerce) is a warning.
 */
export function checkInteger(
  c: Checker,
  key: string,
  node: Node,
  min: number,
  max: number,
  what: string,
): void {
  const raw: unknown = node.value;
  const fromString = node.type === 'string' && /^\s*[+-]?\d+\s*$/.test(String(raw));
  const value =
    node.type === 'number' ? Number(raw) : fromString ? Number(String(raw).trim()) : NaN;
  if (!Number.isInteger(value)) {
    c.error(
      key,
      node,
      `${key} is ${typeName(node)} (${JSON.stringify(raw ?? null)}): it must be ${what}.`,
    );
  } else if (value < min || value > max) {
    c.error(key, node, `${key} is ${value}: it must be ${what}.`);
  } else if (fromString) {
    c.warning(
      key,
      node,
      `${key} is the string "${String(raw)}": write the number ${value}, without quotes.`,
    );
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
