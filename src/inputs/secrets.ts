/**
 * The `secrets` input: the deployment's environment, as `NAME=value` lines or one JSON
 * object. Problems never quote a value, nor a line that could not be parsed (it may be a
 * secret): they name the variable or give the line number.
 */
import type { SecretEntry } from './config.js';

/**
 * The environment entry in which `skip-unchanged` keeps its keyed record of the settings a run
 * deployed (see `deployment/skip-unchanged.ts`); refused in the `secrets` input.
 */
export const RECORD_NAME = 'LANGGRAPH_DEPLOY_ACTION_DIGEST';
/**
 * The environment entry in which a create records where it was made (a pull-request run of
 * which pull request, or not), for `command: prune` (see `deployment/origin.ts`).
 */
export const ORIGIN_NAME = 'LANGGRAPH_DEPLOY_ACTION_ORIGIN';
/** The action's own entries: refused in the `secrets` input, never counted as the user's. */
export const ACTION_ENTRIES: ReadonlySet<string> = new Set([RECORD_NAME, ORIGIN_NAME]);

/**
 * Names the platform sets itself and refuses in a deployment's environment. The list is the
 * `langgraph` CLI's, `RESERVED_ENV_VARS` in `libs/cli/langgraph_cli/deploy.py` of
 * https://github.com/langchain-ai/langgraph (the CLI's deploy command drops these names from
 * the secrets it sends). Its comments there: the first group is host-backend's
 * `LANGCHAIN_RESERVED_ENV_VARS`; the second (`LANGSMITH_API_KEY` … `LSD_DEPLOYMENT_TYPE`) is
 * allowed only on self-hosted installs, and the CLI refuses it everywhere, as we do.
 */
export const RESERVED_SECRET_NAMES: ReadonlySet<string> = new Set([
  'LANGCHAIN_TRACING_V2',
  'LANGSMITH_TRACING_V2',
  'LANGCHAIN_ENDPOINT',
  'LANGCHAIN_PROJECT',
  'LANGSMITH_PROJECT',
  'LANGSMITH_LANGGRAPH_GIT_REPO',
  'LANGGRAPH_GIT_REPO_PATH',
  'LANGCHAIN_API_KEY',
  'LANGSMITH_CONTROL_PLANE_API_KEY',
  'POSTGRES_URI',
  'POSTGRES_PASSWORD',
  'DATABASE_URI',
  'LANGSMITH_LANGGRAPH_GIT_REF',
  'LANGSMITH_LANGGRAPH_GIT_REF_SHA',
  'LANGGRAPH_AUTH_TYPE',
  'LANGSMITH_AUTH_ENDPOINT',
  'LANGSMITH_TENANT_ID',
  'LANGSMITH_AUTH_VERIFY_TENANT_ID',
  'LANGSMITH_HOST_PROJECT_ID',
  'LANGSMITH_HOST_PROJECT_NAME',
  'LANGSMITH_HOST_REVISION_ID',
  'LOG_JSON',
  'LOG_DICT_TRACEBACKS',
  'REDIS_URI',
  'LANGCHAIN_CALLBACKS_BACKGROUND',
  'DD_TRACE_PSYCOPG_ENABLED',
  'DD_TRACE_REDIS_ENABLED',
  'LANGSMITH_DEPLOYMENT_NAME',
  'LANGGRAPH_CLOUD_LICENSE_KEY',
  // allowed by the platform on self-hosted installs only
  'LANGSMITH_API_KEY',
  'LANGSMITH_ENDPOINT',
  'POSTGRES_URI_CUSTOM',
  'REDIS_URI_CUSTOM',
  'PATH',
  'PORT',
  'MOUNT_PREFIX',
  'LSD_ENV',
  'LSD_DD_API_KEY',
  'LSD_DD_ENDPOINT',
  'LSD_DEPLOYMENT_TYPE',
  // the JS CLI's list (langchain-ai/langgraphjs, libs/langgraph-cli/src/cli/utils/deploy-helpers.ts)
  // adds this one
  'LANGGRAPH_HOST_API_KEY',
]);

export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const NAME_RULE = 'letters, digits and underscores, not starting with a digit';
const NOT_SHOWN = 'It is not shown here because it may hold a secret.';
export const NO_SECRETS_ON_FORKS =
  'GitHub does not pass secrets to workflows triggered from forks or by Dependabot ' +
  '(Dependabot has its own secrets store).';

export interface ParsedSecrets {
  /** The valid entries, in input order. */
  secrets: SecretEntry[];
  /** One message per problem, each naming the input; never a value. */
  problems: string[];
  /**
   * Everything that may be a secret value, valid or not (values of rejected entries, lines
   * that could not be parsed): mask all of it, whatever the problems.
   */
  sensitive: string[];
}

/** An entry as given, with where it was given, for messages: `line 3` or `key 2`. */
type RawEntry = SecretEntry & { where: string };

export function parseSecrets(text: string): ParsedSecrets {
  const out: ParsedSecrets = { secrets: [], problems: [], sensitive: [] };
  if (text.trim() === '') return out;
  const parse = text.trimStart().startsWith('{') ? parseJsonForm : parseLineForm;
  const entries = parse(text, out);
  if (entries.length === 0 && out.problems.length === 0) {
    // On the platform an empty list changes nothing (the Terraform provider refuses it too):
    // the user may well believe it clears the environment.
    out.problems.push(
      '`secrets` is set but holds no secret (an empty JSON object, or only blank lines and ' +
        'comments). An empty list changes nothing on the platform: the deployment keeps its ' +
        'environment. To keep the environment, leave the input out; to change it, give at ' +
        'least one NAME=value.',
    );
  }
  out.sensitive.push(...entries.map((e) => e.value));
  for (const entry of entries) {
    const given = entries.filter((e) => e.name === entry.name);
    // Each name once, where it first comes: the valid entries keep the input's order.
    if (given[0] !== entry) continue;
    const problem = entryProblem(entry.name, given);
    if (problem) out.problems.push(problem);
    else out.secrets.push({ name: entry.name, value: entry.value });
  }
  out.sensitive = out.sensitive.filter((s) => s.trim() !== '');
  return out;
}

