/**
 * The Markdown of a run's record: the job's step summary and the pull-request comment, built
 * from the same pieces. Untrusted text reaches the document only through `./markdown.ts`.
 */
import { REVISION_STATUS, revisionStatus } from '../deployment/revision-status.js';
import { formatDuration, truncate } from '../lib/text.js';
import { redact } from '../lib/untrusted.js';
import { codeFence, codeSpan, escapeMarkdown, markdownLink, messageMarkdown } from './markdown.js';
import type { InputProblem } from '../inputs/config.js';
import type { RunOutcome, RunReport, RunSource } from './record.js';
import { durationsTable } from './durations.js';
import { evaluationSection } from './evaluation.js';

/** The step summary limit is 1 MiB; a log tail never needs more than this. */
const SUMMARY_LOG_CHARS = 60_000;
/** Well under GitHub's 65,536-character limit for a comment body. */
const COMMENT_LOG_CHARS = 20_000;
const COMMENT_ERROR_CHARS = 8_000;
/** Reasons longer than this are cut in the tests table (the log has them whole). */
const REASON_CELL_CHARS = 300;
/** Replies longer than this are cut here (they arrive masked and cut at 1,000 characters). */
const REPLY_CHARS = 1000;
/** The variable the PR comment's `curl` line reads the key from. */
const API_KEY_VARIABLE = 'LANGSMITH_API_KEY';

const cell = (text: string) => codeSpan(text, { inTable: true });
const code = (text: string | undefined) => text !== undefined && cell(text);
const either = (flag: boolean | undefined, yes: string, no: string) =>
  flag !== undefined && (flag ? yes : no);
/** The checks after `DEPLOYED`, named in the table of facts and in a failure's headline. */
const CHECKS = [
  ['health', 'Health check'],
  ['smoke', 'Smoke test'],
  ['tests', 'Conversation tests'],
  ['evaluation', 'Evaluation'],
] as const;

/**
 * The job's step summary (Markdown appended to the file named by `GITHUB_STEP_SUMMARY` by
 * `appendStepSummary`), written for every run: success, failure, superseded, cancelled or delete.
 */
export function renderSummary(report: RunReport): string {
  return sections(
    `### ${headline(report)}`,
    detailsTable(report),
    titled('Status timeline', timelineTable(report)),
    titled('Durations', durationsTable(report)),
    rollbackSection(report),
    testsSection(report),
    evaluationSection(report.evaluation),
    // The error as a fenced block (it may span lines and contains server text).
    titled('Error', report.error ? codeFence(report.error) : ''),
    titled('Pre-flight errors', preflightList(report)),
    logBlock(report, SUMMARY_LOG_CHARS),
    titled('Warnings', warningsList(report)),
  );
}

/** The pull-request comment: `marker` on its first line, then what a reviewer reads first. */
export function renderComment(report: RunReport, marker: string, runUrl?: string): string {
  const timeline = timelineTable(report);
  const updated = `Updated ${formatTime(report.finishedAt ?? Date.now())}`;
  const run = runUrl ? ` · ${markdownLink('workflow run', runUrl)}` : '';
  return sections(
    marker,
    `### ${headline(report)}`,
    accessSection(report),
    report.outcome === 'deleted'
      ? 'The preview deployment was removed.'
      : report.outcome === 'not_found'
        ? 'The preview deployment no longer exists.'
        : '',
    detailsTable(report, false),
    timeline ? collapsed('Status timeline', timeline) : '',
    rollbackSection(report),
    testsSection(report, 50),
    evaluationSection(report.evaluation),
    report.error ? codeFence(truncate(report.error, COMMENT_ERROR_CHARS)) : '',
    preflightList(report),
    logBlock(report, COMMENT_LOG_CHARS),
    warningsList(report),
    `<sub>${updated}${run}</sub>`,
  );
}

