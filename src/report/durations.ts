/**
 * How long each phase of the run took (queued, build, deploy, checks) and the whole step, for
 * the step summary. Only what the run's status checks saw: a phase lasts from the first check
 * that saw one of its statuses to the first check that saw a later status (or the end of the
 * run), so each figure is within one gap between two checks of the truth.
 */
import { formatDuration } from '../lib/text.js';
import type { RunReport } from './record.js';

const PHASES: [string, string[]][] = [
  ['Queued', ['CREATING', 'QUEUED']],
  ['Build', ['AWAITING_BUILD', 'BUILDING']],
  ['Deploy', ['AWAITING_DEPLOY', 'DEPLOYING']],
];

/** The Markdown table, or '' when the run followed no revision. */
export function durationsTable(report: RunReport): string {
  const { timeline, startedAt, finishedAt } = report;
  if (timeline.length === 0 || finishedAt === undefined) return '';
  const rows: [string, string][] = [];
  for (const [phase, statuses] of PHASES) {
    const seen = timeline.flatMap((entry, i) => (statuses.includes(entry.status) ? [i] : []));
    if (seen.length === 0) continue;
    const ms = seen.reduce(
      (sum, i) => sum + (timeline[i + 1]?.at ?? finishedAt) - timeline[i]!.at,
      0,
    );
    // The run ended in this phase: the wait stopped (timeout, cancel), the revision goes on.
    const open = seen.at(-1) === timeline.length - 1;
    rows.push([phase, `${formatDuration(ms)}${open ? ' so far (the wait stopped)' : ''}`]);
  }
  const deployed = timeline.find((entry) => entry.status === 'DEPLOYED');
  if (deployed) rows.push(['Checks', formatDuration(finishedAt - deployed.at)]);
  if (startedAt !== undefined) {
    rows.push(['**Total**', `**${formatDuration(finishedAt - startedAt)}**`]);
  }
  return [
    '| Phase | Took |',
    '|---|---|',
    ...rows.map(([phase, took]) => `| ${phase} | ${took} |`),
    '',
    'As the status checks saw it: each phase from the first check that saw it to the first ' +
      'that saw the next, so within one check interval (`poll-interval`) of the truth' +
      (deployed ? '; checks: from `DEPLOYED` to the end of the run.' : '.'),
  ].join('\n');
}
