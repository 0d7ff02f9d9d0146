/**
 * What goes to the runner: `@actions/core` for the protocol (outputs, masks,
 * annotations, groups, the exit code), and what core does not do: in-process redaction
 * (`redact()`: secrets are `***` even where the runner's own masking does not apply, such as
 * local runs, `act`, or a value that reached a message before `::add-mask::`), and the
 * untrusted-text layer at the end of this file.
 */
import * as core from '@actions/core';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';
import { stripVTControlCharacters } from 'node:util';

/**
 * The reader of stdout went away (a closed pipe): nobody can see the rest, and the run's
 * result must not change (without a listener, the stream's error would end the process).
 * Called once by the entry: a module-level listener would be added again by every test.
 */
export function keepGoingWhenStdoutCloses(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

const secretValues = new Set<string>();
const MIN_REDACTED_LENGTH = 3;

/** Replaces every registered secret value (longest first) with `***`. */
export function redact(text: string): string {
  if (secretValues.size === 0 || text.length === 0) return text;
  let out = text;
  for (const value of [...secretValues].sort((a, b) => b.length - a.length)) {
    // Values this short are no secret, and replacing them would garble every message
    // (a secret "1" would turn "HTTP 401" into "HTTP 40***"); they are still add-masked.
    if (value.length >= MIN_REDACTED_LENGTH) out = out.replaceAll(value, '***');
  }
  return out;
}

export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function resetSecretsForTests(): void {
  secretValues.clear();
}

/**
 * Masks a value in the runner's log (`core.setSecret`), line by line for multi-line values
 * (the runner masks per line), and registers it for `redact()`.
 */
export function setSecret(value: string): void {
  const lines = [value, ...value.split(/\r?\n/)].map((p) => p.trim());
  // A message that reflows whitespace (an error detail collapsed to one line) would show the
  // value in its collapsed form: mask that form too.
  const plain = [...lines, ...lines.map(collapseWhitespace)];
  // Answers and agent output are often shown as JSON, where `"`, `\` and control characters
  // are escaped: mask that form of the value too.
  for (const part of new Set([...plain, ...plain.map((p) => JSON.stringify(p).slice(1, -1))])) {
    if (part === '' || secretValues.has(part)) continue;
    secretValues.add(part);
    core.setSecret(part);
  }
}

/** Fails the step (`process.exitCode` 1, as `core.setFailed`) with one `::error`. */
export function setFailed(message: string, properties?: core.AnnotationProperties): void {
  runnerLogger.error(message, properties);
  process.exitCode = core.ExitCode.Failure;
}

/**
 * An info line is plain text: the action never means a workflow command by one. So whatever
 * a message holds (an untrusted value a call site forgot to pass through `inert()`), each of
 * its lines has its control characters removed and `::` / `##[` neutralised.
 */
function infoLines(message: string): string {
  return redact(message)
    .split(/\r\n|\r|\n|\u2028|\u2029/)
    .map((line) => neutraliseCommands(blockLine(line)))
    .join('\n');
}

/** An annotation with secrets masked in its message, title and file (core escapes them). */
function annotation(level: 'notice' | 'warning' | 'error') {
  return (message: string, p: core.AnnotationProperties = {}): void =>
    core[level](redact(message), {
      ...p,
      ...(p.title !== undefined && { title: redact(p.title) }),
      ...(p.file !== undefined && { file: redact(p.file) }),
    });
}

export const runnerLogger = {
  info: (message: string) => core.info(infoLines(message)),
  debug: (message: string) => core.debug(redact(message)),
  notice: annotation('notice'),
  warning: annotation('warning'),
  error: annotation('error'),
};

/** What every module logs through (the runner's; tests pass their own). */
export type Logger = typeof runnerLogger;

/**
 * Appends Markdown to the step summary (the file named by `GITHUB_STEP_SUMMARY`), registered
 * secrets masked first: the one writer of the summary. Nothing when the variable is not set;
 * never throws (a failed write is a warning, with `logger`). Not `core.summary`: it keeps the
 * first file's path for the whole process and refuses a file that does not exist yet.
 */
export function appendStepSummary(markdown: string, env = process.env, logger?: Logger): void {
  const file = env['GITHUB_STEP_SUMMARY'];
  if (!file) return logger?.debug('GITHUB_STEP_SUMMARY is not set: no step summary written.');
  try {
    appendFileSync(file, redact(markdown) + EOL, 'utf8');
  } catch (error) {
    logger?.warning(
      redact(
        `Could not write the step summary to ${file}: ${(error as Error).message}. ` +
          "The run's result is unchanged.",
      ),
      { title: 'Step summary not written' },
    );
  }
}

// Untrusted text (control-plane answers, log lines, agent output, GitHub answers) reaches
// stdout only through `inert()` and `printUntrusted()`. The runner executes a line that starts
// (after spaces) with `::`, and the legacy `##[command]` form anywhere in a line, splitting
// lines at CR and LF.

/** C0 and C1 control characters but the tab, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/** One line of a block: ANSI sequences and control characters but the tab removed. */
function blockLine(line: string): string {
  return stripVTControlCharacters(line).replace(CONTROL_CHARACTERS, '');
}

/**
 * Makes an untrusted value safe inside one of the action's own lines: secrets are masked
 * first (before anything is cut), ANSI sequences removed, every control character (CR and
 * LF included) replaced by a space, and `::` / `##[` broken up so the runner cannot read a
 * command in them. `maxLength` cuts the result (after masking) with an ellipsis.
 */
export function inert(text: unknown, maxLength?: number): string {
  let out = redact(String(text ?? ''));
  out = stripVTControlCharacters(out).replace(CONTROL_CHARACTERS, ' ').replaceAll('\t', ' ');
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
function neutraliseCommands(text: string): string {
  return text.replace(/:(?=:)/g, ':\u200b').replace(/#(?=#\[)/g, '#\u200b');
}

/**
 * Prints a block of untrusted lines (a log tail, streamed logs, run output) between
 * `::stop-commands::<fresh random token>` and `::<token>::`, so nothing in it is executed,
 * in a collapsed group when it has a `group` title (made `inert()`).
 * Secrets are masked in the whole text before it is split into lines; ANSI sequences and
 * other control characters (but tabs) are removed from each line.
 */
export function printUntrusted(text: string | readonly string[], group?: string): void {
  const whole = redact(typeof text === 'string' ? text : text.join('\n'));
  const token = `untrusted-${randomUUID()}`;
  if (group !== undefined) core.startGroup(inert(group));
  core.info(`::stop-commands::${token}`);
  for (const line of whole.split(/\r\n|\r|\n/)) core.info(blockLine(line));
  core.info(`::${token}::`);
  if (group !== undefined) core.endGroup();
}
