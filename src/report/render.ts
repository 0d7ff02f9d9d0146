/** The pieces the step summary and the pull-request comment share. */
import { REVISION_STATUS } from '../deployment/revision-status.js';
import {
  codeFence,
  codeSpan,
  escapeMarkdown,
  formatTime,
  markdownLink,
  tailWithin,
} from './markdown.js';
import { messageMarkdown } from './message-markdown.js';
import type { RunReport } from './record.js';
import { formatDuration } from '../lib/text.js';

export function displayName(report: RunReport): string {
  return report.name ?? report.deploymentId ?? 'deployment';
}

/** One line: an emoji and what happened, with the name in a code span. */
export function headline(report: RunReport): string {
  const name = codeSpan(displayName(report));
  const rollback = report.rollback;
  if (report.command === 'rollback' && rollback) {
    if (report.outcome === 'success') {
      return `↩️ ${name} was rolled back to revision ${codeSpan(rollback.to)}`;
    }
    if (report.outcome === 'failure') return `❌ Rollback of ${name} failed`;
    if (report.outcome === 'started') return `🚀 Rollback of ${name} started (not waiting for it)`;
  }
  switch (report.outcome) {
    case 'success':
      return `✅ ${name} is deployed`;
    case 'failure':
      if (rollback?.outcome === 'restored') {
        return `❌ ${whatFailed(report, name)}; rolled back to revision ${codeSpan(rollback.to)}`;
      }
      return `❌ ${whatFailed(report, name)}`;
    case 'skipped':
      return `⚠️ The revision of ${name} was ${REVISION_STATUS.SKIPPED.summary} (SKIPPED)`;
    case 'cancelled':
      return `🛑 Deployment of ${name} was cancelled (the revision goes on on the platform)`;
    case 'started':
      return `🚀 Deployment of ${name} started (not waiting for it)`;
    case 'deleted':
      return `🗑️ ${name} was deleted`;
    case 'not_found':
      return `🗑️ Nothing to delete: there is no deployment ${name}`;
  }
}

/**
 * A failure named by what failed: the pre-flight checks, the build, the deploy, or a check
 * after a revision that is `DEPLOYED` (and serving); "Deployment … failed" for the rest.
 */
function whatFailed(report: RunReport, name: string): string {
  const checks = report.checks ?? {};
  if (report.status === 'DEPLOYED') {
    const failed = [
      checks.health === 'failed' ? 'health check' : '',
      checks.smoke === 'failed' ? 'smoke test' : '',
      checks.tests === 'failed' ? 'conversation tests' : '',
    ].filter(Boolean);
    if (failed.length > 0) return `${name} is deployed, but its ${failed.join(' and ')} failed`;
  }
  if (report.status === 'BUILD_FAILED' || report.status === 'CREATE_FAILED') {
    return `The build of ${name} failed`;
  }
  if (report.status === 'DEPLOY_FAILED') return `The deploy of ${name} failed`;
  if ((report.preflightErrors ?? []).length > 0)
    return `The pre-flight checks of ${name} failed: nothing was deployed`;
  return `Deployment of ${name} failed`;
}

