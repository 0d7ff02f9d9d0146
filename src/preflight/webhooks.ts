/**
 * `webhooks` and `http.disable_webhooks`, as the agent server validates them at start
 * (langgraph-api's WebhooksConfig, WebhookUrlPolicy and webhooks validator): header values may
 * contain `${{ env.VAR }}` templates, `VAR` must start with `webhooks.env_prefix` (default
 * `LG_WEBHOOK_`, `""` disables the check) and must be set, or the server does not start;
 * `webhooks.url` is the URL policy for user-supplied webhook endpoints.
 */
import type { Checker, EnvReference, Node } from './document.js';
import { child, properties, typeName } from './document.js';
import { looksLikeSecret } from './env.js';
import { NAME_PATTERN } from '../inputs/secrets.js';

const DEFAULT_ENV_PREFIX = 'LG_WEBHOOK_';
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SENSITIVE_HEADER = /auth|token|key|secret|signature|password|cookie|credential/i;
const HOST_LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;
// The fields a webhook payload can carry (langgraph-api's VALID_WEBHOOK_ALLOWED_FIELDS).
const PAYLOAD_FIELDS = [
  'assistant_id',
  'created_at',
  'error',
  'kwargs',
  'metadata',
  'multitask_strategy',
  'run_ended_at',
  'run_id',
  'run_started_at',
  'status',
  'thread_id',
  'updated_at',
  'values',
  'webhook_sent_at',
];

/** Checks the value `node` of `key` (and reports through `c`). */
type Rule = (c: Checker, key: string, node: Node) => void;

/** An array whose items `item` checks; another type is reported with what it `must` be. */
function list(must: string, item: Rule): Rule {
  return (c, key, node) => {
    if (node.type !== 'array') return c.mistyped(key, node, `it must be ${must}.`);
    (node.children ?? []).forEach((value, i) => item(c, `${key}[${i}]`, value));
  };
}

/** An object of the known `keys`, each value checked by its rule (a null one left out if `optional`). */
function object(keys: Record<string, Rule>, optional = false): Rule {
  const known = Object.keys(keys);
  return (c, key, node) => {
    if (node.type !== 'object')
      return c.mistyped(key, node, `it must be an object (${known.join(', ')}).`);
    c.unknownKeys(key, node, known);
    for (const { key: name, value } of properties(node)) {
      // Own rules only: a key such as "toString" must not reach Object.prototype's.
      const skip = !known.includes(name) || (optional && value.type === 'null');
      if (!skip) keys[name]?.(c, `${key}.${name}`, value);
    }
  };
}

/**
 * `key` must be a JSON boolean, or with `max` an integer within [1, max]. A string or a number
 * is an error, even one that a lax parser could read as a boolean ("yes", 1) or an integer
 * ("443"): the webhook policy is typed, and a wrong type is only found after a build, when the
 * agent server refuses its configuration.
 */
function checkScalar(c: Checker, key: string, node: Node, what = 'a boolean', max?: number) {
  const raw: unknown = node.value;
  const boolean = max === undefined;
  if (boolean ? node.type !== 'boolean' : node.type !== 'number' || !Number.isInteger(raw)) {
    const quoted = node.type === 'string' && /^\s*[+-]?\d+\s*$/.test(String(raw));
    const advice = boolean
      ? ' Write true or false, without quotes.'
      : quoted
        ? ` Write the number ${String(raw).trim()}, without quotes.`
        : '';
    const shown = `${typeName(node)} (${JSON.stringify(raw ?? null)})`;
    c.error(key, node, `${key} is ${shown}: it must be ${what}.${advice}`);
  } else if (!boolean && (Number(raw) < 1 || Number(raw) > max)) {
    c.error(key, node, `${key} is ${Number(raw)}: it must be ${what}.`);
  }
}

