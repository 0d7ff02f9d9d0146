/**
 * The GitHub runner's workflow-command protocol, implemented directly.
 *
 * `@actions/core` does the same, but importing it loads `@actions/http-client` and undici
 * (about 40 ms on these machines), which would dominate the cold start of a run that fails
 * on an input error. The formats below are those of `@actions/core` 3 (`command.ts`,
 * `file-command.ts`); `__tests__/runner.test.ts` checks them against the library itself.
 *
 * Every line this module prints first goes through `redact()`: values registered with
 * `setSecret()` are replaced by `***` even where the runner's own masking does not apply
 * (local runs, `act`, a value that reached a message before the runner saw `::add-mask::`).
 */
import { appendFileSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { EOL } from 'node:os';
import { stripVTControlCharacters } from 'node:util';

export interface AnnotationProperties {
  title?: string;
  file?: string;
  startLine?: number;
  endLine?: number;
  startColumn?: number;
  endColumn?: number;
}

/** What every module logs through; tests pass their own. */
export interface Logger {
  info(message: string): void;
  debug(message: string): void;
  notice(message: string, properties?: AnnotationProperties): void;
  warning(message: string, properties?: AnnotationProperties): void;
  error(message: string, properties?: AnnotationProperties): void;
}

/**
 * State shared by every copy of this module in the process: the bundle's entry (CommonJS, for
 * a fast start) and the flow (ESM chunks) each carry one, and both must see the same secrets.
 */
interface RunnerState {
  secrets: Set<string>;
  write: (text: string) => void;
}
/**
 * Writes to stdout with `fs.writeSync`: the workflow commands must reach the log in order and
 * before the process exits, and initialising `process.stdout` (a stream) costs ~3 ms at start.
 */
let stdoutClosed = false;
function writeStdout(text: string): void {
  if (stdoutClosed) return;
  const buffer = Buffer.from(text, 'utf8');
  for (let offset = 0; offset < buffer.length;) {
    try {
      offset += writeSync(1, buffer, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The reader went away: nobody can see the rest, and the run's result must not change.
      if (code === 'EPIPE') {
        stdoutClosed = true;
        return;
      }
      // A non-blocking pipe that is full: try again (the reader drains it).
      if (code !== 'EAGAIN') throw error;
    }
  }
}

const STATE_KEY = Symbol.for('langgraph-deploy-action.runner');
const shared = globalThis as typeof globalThis & { [STATE_KEY]?: RunnerState };
const state: RunnerState = (shared[STATE_KEY] ??= {
  secrets: new Set<string>(),
  write: writeStdout,
});
const secretValues = state.secrets;
const MIN_REDACTED_LENGTH = 3;

/** Replaces every registered secret value (longest first) with `***`. */
export function redact(text: string): string {
  if (secretValues.size === 0 || text.length === 0) return text;
  let out = text;
  for (const value of [...secretValues].sort((a, b) => b.length - a.length)) {
    // Values this short are no secret, and replacing them would garble every message
    // (a secret "1" would turn "HTTP 401" into "HTTP 40***"); they are still add-masked.
    if (value.length >= MIN_REDACTED_LENGTH && out.includes(value))
      out = out.split(value).join('***');
  }
  return out;
}

/** Runs of whitespace (tabs and line breaks included) → one space, trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Test helper: forget registered secrets. */
export function resetSecretsForTests(): void {
  secretValues.clear();
}

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return s
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A')
    .replace(/:/g, '%3A')
    .replace(/,/g, '%2C');
}

/** Test helper: capture what would go to stdout. Returns a function that restores it. */
export function captureOutputForTests(sink: (text: string) => void): () => void {
  const previous = state.write;
  state.write = sink;
  return () => {
    state.write = previous;
  };
}

function issueCommand(
  command: string,
  properties: Record<string, string | number | undefined>,
  message: string,
): void {
  const props = Object.entries(properties)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(redact(String(v)))}`)
    .join(',');
  state.write(`::${command}${props ? ' ' + props : ''}::${escapeData(redact(message))}${EOL}`);
}

/**
 * Masks a value in the runner's log (`::add-mask::`), line by line for multi-line values
 * (the runner masks per line), and registers it for `redact()`.
 */
export function setSecret(value: string): void {
  if (!value) return;
  const lines = [value, ...value.split(/\r?\n/)].map((p) => p.trim());
  // A message that reflows whitespace (an error detail collapsed to one line) would show the
  // value in its collapsed form: mask that form too.
  const parts = [...lines, ...lines.map(collapseWhitespace)].filter((p) => p.length > 0);
  for (const part of new Set(parts)) {
    if (secretValues.has(part)) continue;
    secretValues.add(part);
    // Not through issueCommand: the value itself must not be redacted here.
    state.write(`::add-mask::${escapeData(part)}${EOL}`);
  }
}

/** `core.getInput` semantics: `INPUT_<NAME>` (spaces → `_`, upper-cased, `-` kept), trimmed. */
export function getInput(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** Whether a raw input value is a YAML 1.2 core-schema boolean (`core.getBooleanInput`). */
export function parseBoolean(value: string): boolean | undefined {
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE'].includes(value)) return false;
  return undefined;
}

export function setOutput(name: string, value: string, env: NodeJS.ProcessEnv = process.env): void {
  const file = env['GITHUB_OUTPUT'];
  if (file) {
    const delimiter = `ghadelimiter_${randomUUID()}`;
    if (name.includes(delimiter) || value.includes(delimiter)) {
      throw new Error('Unexpected input: output name or value contains the delimiter');
    }
    appendFileSync(file, `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
    return;
  }
  state.write(EOL);
  issueCommand('set-output', { name }, value);
}

