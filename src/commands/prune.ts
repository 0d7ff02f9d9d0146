/**
 * `command: delete`: remove a deployment (a preview when its pull request closes).
 * Idempotent: nothing to delete is `NOT_FOUND` and success. After the DELETE it reads the
 * deployment until it answers 404 (as LangChain's Terraform provider does), within `timeout`.
 *
 * `command: prune`: delete the previews of closed, merged and missing pull requests.
 *
 * 1. List every deployment whose name contains the template's literal part (all pages) and
 *    keep those whose whole name is the template with a PR number in place of `{pr}`.
 * 2. Read each pull request's state from GitHub. Open → keep; closed, merged or 404 → delete;
 *    any other answer → keep with a warning (never delete on doubt).
 * 3. Keep what this action did not create on a run of that pull request (its origin record,
 *    `deployment/origin.ts`), and what is not provably this repository's (`keepWhatIsNotOurs`:
 *    its `repo_url`, or for a deployment without one, this repository's GitHub deployments
 *    recording its ID).
 * 4. Delete: one at a time with `delete-tracing-project` (the bulk call has no such flag) or
 *    when there is only one, else in bulk calls of up to 100. Failures fail the step by name.
 * 5. With `environment: …{pr}…`, mark the GitHub deployments of each pruned PR inactive.
 * 6. One summary table; output `deleted` (names).
 */
import { listAll } from '../api/answers.js';
import { errorMessage } from '../lib/text.js';
import { BULK_DELETE_LIMIT } from '../api/bulk-delete.js';
import type { Deployment } from '../api/schemas.js';
import { ActionError, CancelledError, DeadlineError } from '../lib/errors.js';
import { bestEffortWithin, fail, finish, setStatus, type RunContext } from './context.js';
import type { DeleteConfig, PruneConfig } from '../inputs/config.js';
import { lookupTarget, uiUrl, waitUntilGone } from '../deployment/target.js';
import {
  actionLabel,
  isFailed,
  isRemoved,
  renderPruneSummary,
  stateLabel,
  type PruneAction,
  type PruneRow,
} from '../report/prune.js';
import { readPullStates, type PullState } from '../github/reads.js';
import { fillTemplate, listFilter, matchTemplate, type NameTemplate } from '../inputs/validate.js';
import { appendStepSummary, inert, redact } from '../lib/untrusted.js';
import { normalizeRepoUrl } from '../deployment/upsert.js';
import { deactivateEnvironment, recordedDeploymentIds } from '../github/side-effects.js';
import { notAPreview } from '../deployment/origin.js';

export async function runDelete(ctx: RunContext<DeleteConfig>): Promise<number> {
  const { config, client, logger, state } = ctx;
  const report = state.report;
  report.name = config.name;

  const found = await lookupTarget(client, config, 'delete');
  ctx.output('deployment-id', found?.id ?? config.deploymentId);
  ctx.output('name', found?.name ?? config.name);
  if (!found) {
    logger.info(
      config.deploymentId
        ? `Deployment ${config.deploymentId} does not exist: nothing to delete.`
        : `There is no deployment named '${config.name}': nothing to delete.`,
    );
    report.outcome = 'not_found';
    setStatus(ctx, 'NOT_FOUND');
    return afterDelete(ctx);
  }

  Object.assign(report, { name: found.name, deploymentId: found.id, uiUrl: uiUrl(config, found) });
  logger.info(
    `Deleting deployment '${inert(found.name)}' (${inert(found.id)})` +
      (config.deleteTracingProject ? ' and its tracing project.' : '.'),
  );
  const result = await client.deleteDeployment(found.id, {
    deleteTracingProject: config.deleteTracingProject,
  });
  // The outcome is known now: outputs and the report say so before the wait below.
  report.outcome = result === 'deleted' ? 'deleted' : 'not_found';
  setStatus(ctx, result === 'deleted' ? 'DELETED' : 'NOT_FOUND');
  if (result === 'deleted') {
    report.deletedTracingProject = config.deleteTracingProject;
    // Always (not only with `wait`): a create of this name right after (a reopened pull request)
    // must not meet a deployment that is still going away. Bounded by `timeout`; the DELETE was
    // accepted, so running out of time is a warning, not a failed cleanup.
    try {
      await waitUntilGone(ctx, found.id);
      logger.info(`Deployment '${inert(found.name)}' is gone.`);
    } catch (error) {
      if (!(error instanceof DeadlineError)) throw error;
      logger.warning(
        `Deployment '${inert(found.name)}' (${inert(found.id)}) was still being deleted when ` +
          '`timeout` ran out. The platform accepted the deletion and it goes on; a deployment of ' +
          'this name created right now may meet it. Raise `timeout` to wait until it is gone.',
        { title: 'Deletion still in progress' },
      );
    }
    // The platform refuses to create this name again while the project exists (HTTP 409).
    if (!config.deleteTracingProject) {
      logger.info(
        `Its tracing project '${inert(found.name)}' was kept (input \`delete-tracing-project\` is false): ` +
          'a deployment of this name cannot be created again (e.g. for a reopened pull request) ' +
          'until that project is deleted in LangSmith.',
      );
    }
  }
  return afterDelete(ctx);
}

