/**
 * The job's step summary (Markdown appended to the file named by `GITHUB_STEP_SUMMARY`),
 * written for every run: success, failure, superseded, cancelled or delete.
 */
import { appendStepSummary, type Logger } from '../lib/untrusted.js';
import {
  detailsTable,
  errorBlock,
  headline,
  logBlock,
  rollbackSection,
  preflightList,
  sections,
  timelineTable,
  warningsList,
} from './render.js';
import { testsSection } from './tests-table.js';
import type { RunReport } from './record.js';

/** The step summary limit is 1 MiB; a log tail never needs more than this. */
const SUMMARY_LOG_CHARS = 60_000;

export function renderSummary(report: RunReport): string {
  const timeline = timelineTable(report);
  const error = errorBlock(report);
  const warnings = warningsList(report);
  const preflight = preflightList(report);
  return sections(
    `### ${headline(report)}`,
    detailsTable(report),
    timeline ? `#### Status timeline\n\n${timeline}` : '',
    rollbackSection(report),
    testsSection(report),
    error ? `#### Error\n\n${error}` : '',
    preflight ? `#### Pre-flight errors\n\n${preflight}` : '',
    logBlock(report, SUMMARY_LOG_CHARS),
    warnings ? `#### Warnings\n\n${warnings}` : '',
  );
}

/**
 * Appends the summary to `GITHUB_STEP_SUMMARY` (nothing when it is not set). Registered secret
 * values are redacted. Never throws: a write failure is a warning.
 */
export async function writeSummary(
  report: RunReport,
  env: NodeJS.ProcessEnv = process.env,
  logger?: Logger,
): Promise<void> {
  appendStepSummary(renderSummary(report), env, logger);
}