/**
 * An info line is plain text: the action never means a workflow command by one. So whatever
 * a message holds (an untrusted value a call site forgot to pass through `inert()`), each of
 * its lines has its control characters removed and `::` / `##[` neutralised.
 */
function infoLines(message: string): string {
  return redact(message)
    .split(/\r\n|\r|\n|\u2028|\u2029/)
    .map((line) =>
      neutraliseCommands(stripVTControlCharacters(line).replace(BLOCK_CONTROL_CHARACTERS, '')),
    )
    .join(EOL);
}

export const runnerLogger: Logger = {
  info: (message) => state.write(infoLines(message) + EOL),
  debug: (message) => issueCommand('debug', {}, message),
  notice: (message, p = {}) => issueCommand('notice', toProps(p), message),
  warning: (message, p = {}) => issueCommand('warning', toProps(p), message),
  error: (message, p = {}) => issueCommand('error', toProps(p), message),
};

function toProps(p: AnnotationProperties): Record<string, string | number | undefined> {
  return {
    title: p.title,
    file: p.file,
    line: p.startLine,
    endLine: p.endLine,
    col: p.startColumn,
    endColumn: p.endColumn,
  };
}

export function startGroup(name: string): void {
  issueCommand('group', {}, name);
}

export function endGroup(): void {
  issueCommand('endgroup', {}, '');
}

// ---------------------------------------------------------------------------------------------
// Untrusted text: everything the action did not write (control-plane answers, log lines,
// agent output, GitHub answers) reaches stdout only through the two functions below.
// The runner executes a line that starts (after spaces) with `::`, and the legacy
// `##[command]` form anywhere in a line, splitting lines at CR and LF.
// ---------------------------------------------------------------------------------------------

/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** The same but the tab, for lines of a block. */
// eslint-disable-next-line no-control-regex
const BLOCK_CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Makes an untrusted value safe inside one of the action's own lines: secrets are masked
 * first (before anything is cut), ANSI sequences removed, every control character (CR and
 * LF included) replaced by a space, and `::` / `##[` broken up so the runner cannot read a
 * command in them. `maxLength` cuts the result (after masking) with an ellipsis.
 */
export function inert(text: unknown, maxLength?: number): string {
  let out = redact(String(text ?? ''));
  out = stripVTControlCharacters(out).replace(CONTROL_CHARACTERS, ' ');
  out = neutraliseCommands(out);
  if (maxLength !== undefined && out.length > maxLength) {
    out = out.slice(0, Math.max(0, maxLength - 1)).trimEnd() + '…';
  }
  return out;
}

/**
 * `::` → `:\u200b:` and `##[` → `#\u200b#[`: the same to a reader, no command to the runner.
 * Every pair of colons is broken (`:::` too), and a lone `#` before `[` after a `#`.
 */
export function neutraliseCommands(text: string): string {
  return text.replace(/:(?=:)/g, ':\u200b').replace(/#(?=#\[)/g, '#\u200b');
}

/**
 * Prints a block of untrusted lines (a log tail, streamed logs, run output) between
 * `::stop-commands::<fresh random token>` and `::<token>::`, so nothing in it is executed.
 * Secrets are masked in the whole text before it is split into lines; ANSI sequences and
 * other control characters (but tabs) are removed from each line.
 */
export function printUntrusted(
  text: string | readonly string[],
  write: (line: string) => void = (l) => state.write(l + EOL),
): void {
  const whole = redact(typeof text === 'string' ? text : text.join('\n'));
  const token = `untrusted-${randomUUID()}`;
  write(`::stop-commands::${token}`);
  for (const line of whole.split(/\r\n|\r|\n/)) {
    write(stripVTControlCharacters(line).replace(BLOCK_CONTROL_CHARACTERS, ''));
  }
  write(`::${token}::`);
}