/** One line: an emoji and what happened, with the name in a code span. */
export function headline(report: RunReport): string {
  const name = codeSpan(report.name ?? report.deploymentId ?? 'deployment');
  const rollback = report.rollback;
  const asRollback = report.command === 'rollback' && rollback !== undefined;
  const restored =
    rollback?.outcome === 'restored' ? `; rolled back to revision ${codeSpan(rollback.to)}` : '';
  const headlines: Record<RunOutcome, string> = {
    success: asRollback
      ? `↩️ ${name} was rolled back to revision ${codeSpan(rollback.to)}`
      : report.command === 'registry-login'
        ? `🔑 The runner's docker is logged in to the registry of ${name}`
        : `✅ ${name} is deployed`,
    failure: asRollback
      ? `❌ Rollback of ${name} failed`
      : report.timedOut &&
          report.command === 'deploy' &&
          revisionStatus(report.status ?? '').outcome === 'in_progress'
        ? `⏱️ Deployment of ${name} not finished: this run stopped waiting at its \`timeout\`` +
          (report.revisionId ? ' (the wait stopped; the revision goes on on the platform)' : '')
        : `❌ ${whatFailed(report, name)}${restored}`,
    skipped: `⚠️ The revision of ${name} was ${REVISION_STATUS.SKIPPED.summary} (SKIPPED)`,
    cancelled: `🛑 Deployment of ${name} was cancelled (the revision goes on on the platform)`,
    started: `🚀 ${asRollback ? 'Rollback' : 'Deployment'} of ${name} started (not waiting for it)`,
    deleted: `🗑️ ${name} was deleted`,
    not_found: `🗑️ Nothing to delete: there is no deployment ${name}`,
  };
  return headlines[report.outcome];
}

/**
 * A failure named by what failed: the pre-flight checks, the build, the deploy, or a check
 * after a revision that is `DEPLOYED` (and serving); "Deployment … failed" for the rest.
 */
function whatFailed(report: RunReport, name: string): string {
  if (report.command === 'registry-login') return `Registry login for ${name} failed`;
  if (report.status === 'DEPLOYED') {
    const failed = CHECKS.filter(([check]) => report.checks?.[check] === 'failed').map(
      ([, label]) => label.toLowerCase(),
    );
    if (failed.length > 0) return `${name} is deployed, but its ${failed.join(' and ')} failed`;
  }
  // The table's log of a failed status says which phase failed: the build or the deploy.
  const log = report.status !== undefined && revisionStatus(report.status).log;
  if (log === 'build' || log === 'deploy') return `The ${log} of ${name} failed`;
  if ((report.preflightErrors ?? []).length > 0)
    return `The pre-flight checks of ${name} failed: nothing was deployed`;
  return `Deployment of ${name} failed`;
}

/**
 * How a reviewer reaches the deployment, at the top of the PR comment (its only links to it):
 * the LangSmith page (`ui-url`, which a browser can open), then the agent server's URL, with a
 * `curl` of its `/ok` only once the revision is `DEPLOYED` and can answer. The `curl` sends the
 * API key from an environment variable, never the key itself: the comment is public to everyone
 * who can read the PR. The URL (from the control plane, already checked to be http(s)) is
 * single-quoted for the shell; a quote in it is percent-encoded, which means the same URL.
 */