function sourceCell(report: RunReport): string | undefined {
  const source = report.source;
  if (!source) return undefined;
  if (source.kind === 'github') {
    const repo = source.repoUrl
      ? markdownLink(source.repoUrl.replace(/^https?:\/\//, ''), source.repoUrl, { inTable: true })
      : 'GitHub';
    return source.repoRef ? `${repo} at ${codeSpan(source.repoRef, { inTable: true })}` : repo;
  }
  if (source.kind === 'upload') {
    return source.digest
      ? `files of this checkout, archive sha256 ${codeSpan(source.digest.slice(0, 12), { inTable: true })}`
      : 'files of this checkout';
  }
  return source.imageUri
    ? `image ${codeSpan(source.imageUri, { inTable: true })}`
    : 'external Docker image';
}

/**
 * The two-column table of facts (only the rows that are known). `links: false` leaves out the
 * agent server and LangSmith rows, for the PR comment, whose first lines already give them.
 */
export function detailsTable(report: RunReport, options: { links?: boolean } = {}): string {
  const links = options.links ?? true;
  const rows: [string, string][] = [];
  const cell = (text: string) => codeSpan(text, { inTable: true });
  if (report.name !== undefined) rows.push(['Deployment', cell(report.name)]);
  if (report.deploymentId !== undefined) rows.push(['Deployment ID', cell(report.deploymentId)]);
  if (report.revisionId !== undefined) rows.push(['Revision ID', cell(report.revisionId)]);
  if (report.status !== undefined) {
    const message = report.statusMessage ? ` ${escapeMarkdown(report.statusMessage)}` : '';
    rows.push(['Status', `**${cell(report.status)}**${message}`]);
  }
  if (links && report.url !== undefined) {
    rows.push(['Agent server', markdownLink(report.url, report.url, { inTable: true })]);
  }
  if (links && report.uiUrl !== undefined) {
    rows.push(['LangSmith', markdownLink('Open in LangSmith', report.uiUrl, { inTable: true })]);
  }
  if (report.command === 'deploy' && report.created !== undefined) {
    rows.push(['Action', report.created ? 'created' : 'updated']);
  }
  const source = sourceCell(report);
  if (source !== undefined) rows.push(['Source', source]);
  if (report.commitSha !== undefined) rows.push(['Commit', cell(report.commitSha)]);
  if (report.checks?.health !== undefined) rows.push(['Health check', report.checks.health]);
  if (report.checks?.smoke !== undefined) rows.push(['Smoke test', report.checks.smoke]);
  if (report.checks?.tests !== undefined) rows.push(['Conversation tests', report.checks.tests]);
  if (report.command === 'delete' && report.deletedTracingProject !== undefined) {
    rows.push(['Tracing project', report.deletedTracingProject ? 'deleted' : 'kept']);
  }
  if (rows.length === 0) return '';
  return ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
}

/**
 * Each status with the first and the last of this run's checks that saw it. Only what was
 * observed: no time spent in a status (it began before its first sighting and ended after its
 * last, by an unknown amount) and no status a check did not see.
 */
export function timelineTable(report: RunReport): string {
  const entries = report.timeline;
  if (entries.length === 0) return '';
  const rows = entries.map((entry) => {
    const last = entry.lastSeenAt ?? entry.at;
    return `| ${codeSpan(entry.status, { inTable: true })} | ${formatTime(entry.at)} | ${formatTime(last)} |`;
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
  const cell = (text: string) => codeSpan(text, { inTable: true });
  const outcome = {
    restored: 'restored',
    failed: '**failed**',
    started: 'started (not waited for)',
    not_needed: 'not needed (already live)',
  }[rollback.outcome];
  const rows: [string, string][] = [];
  if (rollback.from !== undefined) {
    rows.push([
      report.command === 'rollback' ? 'Was live' : 'Failed revision',
      cell(rollback.from),
    ]);
  }
  rows.push(['Restored revision', cell(rollback.to)]);
  if (rollback.revisionId !== undefined && rollback.revisionId !== rollback.to) {
    rows.push(['Serving as revision', cell(rollback.revisionId)]);
  }
  rows.push(['Rollback', outcome]);
  if (rollback.status !== undefined) rows.push(['Its status', `**${cell(rollback.status)}**`]);
  if (rollback.health !== undefined) rows.push(['Its health check', rollback.health]);
  rows.push(['Reason', escapeMarkdown(rollback.reason)]);
  const parts = [
    '#### Rollback',
    ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n'),
  ];
  if (report.command !== 'rollback' && rollback.timeline.length > 0) {
    parts.push(
      `Status timeline of revision ${codeSpan(rollback.revisionId ?? rollback.to)}:`,
      timelineTable({ ...report, timeline: rollback.timeline }),
    );
  }
  return parts.filter(Boolean).join('\n\n');
}

/** The error as a fenced block (it may span lines and contains server text). */
export function errorBlock(report: RunReport): string {
  if (!report.error) return '';
  return codeFence(report.error);
}

/** The log tail in a collapsed `<details>` block, or the hint why there is none. */
export function logBlock(report: RunReport, maxChars: number): string {
  const tail = report.logTail ?? [];
  if (tail.length === 0) {
    return report.logsUnavailableHint ? `> ${escapeMarkdown(report.logsUnavailableHint)}` : '';
  }
  const { lines, omitted } = tailWithin(tail, maxChars);
  const what = report.logKind ? `${report.logKind} log` : 'Log';
  const label = `${what.charAt(0).toUpperCase()}${what.slice(1)} (last ${lines.length} lines${
    omitted > 0 ? `; ${omitted} earlier lines left out` : ''
  })`;
  // A blank line after <summary> so that Markdown (the fence) is parsed inside <details>.
  return ['<details>', `<summary>${label}</summary>`, '', codeFence(lines), '', '</details>'].join(
    '\n',
  );
}

/** The pre-flight errors, one bullet each, with where they are (file:line:column, key). */
export function preflightList(report: RunReport): string {
  const errors = report.preflightErrors ?? [];
  if (errors.length === 0) return '';
  return errors
    .map((e) => {
      const place = e.file
        ? [e.file, e.line, e.line !== undefined ? e.column : undefined]
            .filter((p) => p !== undefined)
            .join(':')
        : undefined;
      const where = [place, e.key]
        .filter((p): p is string => p !== undefined && p !== '')
        .map((p) => codeSpan(p))
        .join(' ');
      return `- ❌ ${where ? `${where}: ` : ''}${messageMarkdown(e.message)}`;
    })
    .join('\n');
}

export function warningsList(report: RunReport): string {
  const warnings = report.warnings ?? [];
  if (warnings.length === 0) return '';
  return warnings.map((w) => `- ⚠️ ${escapeMarkdown(w)}`).join('\n');
}

/** Joins non-empty sections with blank lines. */
export function sections(...parts: string[]): string {
  return parts.filter((p) => p.trim().length > 0).join('\n\n') + '\n';
}
