/**
 * `command: prune`, the pure part: which preview to delete for which pull-request state, and
 * the step summary's one table (deployment, PR, state, action taken).
 */
import { codeFence, codeSpan, escapeMarkdown, markdownLink } from '../report/markdown.js';
import type { PullState } from '../report/github/pull-states.js';

export type PruneAction =
  /** The pull request is open. */
  | { kind: 'kept' }
  /** Its state could not be read: never delete on doubt. */
  | { kind: 'kept_unknown'; reason: string }
  /** Not provably this repository's (`keepWhatIsNotOurs` in prune.ts): never deleted. */
  | { kind: 'kept_not_ours'; reason: string }
  | { kind: 'would_delete' }
  /** To be deleted; still so when the run stopped before it got there. */
  | { kind: 'pending' }
  | { kind: 'deleted' }
  /** The control plane no longer had it when the action deleted it. */
  | { kind: 'already_gone' }
  | { kind: 'delete_failed'; reason: string }
  /** The bulk answer did not say whether this one was deleted. */
  | { kind: 'delete_unconfirmed'; reason: string };

export interface PruneRow {
  name: string;
  id: string;
  pr: number;
  state: PullState;
  action: PruneAction;
}

/** Delete for closed, merged and missing pull requests; keep open ones and unknown states. */
export function shouldDelete(state: PullState): boolean {
  return state.kind === 'closed' || state.kind === 'merged' || state.kind === 'missing';
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

/** What was done with a row, in words; `%s` stands for the action's reason. */
const ACTION_LABELS: Record<PruneAction['kind'], string> = {
  kept: 'kept',
  kept_unknown: 'kept: the pull request could not be read (%s)',
  kept_not_ours: "kept: not provably this repository's (%s)",
  would_delete: 'would be deleted (dry run)',
  pending: 'not deleted: the run stopped before',
  deleted: 'deleted',
  already_gone: 'deleted (it was already gone)',
  delete_failed: 'delete failed: %s',
  delete_unconfirmed: 'not confirmed deleted: %s',
};

/** The action's label; `escape` applies to its reason only (`escapeMarkdown` in the table). */
export function actionLabel(action: PruneAction, escape = (text: string) => text): string {
  const label = ACTION_LABELS[action.kind];
  return 'reason' in action ? label.replace('%s', () => escape(action.reason)) : label;
}

export interface PruneSummaryInput {
  template: string;
  rows: readonly PruneRow[];
  dryRun: boolean;
  /** `<server>/<owner>/<repo>`: PR links are `<this>/pull/<n>`. */
  repositoryUrl: string;
  /** A failure that stopped the run (already redacted). */
  error?: string;
  warnings?: readonly string[];
}

const MAX_TITLE = 80;

/** The step summary of a prune run. Names, titles and reasons are escaped. */
export function renderPruneSummary(input: PruneSummaryInput): string {
  const { rows, dryRun } = input;
  const removed = rows.filter((r) => isRemoved(r.action)).length;
  const failed = rows.filter((r) => isFailed(r.action)).length;
  const kept = rows.length - removed - failed;
  const icon = input.error || failed > 0 ? '❌' : '🧹';
  const parts = [
    `### ${icon} Prune previews ${codeSpan(input.template)}${dryRun ? ' (dry run: nothing changed)' : ''}`,
    rows.length === 0
      ? input.error
        ? ''
        : `No deployment matches ${codeSpan(input.template)}.`
      : `${rows.length} matching deployment${rows.length === 1 ? '' : 's'}: ${removed} ` +
        `${dryRun ? 'would be deleted' : 'deleted'}, ${kept} kept${failed ? `, ${failed} not deleted (failed)` : ''}.`,
  ];
  if (rows.length > 0) {
    const table = ['| Deployment | PR | State | Action |', '|---|---|---|---|'];
    for (const row of rows) {
      const url = `${input.repositoryUrl.replace(/\/+$/, '')}/pull/${row.pr}`;
      const prTitle = 'title' in row.state && row.state.title ? row.state.title : '';
      const shortTitle =
        prTitle.length > MAX_TITLE ? `${prTitle.slice(0, MAX_TITLE - 1)}…` : prTitle;
      const pr =
        markdownLink(`#${row.pr}`, url, { inTable: true }) +
        (shortTitle ? ` ${escapeMarkdown(shortTitle)}` : '');
      const action = actionLabel(row.action, escapeMarkdown);
      table.push(
        `| ${codeSpan(row.name, { inTable: true })} | ${pr} | ${stateLabel(row.state)} | ` +
          `${isFailed(row.action) ? `**${action}**` : action} |`,
      );
    }
    parts.push(table.join('\n'));
  }
  if (input.error) parts.push(`#### Error\n\n${codeFence(input.error)}`);
  if (input.warnings?.length) {
    parts.push(
      `#### Warnings\n\n${input.warnings.map((w) => `- ⚠️ ${escapeMarkdown(w)}`).join('\n')}`,
    );
  }
  return parts.filter((p) => p.trim() !== '').join('\n\n') + '\n';
}
