/** The conversation tests table of the step summary and the pull-request comment. */
import { formatDuration } from '../lib/text.js';
import { codeFence, escapeHtml, escapeMarkdown } from './markdown.js';
import type { RunReport } from './record.js';

/** Untrusted text in a cell: escaped (`escapeMarkdown` also breaks `@name`, so it notifies nobody). */
function cell(text: string): string {
  return escapeMarkdown(text);
}

/** Reasons longer than this are cut in the table (the log has them whole). */
const REASON_CELL_CHARS = 300;

/** `#### Conversation tests` with one row per case (case, turns, verdict, reason, time). */
export function testsSection(report: RunReport, maxRows = 200): string {
  const cases = report.tests ?? [];
  if (cases.length === 0) return '';
  const passed = cases.filter((c) => c.verdict === 'passed').length;
  const rows = cases.slice(0, maxRows).map((c) => {
    const reason =
      c.reason.length > REASON_CELL_CHARS
        ? `${c.reason.slice(0, REASON_CELL_CHARS - 1)}…`
        : c.reason;
    return (
      `| ${cell(c.name)} | ${c.turnsRun}/${c.turns} | ` +
      `${c.verdict === 'passed' ? '✅ passed' : '❌ failed'} | ${cell(reason)} | ` +
      `${formatDuration(c.durationMs)} |`
    );
  });
  const more = cases.length > maxRows ? `\n\n${cases.length - maxRows} more cases in the log.` : '';
  const replies = cases
    .slice(0, maxRows)
    .filter((c) => c.verdict === 'failed' && c.reply !== undefined)
    .map((c) => failedReply(c.name, c.reply!));
  return (
    [
      `#### Conversation tests: ${passed} of ${cases.length} passed`,
      '',
      '| Case | Turns | Verdict | Reason | Time |',
      '|---|---|---|---|---|',
      ...rows,
    ].join('\n') +
    more +
    replies.map((r) => `\n\n${r}`).join('')
  );
}

/** Replies longer than this are cut here (they arrive masked and cut at 1,000 characters). */
const REPLY_CHARS = 1000;

/**
 * The agent's reply that failed a case, collapsed under the table: agent text, shown in a fence
 * it cannot close (`codeFence` removes control characters; a code block notifies nobody).
 */
function failedReply(name: string, reply: string): string {
  const shown = reply.length > REPLY_CHARS ? `${reply.slice(0, REPLY_CHARS - 1)}…` : reply;
  return [
    '<details>',
    `<summary>The reply that failed “${escapeHtml(name)}”</summary>`,
    '',
    codeFence(shown),
    '',
    '</details>',
  ].join('\n');
}
