/**
 * Serving an earlier revision again (`POST …/revisions/{rev}/redeploy`): which revision to pick,
 * the redeploy (which creates a new revision replaying the old one's source), and following
 * that revision to DEPLOYED and through its health check. Used by `command: rollback` and by
 * `rollback-on-failure`.
 */
import type { ControlPlane } from '../api/client.js';
import type { Deployment, Revision } from '../api/schemas.js';
import { revisionStatus } from './revision-status.js';
import { ActionError, CancelledError } from '../lib/errors.js';
import {
  agentUrlOf,
  follow,
  listAll,
  setStatus,
  showLogTail,
  type RunContext,
} from '../commands/context.js';
import type { RollbackReport } from '../report/record.js';
import { inert } from '../lib/untrusted.js';
import { errorMessage } from '../lib/text.js';
import { verifyDeployment } from '../verify/index.js';
import { withRevision, writeOnce } from './upsert.js';

/** Every revision of a deployment (all pages), in the order the control plane lists them. */
export function listAllRevisions(client: ControlPlane, id: string): Promise<Revision[]> {
  return listAll(
    (query) => client.listRevisions(id, query),
    `the revisions of deployment ${inert(id, 100)}`,
    'Give the revision to serve in `rollback-to`, or report this.',
    `/v2/deployments/${id}/revisions`,
  );
}

/**
 * The revision `command: rollback` serves: `rollbackTo` when given (it must be a revision of
 * this deployment that reached DEPLOYED), else the newest by `created_at` that reached
 * DEPLOYED other than the live one. No such revision is an error.
 */
export function pickRollbackTarget(
  revisions: readonly Revision[],
  activeRevisionId: string | null | undefined,
  rollbackTo: string | undefined,
  deploymentLabel: string,
): { revision: Revision; alreadyLive: boolean } {
  if (rollbackTo) {
    const wanted = rollbackTo.toLowerCase();
    const revision = revisions.find((r) => r.id.toLowerCase() === wanted);
    if (!revision) {
      throw new ActionError(
        `Input \`rollback-to\` names revision ${rollbackTo}, which is not one of the ` +
          `${revisions.length} revisions of deployment ${deploymentLabel}. Copy the ID from the ` +
          '`revision-id` output of the run that deployed it, or leave `rollback-to` empty to ' +
          'serve the newest earlier revision that reached DEPLOYED. Nothing was redeployed.',
        'Nothing to roll back to',
      );
    }
    if (revisionStatus(revision.status).outcome !== 'deployed') {
      throw new ActionError(
        `Revision ${inert(revision.id, 100)} (input \`rollback-to\`) of deployment ${deploymentLabel} is ` +
          `${inert(revision.status, 40)}: only a revision that reached DEPLOYED can be served ` +
          'again. Pick another one, or leave `rollback-to` empty. Nothing was redeployed.',
        'Nothing to roll back to',
      );
    }
    return { revision, alreadyLive: revision.id === activeRevisionId };
  }
  const candidates = revisions
    .filter((r) => revisionStatus(r.status).outcome === 'deployed' && r.id !== activeRevisionId)
    .map((r, i) => ({ r, i, at: Date.parse(r.created_at) }))
    // Newest first; a date that does not parse sorts last; ties keep the listed order.
    .sort((a, b) => nanLast(b.at) - nanLast(a.at) || a.i - b.i);
  const best = candidates[0];
  if (!best) {
    throw new ActionError(
      `Deployment ${deploymentLabel} has no revision to roll back to: none of its ` +
        `${revisions.length} revisions other than the live one` +
        (activeRevisionId ? ` (${inert(activeRevisionId, 100)})` : '') +
        ' reached DEPLOYED. Nothing was redeployed; deploy a fixed version instead.',
      'Nothing to roll back to',
    );
  }
  return { revision: best.r, alreadyLive: false };
}

function nanLast(ms: number): number {
  return Number.isNaN(ms) ? -Infinity : ms;
}

/**
 * Redeploys `record.to`, follows the revision it creates to DEPLOYED, and checks its health;
 * `ctx` brings the client and deadline to use. What happens goes into `record` (the new
 * revision, its statuses and health). With `asRun` (`command: rollback`) the new
 * revision is the run's: its ID and status go to the outputs and the report at once. Returns
 * why it failed, written for the workflow's author (the caller writes one message), or
 * undefined when the revision serves again; a cancellation is thrown.
 */
export async function serveAgain(
  ctx: RunContext,
  deployment: Deployment,
  record: RollbackReport,
  asRun: boolean,
): Promise<string | undefined> {
  const { config, logger, state } = ctx;
  const target = record.to;
  const failed = (error: unknown) => {
    if (error instanceof CancelledError || ctx.signal.aborted) throw error;
    return message(error);
  };
  let revisionId: string;
  try {
    revisionId = await redeploy(ctx, deployment, target);
  } catch (error) {
    return `the redeploy request failed: ${failed(error)}`;
  }
  record.revisionId = revisionId;
  if (asRun) {
    state.report.revisionId = revisionId;
    ctx.output('revision-id', revisionId);
  }
  logger.info(
    `Revision ${inert(target, 100)} is being served again as new revision ${inert(revisionId, 100)}; following it.`,
  );

  let waited;
  try {
    waited = await follow(ctx, deployment.id, revisionId, {
      onStatus: (change) => {
        record.timeline.push(change);
        record.status = change.status;
        if (asRun) {
          state.report.timeline = record.timeline;
          setStatus(ctx, change.status);
        }
      },
    });
  } catch (error) {
    return failed(error);
  }
  record.status = waited.status;
  if (waited.outcome !== 'deployed') {
    if (waited.outcome === 'failed') {
      await showLogTail(ctx, deployment.id, revisionId, waited.status, false);
    }
    return `its new revision ${inert(revisionId, 100)} ended in ${inert(waited.status, 40)}`;
  }

  if (!config.healthCheck) return undefined;
  const current = await ctx.client.getDeployment(deployment.id).catch(() => deployment);
  const checked = await verifyDeployment(ctx, { url: agentUrlOf(current), healthCheck: true });
  if (checked.error === undefined) {
    if (checked.health) record.health = checked.health;
    return undefined;
  }
  record.health = 'failed';
  return `its new revision ${inert(revisionId, 100)} is DEPLOYED but failed the health check: ${message(checked.error)}`;
}

/**
 * The redeploy call (`POST …/revisions/{rev}/redeploy`). A lost answer is resolved by reading
 * the deployment (`writeOnce`), and sent again once; an answer that names no new revision yet
 * is followed by a few reads.
 */
export async function redeploy(
  ctx: RunContext,
  deployment: Deployment,
  target: string,
): Promise<string> {
  const fresh = await ctx.client.getDeployment(deployment.id);
  const sent = await writeOnce(ctx, fresh, 'redeploy', 2, () => {
    ctx.logger.info(
      `Redeploying revision ${inert(target, 100)} of deployment ${inert(deployment.id, 100)}.`,
    );
    return ctx.client.redeployRevision(deployment.id, target);
  });
  if (!('answer' in sent)) return sent.revisionId;
  return (await withRevision(ctx, sent.answer, 'redeploy', fresh.latest_revision_id)).revisionId;
}

/** The error's message without its final period, to go inside a sentence. */
export function message(error: unknown): string {
  return errorMessage(error).replace(/\.\s*$/, '');
}
