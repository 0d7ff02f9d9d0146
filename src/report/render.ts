/** The pieces the step summary and the pull-request comment share. */
import {
  codeFence,
  codeSpan,
  escapeMarkdown,
  formatTime,
  markdownLink,
  tailWithin,
} from './markdown.js';
import { messageMarkdown } from './message-markdown.js';
import type { RunReport } from './types.js';
import { formatDuration } from '../format.js';

export function displayName(report: RunReport): string {
  return report.name ?? report.deploymentId ?? 'deployment';
}

/** One line: an emoji and what happened, with the name in a code span. */
export function headline(report: RunReport): string {
  const name = codeSpan(displayName(report));
  switch (report.outcome) {
    case 'success':
      return `✅ ${name} is deployed`;
    case 'failure':
      return `❌ Deployment of ${name} failed`;
    case 'skipped':
      return `⚠️ The revision of ${name} was superseded by a newer one (SKIPPED)`;
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

function sourceCell(report: RunReport): string | undefined {
  const source = report.source;
  if (!source) return undefined;
  if (source.kind === 'github') {
    const repo = source.repoUrl
      ? markdownLink(source.repoUrl.replace(/^https?:\/\//, ''), source.repoUrl, { inTable: true })
      : 'GitHub';
    return source.repoRef ? `${repo} at ${codeSpan(source.repoRef, { inTable: true })}` : repo;
  }
  return source.imageUri
    ? `image ${codeSpan(source.imageUri, { inTable: true })}`
    : 'external Docker image';
}

/** The two-column table of facts (only the rows that are known). */
export function detailsTable(report: RunReport): string {
  const rows: [string, string][] = [];
  const cell = (text: string) => codeSpan(text, { inTable: true });
  if (report.name !== undefined) rows.push(['Deployment', cell(report.name)]);
  if (report.deploymentId !== undefined) rows.push(['Deployment ID', cell(report.deploymentId)]);
  if (report.revisionId !== undefined) rows.push(['Revision ID', cell(report.revisionId)]);
  if (report.status !== undefined) rows.push(['Status', `**${cell(report.status)}**`]);
  if (report.url !== undefined) {
    rows.push(['Agent server', markdownLink(report.url, report.url, { inTable: true })]);
  }
  if (report.uiUrl !== undefined) {
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