function envPrefix(c: Checker, webhooks: Node | undefined): string {
  const key = 'webhooks.env_prefix';
  const node = child(webhooks, 'env_prefix');
  const unprefixed = `${key} is empty, so header templates may read any variable of the deployment (LANGSMITH_API_KEY included). Set a prefix such as "${DEFAULT_ENV_PREFIX}" unless that is intended.`;
  if (node?.type === 'string' && node.value === '') c.warning(key, node, unprefixed);
  if (!node || node.type === 'string') return node ? String(node.value) : DEFAULT_ENV_PREFIX;
  const used = properties(child(webhooks, 'headers')).length > 0;
  const message = `${key} is ${typeName(node)}${used ? ', and with headers set the agent server does not start' : ''}: set a string such as "${DEFAULT_ENV_PREFIX}", or remove the key to use that default.`;
  (used ? c.error : c.warning)(key, node, message);
  return DEFAULT_ENV_PREFIX;
}

/** One header: its name, its value's `${{ … }}` templates (each read into `refs`), its literal text. */
function checkHeader(
  c: Checker,
  { key: name, keyNode, value: node }: ReturnType<typeof properties>[number],
  prefix: string,
  refs: EnvReference[],
): void {
  const key = `webhooks.headers.${name}`;
  const badName = `${key}: "${name}" is not a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~- only), so webhook requests may fail. Rename the header.`;
  if (!HEADER_NAME.test(name)) c.warning(key, keyNode, badName);
  const must = 'header values must be strings, and the agent server does not start otherwise.';
  if (node.type !== 'string') return c.mistyped(key, node, must);
  const example = `\${{ env.${prefix || 'MY_'}NAME }}`;
  // Each `${{ … }}` template is checked and cut out; the rest is the literal text. A `${{`
  // that is not closed ends the templates: what follows it is neither.
  const template = /\$\{\{\s*([^}]+?)\s*\}\}|\$\{\{[\s\S]*/g;
  const literal = String(node.value).replace(template, (whole: string, inner?: string) => {
    const expression = inner?.trim() ?? '';
    const variable = expression.slice(4);
    const secret = expression.startsWith('secrets.') ? expression.slice(8) : undefined;
    let problem: string | undefined;
    if (inner === undefined)
      problem = `has a template that is not closed with "}}": write ${example}. The agent server does not start otherwise.`;
    else if (!expression.startsWith('env.'))
      problem = `uses \${{ ${expression} }}, but header templates can only read environment variables: write ${example}.${secret === undefined ? '' : ` Pass the secret in the action's secrets input as ${prefix}${secret} and write \${{ env.${prefix}${secret} }}.`} The agent server does not start otherwise.`;
    else if (!NAME_PATTERN.test(variable))
      problem = `has the template ${whole}, whose variable name ${variable === '' ? 'is missing' : `"${variable}" is not valid (letters, digits and _, not starting with a digit)`}: write ${example}. The agent server does not start otherwise.`;
    else if (prefix !== '' && !variable.startsWith(prefix))
      problem = `references env.${variable}, but only variables starting with ${prefix} may be referenced (webhooks.env_prefix). Rename the variable to ${prefix}${variable.slice(variable.toUpperCase().startsWith(prefix.toUpperCase()) ? prefix.length : 0)} in the config and in the action's secrets.`;
    // Where the template is in the string literal (escapes aside), for the column.
    const source = c.text.slice(node.offset, node.offset + node.length);
    const at = node.offset + Math.max(0, source.indexOf(inner === undefined ? '${{' : whole));
    if (problem) c.error(key, at, `${key} ${problem}`);
    else refs.push({ variable, key, ...c.position(at) });
    return '';
  });
  const lookAlike = `${key} contains something like a template that is not of the form \${{ env.NAME }} (two braces after $), so it is sent literally. Fix the braces if it should read a variable.`;
  if (/\$\{(?!\{)|(?<!\$)\{\{\s*env\./.test(literal)) c.warning(key, node, lookAlike);
  // `X-Api-Key` → `X_API_KEY`, for the suggested variable name.
  const variable = name.toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
  const suggested = `${prefix || DEFAULT_ENV_PREFIX}${variable.replace(/^_+|_+$/g, '')}`;
  const literalPart = literal.replace(/^\s*(Bearer|Basic|Token|Bot)\s+/i, '').trim();
  const secret = `${key} has a literal value that looks like a secret, readable by anyone who can read the repository. Reference a variable instead: \${{ env.${suggested} }} in the config, and ${suggested} in the action's secrets input.`;
  if (looksLikeSecret(literal) || (SENSITIVE_HEADER.test(name) && literalPart.length >= 8))
    c.warning(key, node, secret);
}

function checkDomain(c: Checker, key: string, node: Node): void {
  const domain = String(node.value);
  const host = domain.startsWith('*.') ? domain.slice(2) : domain;
  let hint = '';
  if (domain.includes('://')) hint = ' Remove the scheme: only the host name goes here.';
  else if (/[/?#]/.test(host)) hint = ' Remove the path: only the host name goes here.';
  else if (host.includes(':')) hint = ' Remove the port (ports go to allowed_ports).';
  const labels = host.replace(/\.$/, '').split('.');
  let problem: string | undefined;
  if (node.type !== 'string' || domain === '')
    problem = `is ${node.type === 'string' ? 'empty' : typeName(node)}: allowed_domains holds host names such as "hooks.example.com" or "*.example.com".`;
  else if (domain.includes('*') && !domain.startsWith('*.'))
    problem = `is "${domain}": a wildcard is only allowed as a prefix, in the form "*.example.com". The agent server does not start otherwise.`;
  else if (hint || host.length > 253 || !labels.every((l) => HOST_LABEL.test(l)))
    problem = `is "${domain}", which is not a host name (e.g. "hooks.example.com" or "*.example.com"), so no webhook URL would match it.${hint}`;
  if (problem) c.error(key, node, `${key} ${problem}`);
}

function checkField(c: Checker, key: string, node: Node): void {
  if (node.type === 'string' && PAYLOAD_FIELDS.includes(String(node.value))) return;
  const value = node.type === 'string' ? `"${String(node.value)}"` : typeName(node);
  const message = `${key} is ${value}, which is not a webhook payload field; the agent server does not start with it. Valid fields: ${PAYLOAD_FIELDS.join(', ')}.`;
  c.error(key, node, message);
}

/** `webhooks.url`, the agent server's WebhookUrlPolicy. */
const URL_POLICY = object({
  require_https: checkScalar,
  allowed_domains: list(
    'an array of host names, e.g. ["hooks.example.com", "*.example.com"]',
    checkDomain,
  ),
  allowed_ports: list('an array of port numbers, e.g. [443, 8443]', (c, key, node) =>
    checkScalar(c, key, node, 'an integer port number from 1 to 65535', 65535),
  ),
  max_url_length: (c, key, node) => {
    const what = 'an integer of at least 1 (a number of characters)';
    checkScalar(c, key, node, what, Number.MAX_SAFE_INTEGER);
  },
  disable_loopback: checkScalar,
  disable_private_ips: checkScalar,
});

/** Checks `webhooks` and `http.disable_webhooks`; returns the env references to resolve. */
export function checkWebhooks(c: Checker, root: Node): EnvReference[] {
  const http = child(root, 'http');
  if (http && http.type !== 'object' && http.type !== 'null')
    c.mistyped('http', http, 'it must be an object.');
  const disable = child(http, 'disable_webhooks');
  if (disable) checkScalar(c, 'http.disable_webhooks', disable);

  const webhooks = child(root, 'webhooks');
  const prefix = envPrefix(c, webhooks);
  const refs: EnvReference[] = [];
  const sections = object(
    {
      env_prefix: () => undefined, // read above: the headers need it
      url: URL_POLICY,
      headers: (c, key, node) => {
        if (node.type !== 'object')
          return c.mistyped(key, node, 'it must be an object of header names to string values.');
        for (const header of properties(node)) checkHeader(c, header, prefix, refs);
      },
      allowed_fields: list(
        `a list of payload field names (${PAYLOAD_FIELDS.join(', ')})`,
        checkField,
      ),
    },
    true,
  );
  if (webhooks && webhooks.type !== 'null') sections(c, 'webhooks', webhooks);
  return refs;
}