export function accessSection(report: RunReport): string {
  if (report.command !== 'deploy') return '';
  const { uiUrl, url = '' } = report;
  // No agent link for a revision that never reached DEPLOYED: nothing answers there.
  const live = url && report.status === 'DEPLOYED';
  const target = `${url.replace(/\/+$/, '')}/ok`.replace(/'/g, '%27');
  return blocks(
    uiUrl ? `**${markdownLink('Open the deployment in LangSmith', uiUrl)}**` : '',
    live
      ? `Agent server (answers only with a LangSmith API key; set ` +
          `${codeSpan(API_KEY_VARIABLE)} in your shell first):`
      : '',
    live ? codeFence(`curl -H "X-Api-Key: $${API_KEY_VARIABLE}" '${target}'`, 'sh') : '',
  );
}

/** A two-column table of the rows whose value is known (a string), or nothing. */
function factsTable(rows: (readonly [string, string | false | undefined])[]): string {
  const known = rows.filter((row): row is [string, string] => typeof row[1] === 'string');
  if (known.length === 0) return '';
  return ['| | |', '|---|---|', ...known.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

function sourceCell(source: RunSource): string {
  if (source.kind === 'github') {
    const repo = source.repoUrl
      ? markdownLink(source.repoUrl.replace(/^https?:\/\//, ''), source.repoUrl, { inTable: true })
      : 'GitHub';
    return source.repoRef ? `${repo} at ${cell(source.repoRef)}` : repo;
  }
  if (source.kind === 'upload') {
    const digest = source.digest ? `, archive sha256 ${cell(source.digest.slice(0, 12))}` : '';
    return `files of this checkout${digest}`;
  }
  return source.imageUri ? `image ${cell(source.imageUri)}` : 'external Docker image';
}

/**
 * The table of facts. `links` false leaves out the agent server and LangSmith rows, for the
 * PR comment, whose first lines already give them.
 */
function detailsTable(report: RunReport, links = true): string {
  const message = report.statusMessage ? ` ${escapeMarkdown(report.statusMessage)}` : '';
  const link = (label: string, url: string | undefined) =>
    links && url !== undefined && markdownLink(label, url, { inTable: true });
  return factsTable([
    ['Deployment', code(report.name)],
    ['Deployment ID', code(report.deploymentId)],
    ['Revision ID', code(report.revisionId)],
    ['Status', report.status !== undefined && `**${cell(report.status)}**${message}`],
    ['Agent server', report.status === 'DEPLOYED' && link(report.url ?? '', report.url)],
    ['LangSmith', link('Open in LangSmith', report.uiUrl)],
    ['Action', report.command === 'deploy' && either(report.created, 'created', 'updated')],
    ['Source', report.source && sourceCell(report.source)],
    ['Commit', code(report.commitSha)],
    ...CHECKS.map(([check, label]) => [label, report.checks?.[check]] as const),
    [
      'Tracing project',
      report.command === 'delete' && either(report.deletedTracingProject, 'deleted', 'kept'),
    ],
  ]);
}

/**
 * Each status with the first and the last of this run's checks that saw it. Only what was
 * observed: no time spent in a status (it began before its first sighting and ended after its
 * last, by an unknown amount) and no status a check did not see.
 */
function timelineTable(report: Pick<RunReport, 'timeline'>): string {
  const entries = report.timeline;
  if (entries.length === 0) return '';
  const rows = entries.map((entry) => {
    const last = entry.lastSeenAt ?? entry.at;
    return `| ${cell(entry.status)} | ${formatTime(entry.at)} | ${formatTime(last)} |`;
  });
  const first = entries[0]!;
  const final = entries[entries.length - 1]!;
  const lastCheck = Math.max(first.at, final.lastSeenAt ?? final.at);
  return [
    '| Status | First seen | Last seen |',
    '|---|---|---|',
    ...rows,
    '',
    `Seen by this run's status checks between ${formatTime(first.at)} and ${formatTime(lastCheck)} ` +
      `(${formatDuration(lastCheck - first.at)}). A status may have begun before its first ` +
      'sighting and ended after its last; one that came and went between two checks is not listed.',
  ].join('\n');
}

/**
 * The rollback (`command: rollback` or `rollback-on-failure`): which revision failed or was
 * live, which one serves again, why, and the timeline of the revision the redeploy created
 * (for `command: rollback` that is the run's own timeline, shown already).
 */
export function rollbackSection(report: RunReport): string {
  const rollback = report.rollback;
  if (!rollback) return '';
  const outcome = {
    restored: 'restored',
    failed: '**failed**',
    started: 'started (not waited for)',
    not_needed: 'not needed (already live)',
  }[rollback.outcome];
  const timeline = report.command !== 'rollback' ? timelineTable(rollback) : '';
  return blocks(
    '#### Rollback',
    factsTable([
      [report.command === 'rollback' ? 'Was live' : 'Failed revision', code(rollback.from)],
      ['Restored revision', cell(rollback.to)],
      ['Serving as revision', rollback.revisionId !== rollback.to && code(rollback.revisionId)],
      ['Rollback', outcome],
      ['Its status', rollback.status !== undefined && `**${cell(rollback.status)}**`],
      ['Its health check', rollback.health],
      ['Reason', escapeMarkdown(rollback.reason)],
    ]),
    timeline && `Status timeline of revision ${codeSpan(rollback.revisionId ?? rollback.to)}:`,
    timeline,
  );
}

/**
 * `#### Conversation tests` with one row per case (case, turns, verdict, reason, time), names
 * and reasons escaped; under the table, collapsed, the agent's reply that failed a case, fenced.
 */
export function testsSection(report: RunReport, maxRows = 200): string {
  const cases = report.tests ?? [];
  if (cases.length === 0) return '';
  const shown = cases.slice(0, maxRows);
  const passed = cases.filter((c) => c.verdict === 'passed').length;
  const rows = shown.map(
    (c) =>
      `| ${escapeMarkdown(c.name)} | ${c.turnsRun}/${c.turns} | ` +
      `${c.verdict === 'passed' ? '✅ passed' : '❌ failed'} | ` +
      `${escapeMarkdown(truncate(c.reason, REASON_CELL_CHARS))} | ${formatDuration(c.durationMs)} |`,
  );
  const replies = shown
    .filter((c) => c.verdict === 'failed' && c.reply !== undefined)
    .map((c) =>
      collapsed(
        `The reply that failed “${escapeMarkdown(c.name)}”`,
        codeFence(truncate(c.reply!, REPLY_CHARS)),
      ),
    );
  const table = titled(
    `Conversation tests: ${passed} of ${cases.length} passed`,
    ['| Case | Turns | Verdict | Reason | Time |', '|---|---|---|---|---|', ...rows].join('\n'),
  );
  const more = cases.length > maxRows ? [`${cases.length - maxRows} more cases in the log.`] : [];
  return [table, ...more, ...replies].join('\n\n');
}

/** A collapsed block; the blank line after `<summary>` lets Markdown be parsed inside. */
function collapsed(summary: string, body: string): string {
  return ['<details>', `<summary>${summary}</summary>`, '', body, '', '</details>'].join('\n');
}

/** Keeps the last lines whose total length fits `maxChars`; each line cut at `maxLineChars`. */
export function tailWithin(lines: readonly string[], maxChars: number, maxLineChars = 2000) {
  const kept: string[] = [];
  let total = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    let line = redact(lines[i] ?? '');
    if (line.length > maxLineChars) line = `${line.slice(0, maxLineChars)} …`;
    if (total + line.length + 1 > maxChars && kept.length > 0) break;
    kept.unshift(line);
    total += line.length + 1;
  }
  return { lines: kept, omitted: lines.length - kept.length };
}

/** `2024-05-01 12:03:04 UTC`. */
function formatTime(epochMs: number): string {
  return `${new Date(epochMs).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** The log tail in a collapsed `<details>` block, or the hint why there is none. */
function logBlock(report: RunReport, maxChars: number): string {
  const tail = report.logTail ?? [];
  if (tail.length === 0) {
    return report.logsUnavailableHint ? `> ${escapeMarkdown(report.logsUnavailableHint)}` : '';
  }
  const { lines, omitted } = tailWithin(tail, maxChars);
  const what = { build: 'Build log', deploy: 'Deploy log', none: 'Log' }[report.logKind ?? 'none'];
  const left = omitted > 0 ? `; ${omitted} earlier lines left out` : '';
  return collapsed(`${what} (last ${lines.length} lines${left})`, codeFence(lines));
}

/** The pre-flight errors, one bullet each, with where they are (file:line:column, key). */
function preflightList(report: RunReport): string {
  return (report.preflightErrors ?? [])
    .map((e) => {
      const column = e.line !== undefined ? e.column : undefined;
      const place = e.file && [e.file, e.line, column].filter((p) => p !== undefined).join(':');
      const where = [place, e.key].map((p) => (p ? codeSpan(p) : '')).filter(Boolean);
      return `- ❌ ${where.length > 0 ? `${where.join(' ')}: ` : ''}${messageMarkdown(e.message)}`;
    })
    .join('\n');
}

export function warningsList(report: { warnings?: readonly string[] }): string {
  return (report.warnings ?? []).map((w) => `- ⚠️ ${escapeMarkdown(w)}`).join('\n');
}

/** Joins non-empty blocks with blank lines; `sections` ends a document with a line break. */
const blocks = (...parts: string[]) => parts.filter((p) => p.trim().length > 0).join('\n\n');
export const sections = (...parts: string[]) => `${blocks(...parts)}\n`;
export const titled = (title: string, body: string) => (body ? `#### ${title}\n\n${body}` : '');

/**
 * The step summary of a run that stopped on input errors: what failed (each input and its
 * problem) and what to do, so a reviewer who opens the summary, not the log, sees it too.
 * Written before any network call, from the problems alone (there is no run record yet).
 */
export function renderInputErrorSummary(problems: readonly InputProblem[]): string {
  const rows = problems.map(
    (p) => `| ${cell(p.input)} | ${messageMarkdown(p.message, { inTable: true })} |`,
  );
  return sections(
    `### ❌ ${problems.length} input error${problems.length === 1 ? '' : 's'}: nothing was deployed`,
    'The action stopped before any request: nothing was sent to the control plane and no ' +
      'deployment was changed.',
    ['| Input | Problem |', '|---|---|', ...rows].join('\n'),
    'Fix the `with:` inputs of this step (or the secrets and variables they read) and run the ' +
      'workflow again.',
  );
}

/** The summary of a bug of ours that ended the run (the log has the same message). */
export function renderUnexpectedErrorSummary(message: string): string {
  return sections(
    '### ❌ The action stopped on an unexpected error',
    messageMarkdown(message),
    'This is a bug in the action; please report it with the log of this step (secrets are ' +
      'masked).',
  );
}
