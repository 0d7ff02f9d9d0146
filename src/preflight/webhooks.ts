/**
 * `webhooks` and `http.disable_webhooks`, as the agent server validates them at start
 * (langgraph-api's WebhooksConfig): header values may contain `${{ env.VAR }}` templates,
 * `VAR` must start with `webhooks.env_prefix` (default `LG_WEBHOOK_`, `""` disables the
 * check) and must be set, or the server does not start.
 */
import type { Checker, Node } from './document.js';
import { child, properties, typeName } from './document.js';
import type { EnvReference } from './finding.js';
import { checkBoolean, looksLikeSecret, toVariableName } from './values.js';
import { checkAllowedFields, checkUrlPolicy } from './webhook-policy.js';

export const DEFAULT_ENV_PREFIX = 'LG_WEBHOOK_';
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SENSITIVE_HEADER = /auth|token|key|secret|signature|password|cookie|credential/i;
const WEBHOOK_KEYS = new Set(['env_prefix', 'url', 'headers', 'allowed_fields']);

function envPrefix(c: Checker, webhooks: Node): string {
  const node = child(webhooks, 'env_prefix');
  if (!node) return DEFAULT_ENV_PREFIX;
  if (node.type === 'string') {
    const prefix = String(node.value);
    if (prefix === '') {
      c.warning(
        'webhooks.env_prefix',
        node,
        `webhooks.env_prefix is empty, so header templates may read any variable of the deployment (LANGSMITH_API_KEY included). Set a prefix such as "${DEFAULT_ENV_PREFIX}" unless that is intended.`,
      );
    }
    return prefix;
  }
  const headers = child(webhooks, 'headers');
  const used = headers?.type === 'object' && (headers.children ?? []).length > 0;
  const message = `webhooks.env_prefix is ${typeName(node)}${used ? ', and with headers set the agent server does not start' : ''}: set a string such as "${DEFAULT_ENV_PREFIX}", or remove the key to use that default.`;
  if (used) c.error('webhooks.env_prefix', node, message);
  else c.warning('webhooks.env_prefix', node, message);
  return DEFAULT_ENV_PREFIX;
}

/** Offset of `fragment` inside the string literal `node` (escapes aside), for the column. */
function offsetIn(c: Checker, node: Node, fragment: string): number {
  const raw = c.doc.text.slice(node.offset, node.offset + node.length);
  const at = raw.indexOf(fragment);
  return at < 0 ? node.offset : node.offset + at;
}

function checkTemplate(
  c: Checker,
  key: string,
  node: Node,
  expression: string,
  whole: string,
  prefix: string,
  refs: EnvReference[],
): void {
  const example = `\${{ env.${prefix || 'MY_'}NAME }}`;
  const at = offsetIn(c, node, whole);
  if (!expression.startsWith('env.')) {
    const hint = expression.startsWith('secrets.')
      ? ` Pass the secret in the action's secrets input as ${prefix}${expression.slice(8)} and write \${{ env.${prefix}${expression.slice(8)} }}.`
      : '';
    c.error(
      key,
      at,
      `${key} uses \${{ ${expression} }}, but header templates can only read environment variables: write ${example}.${hint} The agent server does not start otherwise.`,
    );
    return;
  }
  const variable = expression.slice(4);
  if (!VARIABLE.test(variable)) {
    c.error(
      key,
      at,
      `${key} has the template ${whole}, whose variable name ${variable === '' ? 'is missing' : `"${variable}" is not valid (letters, digits and _, not starting with a digit)`}: write ${example}. The agent server does not start otherwise.`,
    );
    return;
  }
  if (prefix !== '' && !variable.startsWith(prefix)) {
    const rest = variable.toUpperCase().startsWith(prefix.toUpperCase())
      ? variable.slice(prefix.length)
      : variable;
    c.error(
      key,
      at,
      `${key} references env.${variable}, but only variables starting with ${prefix} may be referenced (webhooks.env_prefix). Rename the variable to ${prefix}${rest} in the config and in the action's secrets.`,
    );
    return;
  }
  refs.push({ variable, key, ...c.doc.position(at) });
}