/** PR comment ("preview removed"), GitHub environment inactive, summary: all best effort. */
async function afterDelete(ctx: RunContext): Promise<number> {
  const { environment } = ctx.config;
  if (environment) await bestEffortWithin(deactivateEnvironment(ctx, environment));
  return finish(ctx, ctx.state.report.outcome);
}

type Match = { deployment: Deployment; pr: number };

export async function runPrune(ctx: RunContext<PruneConfig>): Promise<number> {
  const { config, logger, state } = ctx;
  const { template, dryRun } = config;
  state.report.name = template.template;
  const repositoryUrl = `${config.github.serverUrl || 'https://github.com'}/${config.github.repository}`;
  let rows: PruneRow[] = [];
  const removed = () => rows.filter((r) => isRemoved(r.action)).map((r) => r.name);

  try {
    const matches = await listMatching(ctx, template);
    const shown = matches.slice(0, 20).map((m) => inert(m.deployment.name, 100));
    if (matches.length > shown.length) shown.push(`and ${matches.length - shown.length} more`);
    logger.info(
      `${matches.length} deployment${matches.length === 1 ? '' : 's'} match ` +
        `'${template.template}'${shown.length ? `: ${shown.join(', ')}` : ''}.`,
    );

    const states = await readPullStates(
      ctx,
      matches.map((m) => m.pr),
    );
    ctx.signal.throwIfAborted();
    rows = matches.map(({ deployment, pr }) => {
      const prState: PullState = states.get(pr) ?? { kind: 'unknown', reason: 'not read' };
      const action: PruneAction =
        prState.kind === 'unknown'
          ? { kind: 'kept_unknown', reason: prState.reason }
          : shouldDelete(prState)
            ? { kind: dryRun ? 'would_delete' : 'pending' }
            : { kind: 'kept' };
      return { name: deployment.name, id: deployment.id, pr, state: prState, action };
    });
    await keepWhatIsNotOurs(ctx, matches, rows, repositoryUrl);
    for (const row of rows) {
      if (row.action.kind !== 'kept_unknown') continue;
      logger.warning(
        `Keeping deployment '${inert(row.name, 100)}': the state of pull request #${row.pr} ` +
          `could not be read (${inert(row.action.reason, 300)}). It is pruned by a later run once ` +
          'GitHub answers.',
        { title: 'Preview kept' },
      );
    }

    if (!dryRun) await deleteRows(ctx, rows);

    for (const row of rows) {
      logger.info(
        `${inert(row.name, 100)} (PR #${row.pr}, ${stateLabel(row.state)}): ` +
          inert(actionLabel(row.action), 300),
      );
    }
    ctx.output('deleted', JSON.stringify(removed()));

    // The GitHub deployments of each pruned PR's environment inactive (best effort).
    for (const pr of new Set(rows.filter((r) => isRemoved(r.action)).map((r) => r.pr))) {
      if (dryRun || !config.environment || ctx.signal.aborted) break;
      await bestEffortWithin(deactivateEnvironment(ctx, fillTemplate(config.environment, pr)));
    }

    const failed = rows.filter((r) => isFailed(r.action));
    if (failed.length > 0) {
      throw new ActionError(
        `Could not delete ${failed.length} of the previews to prune: ` +
          failed
            .map((r) => `'${inert(r.name, 100)}' (${inert(actionLabel(r.action), 300)})`)
            .join('; ') +
          '. The next run tries them again; check them in the LangSmith UI if this repeats.',
        'Prune incomplete',
      );
    }
    state.report.outcome = 'success';
  } catch (error) {
    // Whatever happened, `deleted` lists what is gone (an empty list when nothing is).
    ctx.output('deleted', JSON.stringify(removed()));
    // The flow reports a cancellation.
    if (ctx.signal.aborted || error instanceof CancelledError) throw error;
    fail(ctx, error);
  }
  const { error, warnings } = state.report;
  const input = { template: template.template, rows, dryRun, repositoryUrl, error, warnings };
  appendStepSummary(renderPruneSummary(input), process.env, logger);
  return state.report.outcome === 'success' ? 0 : 1;
}

/**
 * Marks every row that would be deleted but is not a preview this action created on a run of
 * that pull request (v1.3), or not provably this repository's, as kept, with the reason,
 * `dry-run` or not (INTERFACE v1.2). Its `repo_url` is compared without case and `.git`; the
 * action writes the ID into the payload of each GitHub deployment it creates.
 */
