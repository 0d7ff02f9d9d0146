/**
 * The step summary of a run that stopped on input errors: what failed (each input and its
 * problem) and what to do, so a reviewer who opens the summary, not the log, sees it too.
 *
 * Written before any network call: only the Markdown escaping helpers, no report module.
 */
import { codeSpan, messageMarkdown } from '../report/markdown.js';
import type { InputProblem } from './config.js';

export function renderInputErrorSummary(problems: readonly InputProblem[]): string {
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
