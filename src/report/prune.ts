/**
 * The record of a prune run (`commands/prune.ts`): each matching preview, its pull request's
 * state and what was done with it, in words, and the step summary's table.
 */
import type { PullState } from '../github/reads.js';
import { truncate } from '../lib/text.js';
import { codeFence, codeSpan, escapeMarkdown, markdownLink } from './markdown.js';
import { sections, titled, warningsList } from './render.js';

/** What was done with a row; the labels with `%s` require a `reason`. */
type Kind = keyof typeof ACTION_LABELS;
type WithReason = {
  [K in Kind]: (typeof ACTION_LABELS)[K] extends `${string}%s${string}` ? K : never;
}[Kind];
export type PruneAction =
  { kind: Exclude<Kind, WithReason>; reason?: never } | { kind: WithReason; reason: string };

export interface PruneRow {
  name: string;
  id: string;
  pr: number;
  state: PullState;
  action: PruneAction;
}

/** Whether the row's deployment is gone (or, in a dry run, would be). */
export function isRemoved(action: PruneAction): boolean {
  return ['deleted', 'already_gone', 'would_delete'].includes(action.kind);
}

export function isFailed(action: PruneAction): boolean {
  return ['delete_failed', 'delete_unconfirmed', 'pending'].includes(action.kind);
}

export function stateLabel(state: PullState): string {
  return state.kind === 'missing' ? 'does not exist' : state.kind;
}

/** Each action on a row, in words; `%s` stands for the action's reason. */
const ACTION_LABELS = {
  kept: 'kept', // the pull request is open
  kept_unknown: 'kept: the pull request could not be read (%s)', // never delete on doubt
  kept_not_ours: "kept: not provably this repository's (%s)", // see `keepWhatIsNotOurs`
  kept_no_preview: 'kept: not provably a preview of this pull request (%s)', // its origin record
  would_delete: 'would be deleted (dry run)',
  pending: 'not deleted: the run stopped before', // to be deleted, but the run stopped first
  deleted: 'deleted',
  already_gone: 'deleted (it was already gone)', // the control plane no longer had it
  delete_failed: 'delete failed: %s',
  delete_unconfirmed: 'not confirmed deleted: %s', // the bulk answer did not say
} as const;

/** The action's label; `escape` applies to its reason only (`escapeMarkdown` in the table). */
export function actionLabel({ kind, reason }: PruneAction, escape = (text: string) => text) {
  return ACTION_LABELS[kind].replace('%s', () => escape(reason ?? ''));
}

interface PruneSummaryInput {
  template: string;
  rows: readonly PruneRow[];
  dryRun: boolean;
  /** `<server>/<owner>/<repo>`: PR links are `<this>/pull/<n>`. */
  repositoryUrl: string;
  /** A failure that stopped the run (already redacted). */
  error?: string;
  warnings?: readonly string[];
}

/** The step summary of a prune run. Names, titles and reasons are escaped. */
export function renderPruneSummary(input: PruneSummaryInput): string {
  const { rows, dryRun } = input;
  const removed = rows.filter((r) => isRemoved(r.action)).length;
  const failed = rows.filter((r) => isFailed(r.action)).length;
  const kept = rows.length - removed - failed;
  const icon = input.error || failed > 0 ? '❌' : '🧹';
  const table = rows.map((row) => {
    const url = `${input.repositoryUrl.replace(/\/+$/, '')}/pull/${row.pr}`;
    const prTitle = 'title' in row.state && row.state.title ? row.state.title : '';
    const pr =
      markdownLink(`#${row.pr}`, url, { inTable: true }) +
      (prTitle ? ` ${escapeMarkdown(truncate(prTitle, 80))}` : '');
    const action = actionLabel(row.action, escapeMarkdown);
    return (
      `| ${codeSpan(row.name, { inTable: true })} | ${pr} | ${stateLabel(row.state)} | ` +
      `${isFailed(row.action) ? `**${action}**` : action} |`
    );
  });
  return sections(
    `### ${icon} Prune previews ${codeSpan(input.template)}${dryRun ? ' (dry run: nothing changed)' : ''}`,
    rows.length === 0
      ? input.error
        ? ''
        : `No deployment matches ${codeSpan(input.template)}.`
      : `${rows.length} matching deployment${rows.length === 1 ? '' : 's'}: ${removed} ` +
          `${dryRun ? 'would be deleted' : 'deleted'}, ${kept} kept${failed ? `, ${failed} not deleted (failed)` : ''}.`,
    rows.length > 0
      ? ['| Deployment | PR | State | Action |', '|---|---|---|---|', ...table].join('\n')
      : '',
    titled('Error', input.error ? codeFence(input.error) : ''),
    titled('Warnings', warningsList(input)),
  );
}