/** NAME=value lines: the entries; problems and what may be secret go to `out`. */
function parseLineForm(text: string, out: ParsedSecrets): RawEntry[] {
  const entries: RawEntry[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const where = `line ${index + 1}`;
    const eq = line.indexOf('=');
    if (eq < 0) {
      out.sensitive.push(line);
      out.problems.push(
        `\`secrets\` ${where} is not of the form NAME=value. ${NOT_SHOWN} ` +
          'Write one NAME=value per line (blank lines and lines starting with # are ignored), ' +
          'or give one JSON object.',
      );
      return;
    }
    const name = line.slice(0, eq).trim();
    const value = line.slice(eq + 1);
    if (!NAME_PATTERN.test(name)) {
      out.sensitive.push(line, value);
      out.problems.push(
        `\`secrets\` ${where}: the name before the first \`=\` is not a valid variable name ` +
          `(${NAME_RULE}). ${NOT_SHOWN}`,
      );
      return;
    }
    entries.push({ name, value, where });
  });
  return entries;
}

/** One JSON object: the entries; problems and what may be secret go to `out`. */
function parseJsonForm(text: string, out: ParsedSecrets): RawEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // Mask every string literal of the text: the values are among them.
    out.sensitive.push(...Array.from(text.matchAll(/"((?:[^"\\\n]|\\.)*)"/g), (m) => m[1] ?? ''));
    out.problems.push(
      `\`secrets\` starts with \`{\` but is not valid JSON: ${describeJsonError(text, error)}. ` +
        `The text is not shown here because it holds secrets. Give one JSON object of ` +
        `"NAME": "value" pairs, or NAME=value lines.`,
    );
    return [];
  }
  const entries: RawEntry[] = [];
  // Starts with `{` and parsed, so it is an object.
  Object.entries(parsed as Record<string, unknown>).forEach(([name, value], index) => {
    const where = `key ${index + 1}`;
    const validName = NAME_PATTERN.test(name);
    const scalar = ['string', 'number', 'boolean'].includes(typeof value);
    if (validName && scalar) entries.push({ name, value: String(value), where });
    else collectLeaves(value, out.sensitive);
    if (!validName) {
      out.sensitive.push(name);
      out.problems.push(
        `\`secrets\` ${where} of the JSON object is not a valid variable name (${NAME_RULE}). ` +
          NOT_SHOWN,
      );
    }
    if (scalar) return;
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : 'an object';
    out.problems.push(
      `\`secrets\`: the value of ${validName ? name : `the name of ${where}`} is ${kind}. Give ` +
        'a string, number or boolean (numbers and booleans are sent as strings).',
    );
  });
  return entries;
}

/** Why the entries of one name are refused (given twice, reserved, empty), if they are. */
function entryProblem(name: string, entries: RawEntry[]): string | undefined {
  return entries.length > 1
    ? `\`secrets\`: ${name} is given more than once (${entries.map((e) => e.where).join(', ')}). ` +
        'Keep one.'
    : RESERVED_SECRET_NAMES.has(name)
      ? `\`secrets\`: ${name} is reserved by LangSmith Deployment, which sets it itself. ` +
        'Remove it from `secrets` (or use another name in your code).'
      : ACTION_ENTRIES.has(name)
        ? `\`secrets\`: ${name} is this action's own record (of the settings it deployed, or ` +
          'of where it created the deployment). Use another name.'
        : (entries[0] as RawEntry).value.trim() === ''
          ? `\`secrets\`: ${name} is empty: is the GitHub secret behind it set? ${NO_SECRETS_ON_FORKS}`
          : undefined;
}

/** Every string, number and boolean in `value`, at any depth, into `into`. */
function collectLeaves(value: unknown, into: string[]): void {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) collectLeaves(item, into);
  } else if (value !== null && value !== undefined) into.push(String(value));
}

/**
 * Where and why `JSON.parse(text)` failed, without quoting the text (V8's messages
 * sometimes include a snippet of it, and the text may be a secret): for example
 * `expected ',' or '}' after property value at line 2, column 7`. The place is the first
 * character that cannot continue a valid JSON text: the end of the longest prefix that is still
 * a valid start of one, found by bisection (V8 does not report a position for every error).
 */
export function describeJsonError(text: string, error: unknown): string {
  let [position, high] = [0, text.length];
  while (position < high) {
    const mid = Math.ceil((position + high) / 2);
    if (isValidPrefix(text.slice(0, mid))) position = mid;
    else high = mid - 1;
  }
  const message = error instanceof Error ? error.message : '';
  const before = text.slice(0, position);
  const where = `line ${before.split('\n').length}, column ${position - before.lastIndexOf('\n')}`;
  if (position >= text.length) return `the text ends before the JSON value is complete (${where})`;
  const reason = /^(.*?) in JSON at position \d+/.exec(message)?.[1];
  if (reason) return `${reason.charAt(0).toLowerCase()}${reason.slice(1)} at ${where}`;
  if (message.startsWith('Unexpected non-whitespace character after JSON')) {
    return `unexpected text after the JSON value at ${where}`;
  }
  return `unexpected character at ${where}`;
}

function isValidPrefix(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    const at = /at position (\d+)/.exec(message);
    return at ? Number(at[1]) >= prefix.length : message.includes('Unexpected end of JSON input');
  }
}