async function keepWhatIsNotOurs(
  ctx: RunContext,
  matches: readonly Match[],
  rows: PruneRow[],
  repositoryUrl: string,
): Promise<void> {
  const { config } = ctx;
  const recorded = new Map<string, ReturnType<typeof recordedDeploymentIds>>();
  for (const [i, row] of rows.entries()) {
    if (row.action.kind !== 'pending' && row.action.kind !== 'would_delete') continue;
    const { deployment, pr } = matches[i]!;
    const noPreview = notAPreview(config.apiKey, config.github.repository, deployment, pr);
    if (noPreview) {
      row.action = { kind: 'kept_no_preview', reason: inert(noPreview, 400) };
      continue;
    }
    const theirs = deployment.source_config?.repo_url;
    let reason: string | undefined;
    if (theirs) {
      if (normalizeRepoUrl(theirs) !== normalizeRepoUrl(repositoryUrl)) {
        reason = `its repository is ${theirs}, not ${repositoryUrl}`;
      }
    } else if (!config.environment) {
      reason =
        'it names no repository (`upload` or `external_docker`), and without `environment` ' +
        "this repository's GitHub deployments that would record its ID cannot be read";
    } else {
      const environment = fillTemplate(config.environment, pr);
      if (!recorded.has(environment))
        recorded.set(environment, recordedDeploymentIds(ctx, environment));
      const found = await recorded.get(environment)!;
      if (typeof found === 'string') {
        reason =
          `it names no repository, and this repository's GitHub deployments of ` +
          `${environment} could not be read (${found})`;
      } else if (!found.has(deployment.id)) {
        reason =
          'it names no repository, and no GitHub deployment of this repository ' +
          `(environment ${environment}) records its ID`;
      }
    }
    if (reason) row.action = { kind: 'kept_not_ours', reason: inert(reason, 300) };
  }
  ctx.signal.throwIfAborted();
}

/** Every deployment whose whole name matches the template, across all pages, by PR number. */
async function listMatching(ctx: RunContext, template: NameTemplate): Promise<Match[]> {
  const nameContains = listFilter(template);
  const listed = await listAll(
    (query) => ctx.client.listDeployments({ nameContains, ...query }),
    `the deployments named like '${template.template}'`,
    'Report this; nothing was deleted.',
  );
  const seen = new Map<string, Match>();
  for (const deployment of listed) {
    const pr = matchTemplate(template, deployment.name);
    if (pr !== undefined && !seen.has(deployment.id)) seen.set(deployment.id, { deployment, pr });
  }
  return [...seen.values()].sort(
    (a, b) => a.pr - b.pr || a.deployment.name.localeCompare(b.deployment.name),
  );
}

/** Deletes the rows marked `pending`, setting each one's real outcome. */
async function deleteRows(ctx: RunContext<PruneConfig>, rows: PruneRow[]): Promise<void> {
  const { config, client, logger } = ctx;
  const targets = rows.filter((r) => r.action.kind === 'pending');
  if (targets.length === 0) return;
  const failedWith = (error: unknown): PruneAction => {
    if (ctx.signal.aborted) throw error;
    return { kind: 'delete_failed', reason: redact(errorMessage(error)) };
  };
  const one = async (row: PruneRow) => {
    row.action = await client
      .deleteDeployment(row.id, { deleteTracingProject: config.deleteTracingProject })
      .then(
        (result): PruneAction => ({ kind: result === 'deleted' ? 'deleted' : 'already_gone' }),
        failedWith,
      );
  };

  if (config.deleteTracingProject || targets.length === 1) {
    logger.info(
      `Deleting ${targets.length} deployment${targets.length === 1 ? '' : 's'} one by one` +
        (config.deleteTracingProject ? ', each with its tracing project.' : '.'),
    );
    for (const row of targets) await one(row);
    return;
  }

  for (let start = 0; start < targets.length; start += BULK_DELETE_LIMIT) {
    const batch = targets.slice(start, start + BULK_DELETE_LIMIT);
    logger.info(`Deleting ${batch.length} deployments in one call.`);
    const outcome = await client.deleteDeployments(batch.map((r) => r.id)).catch(failedWith);
    if (outcome === 'not_found') {
      // One of them is already gone, and the bulk call refuses the whole batch for it.
      logger.info('The bulk delete answered 404 (one is already gone): deleting these one by one.');
      for (const row of batch) await one(row);
      continue;
    }
    if ('kind' in outcome) {
      for (const row of batch) row.action = outcome;
      continue;
    }
    const byId = new Map(batch.map((r) => [r.id, r]));
    for (const id of outcome.deleted) byId.get(id)!.action = { kind: 'deleted' };
    for (const { id, reason } of outcome.failed) {
      byId.get(id)!.action = { kind: 'delete_failed', reason: redact(reason) };
    }
    for (const id of outcome.unknown) {
      byId.get(id)!.action = {
        kind: 'delete_unconfirmed',
        reason:
          'the control plane answered 207 (some deletions failed) without saying which; check it in the LangSmith UI',
      };
    }
  }
}

/** Delete for closed, merged and missing pull requests; keep open ones and unknown states. */
export function shouldDelete(state: PullState): boolean {
  return state.kind === 'closed' || state.kind === 'merged' || state.kind === 'missing';
}
