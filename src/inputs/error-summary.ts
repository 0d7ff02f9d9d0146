/**
 * The step summary of a run that stopped on input errors: what failed (each input and its
 * problem) and what to do, so a reviewer who opens the summary, not the log, sees it too.
 *
 * Written before any network call: only the Markdown escaping helpers, no report module.
 */
import { codeSpan, messageMarkdown } from '../report/markdown.js';
import { appendStepSummary } from '../lib/untrusted.js';

export interface InputProblemLike {
  input: string;
  message: string;
}

export function renderInputErrorSummary(problems: readonly InputProblemLike[]): string {
  const rows = problems.map(
    (p) =>
      `| ${codeSpan(p.input, { inTable: true })} | ${messageMarkdown(p.message, { inTable: true })} |`,
  );
  return [
    `### ❌ ${problems.length} input error${problems.length === 1 ? '' : 's'}: nothing was deployed`,
    '',
    'The action stopped before any request: nothing was sent to the control plane and no ' +
      'deployment was changed.',
    '',
    '| Input | Problem |',
    '|---|---|',
    ...rows,
    '',
    'Fix the `with:` inputs of this step (or the secrets and variables they read) and run the ' +
      'workflow again.',
    '',
  ].join('\n');
}

/** The summary of a bug of ours that ended the run (the log has the same message). */
export function renderUnexpectedErrorSummary(message: string): string {
  return [
    '### ❌ The action stopped on an unexpected error',
    '',
    messageMarkdown(message),
    '',
    'This is a bug in the action; please report it with the log of this step (secrets are ' +
      'masked).',
    '',
  ].join('\n');
}

/** Appends `markdown` to the step summary, redacted; never throws (the log has the same text). */
export function appendSummary(markdown: string, env: NodeJS.ProcessEnv = process.env): void {
  appendStepSummary(markdown, env);
}

/**
 * Appends the input-error summary to `GITHUB_STEP_SUMMARY` (nothing when it is not set).
 * Registered secret values are redacted. Never throws: the errors are in the log anyway.
 */
export function writeInputErrorSummary(
  problems: readonly InputProblemLike[],
  env: NodeJS.ProcessEnv = process.env,
): void {
  appendSummary(renderInputErrorSummary(problems), env);
}