function checkHeaderValue(
  c: Checker,
  key: string,
  name: string,
  node: Node,
  prefix: string,
  refs: EnvReference[],
): void {
  const value = String(node.value);
  const template = /\$\{\{\s*([^}]+?)\s*\}\}/y;
  let literal = '';
  let from = 0;
  for (let at = value.indexOf('${{'); at >= 0; at = value.indexOf('${{', from)) {
    literal += value.slice(from, at);
    template.lastIndex = at;
    const match = template.exec(value);
    if (!match) {
      c.error(
        key,
        offsetIn(c, node, '${{'),
        `${key} has a template that is not closed with "}}": write \${{ env.${prefix || 'MY_'}NAME }}. The agent server does not start otherwise.`,
      );
      from = value.length;
      break;
    }
    checkTemplate(c, key, node, (match[1] ?? '').trim(), match[0], prefix, refs);
    from = template.lastIndex;
  }
  literal += value.slice(from);
  if (/\$\{(?!\{)|(?<!\$)\{\{\s*env\./.test(literal)) {
    c.warning(
      key,
      node,
      `${key} contains something like a template that is not of the form \${{ env.NAME }} (two braces after $), so it is sent literally. Fix the braces if it should read a variable.`,
    );
  }
  const suggested = `${prefix || 'LG_WEBHOOK_'}${toVariableName(name)}`;
  const literalPart = literal.replace(/^\s*(Bearer|Basic|Token|Bot)\s+/i, '').trim();
  if (looksLikeSecret(literal) || (SENSITIVE_HEADER.test(name) && literalPart.length >= 8)) {
    c.warning(
      key,
      node,
      `${key} has a literal value that looks like a secret, readable by anyone who can read the repository. Reference a variable instead: \${{ env.${suggested} }} in the config, and ${suggested} in the action's secrets input.`,
    );
  }
}

function checkHeaders(c: Checker, webhooks: Node, prefix: string): EnvReference[] {
  const refs: EnvReference[] = [];
  const headers = child(webhooks, 'headers');
  if (!headers || headers.type === 'null') return refs;
  if (headers.type !== 'object') {
    c.error(
      'webhooks.headers',
      headers,
      `webhooks.headers is ${typeName(headers)}: it must be an object of header names to string values.`,
    );
    return refs;
  }
  for (const { key: name, keyNode, value } of properties(headers)) {
    const key = `webhooks.headers.${name}`;
    if (!HEADER_NAME.test(name)) {
      c.warning(
        key,
        keyNode,
        `${key}: "${name}" is not a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~- only), so webhook requests may fail. Rename the header.`,
      );
    }
    if (value.type !== 'string') {
      c.error(
        key,
        value,
        `${key} is ${typeName(value)}: header values must be strings, and the agent server does not start otherwise.`,
      );
      continue;
    }
    checkHeaderValue(c, key, name, value, prefix, refs);
  }
  return refs;
}

/** Checks `webhooks` and `http.disable_webhooks`; returns the env references to resolve. */
export function checkWebhooks(c: Checker, root: Node): EnvReference[] {
  const http = child(root, 'http');
  if (http && http.type !== 'object' && http.type !== 'null') {
    c.error('http', http, `http is ${typeName(http)}: it must be an object.`);
  }
  const disable = child(http, 'disable_webhooks');
  if (disable) checkBoolean(c, 'http.disable_webhooks', disable);

  const webhooks = child(root, 'webhooks');
  if (!webhooks || webhooks.type === 'null') return [];
  if (webhooks.type !== 'object') {
    c.error(
      'webhooks',
      webhooks,
      `webhooks is ${typeName(webhooks)}: it must be an object (env_prefix, url, headers, allowed_fields).`,
    );
    return [];
  }
  for (const { key, keyNode } of properties(webhooks)) {
    if (!WEBHOOK_KEYS.has(key)) {
      c.warning(
        `webhooks.${key}`,
        keyNode,
        `webhooks has an unknown key "${key}", which is ignored. Known keys: ${[...WEBHOOK_KEYS].join(', ')}.`,
      );
    }
  }
  const prefix = envPrefix(c, webhooks);
  const refs = checkHeaders(c, webhooks, prefix);
  checkUrlPolicy(c, webhooks);
  checkAllowedFields(c, webhooks);
  return refs;
}
