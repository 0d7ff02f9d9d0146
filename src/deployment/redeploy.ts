/**
 * Serving an earlier revision again (`POST …/revisions/{rev}/redeploy`): which revision to pick,
 * the redeploy (which creates a new revision replaying the old one's source), and following
 * that revision to DEPLOYED and through its health check. Used by `command: rollback` and by
 * `rollback-on-failure`.
 */
import { MAX_PAGES, type ControlPlane } from '../api/client.js';
import type { Deployment, Revision } from '../api/schemas.js';
import { revisionStatus } from './revision-status.js';
import { ActionError, ApiError, CancelledError } from '../lib/errors.js';
import { type RunContext } from '../commands/context.js';
import { OutcomeUnknownError, type HttpContext } from '../api/http/request.js';
import type { RollbackReport } from '../report/record.js';
import { inert } from '../lib/untrusted.js';
import { Deadline } from '../lib/time.js';
import { waitForRevision } from './wait.js';
import { agentUrlOf, showLogTail } from './steps.js';
import { verifyDeployment } from '../verify/index.js';

/** The control plane as the rollback uses it: the usual calls plus the redeploy. */
export interface RollbackPlane extends ControlPlane {
  redeployRevision(id: string, revisionId: string): Promise<Deployment>;
}

const PAGE_SIZE = 100;
/** Reads of the deployment when a redeploy answer names no new revision yet. */
const MAX_REVISION_READS = 5;

/** Every revision of a deployment (all pages), in the order the control plane lists them. */
export async function listAllRevisions(client: ControlPlane, id: string): Promise<Revision[]> {
  const all: Revision[] = [];
  let offset = 0;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) {
      throw new ApiError(
        `Listing the revisions of deployment ${inert(id, 100)} took more than ${MAX_PAGES} pages of ` +
          `${PAGE_SIZE} without reaching the end: the control plane seems to page wrongly. ` +
          'Give the revision to serve in `rollback-to`, or report this.',
        { method: 'GET', path: `/v2/deployments/${id}/revisions` },
      );
    }
    const list = await client.listRevisions(id, { limit: PAGE_SIZE, offset });
    all.push(...list.resources);
    if (list.resources.length < PAGE_SIZE || !(list.offset > offset)) return all;
    offset = list.offset;
  }
}

export type RollbackTarget =
  { ok: true; revision: Revision; alreadyLive: boolean } | { ok: false; message: string };

/**
 * The revision `command: rollback` serves: `rollbackTo` when given (it must be a revision of
 * this deployment that reached DEPLOYED), else the newest by `created_at` that reached
 * DEPLOYED other than the live one.
 */
export function pickRollbackTarget(
  revisions: readonly Revision[],
  activeRevisionId: string | null | undefined,
  rollbackTo: string | undefined,
  deploymentLabel: string,
): RollbackTarget {
  if (rollbackTo) {
    const wanted = rollbackTo.toLowerCase();
    const revision = revisions.find((r) => r.id.toLowerCase() === wanted);
    if (!revision) {
      return {
        ok: false,
        message:
          `Input \`rollback-to\` names revision ${rollbackTo}, which is not one of the ` +
          `${revisions.length} revisions of deployment ${deploymentLabel}. Copy the ID from the ` +
          '`revision-id` output of the run that deployed it, or leave `rollback-to` empty to ' +
          'serve the newest earlier revision that reached DEPLOYED. Nothing was redeployed.',
      };
    }
    if (revisionStatus(revision.status).outcome !== 'deployed') {
      return {
        ok: false,
        message:
          `Revision ${inert(revision.id, 100)} (input \`rollback-to\`) of deployment ${deploymentLabel} is ` +
          `${inert(revision.status, 40)}: only a revision that reached DEPLOYED can be served ` +
          'again. Pick another one, or leave `rollback-to` empty. Nothing was redeployed.',
      };
    }
    return { ok: true, revision, alreadyLive: revision.id === activeRevisionId };
  }
  const candidates = revisions
    .filter((r) => revisionStatus(r.status).outcome === 'deployed' && r.id !== activeRevisionId)
    .map((r, i) => ({ r, i, at: Date.parse(r.created_at) }))
    // Newest first; a date that does not parse sorts last; ties keep the listed order.
    .sort((a, b) => nanLast(b.at) - nanLast(a.at) || a.i - b.i);
  const best = candidates[0];
  if (!best) {
    return {
      ok: false,
      message:
        `Deployment ${deploymentLabel} has no revision to roll back to: none of its ` +
        `${revisions.length} revisions other than the live one` +
        (activeRevisionId ? ` (${inert(activeRevisionId, 100)})` : '') +
        ' reached DEPLOYED. Nothing was redeployed; deploy a fixed version instead.',
    };
  }
  return { ok: true, revision: best.r, alreadyLive: false };
}

export function nanLast(ms: number): number {
  return Number.isNaN(ms) ? -Infinity : ms;
}

/** What serving a revision again came to. */
export interface Restored {
  /** The revision the redeploy created (undefined when the redeploy call failed). */
  revisionId?: string;
  status?: string;
  outcome: 'restored' | 'failed';
  health?: 'passed' | 'failed' | 'skipped';
  /** Why it failed, written for the workflow's author. */
  problem?: string;
}

export interface ServeAgainOptions {
  client: RollbackPlane;
  http: HttpContext;
  deadline: Deadline;
  deployment: Deployment;
  target: string;
  record: RollbackReport;
  /** Sets the outputs of the new revision as soon as it is known. */
  onRevision?: (revisionId: string) => void;
  onStatus?: (status: string) => void;
}

/**
 * Redeploys `target`, follows the revision it creates to DEPLOYED, and checks its health.
 * Failures are returned (the caller writes one message); a cancellation is thrown.
 */
export async function serveAgain(ctx: RunContext, opts: ServeAgainOptions): Promise<Restored> {
  const { config, logger } = ctx;
  const { client, deployment, target, record } = opts;
  let revisionId: string;
  try {
    revisionId = await redeploy(ctx, client, opts.deadline, deployment, target);
  } catch (error) {
    if (error instanceof CancelledError || ctx.signal.aborted) throw error;
    return { outcome: 'failed', problem: `the redeploy request failed: ${message(error)}` };
  }
  record.revisionId = revisionId;
  opts.onRevision?.(revisionId);
  logger.info(
    `Revision ${inert(target, 100)} is being served again as new revision ${inert(revisionId, 100)}; following it.`,
  );

  let waited;
  try {
    waited = await waitForRevision({
      client,
      deploymentId: deployment.id,
      revisionId,
      clock: ctx.clock,
      deadline: opts.deadline,
      signal: ctx.signal,
      logger,
      pollIntervalMs: config.pollIntervalSeconds * 1000,
      onStatus: (change) => {
        record.timeline.push(change);
        record.status = change.status;
        opts.onStatus?.(change.status);
      },
    });
  } catch (error) {
    if (error instanceof CancelledError || ctx.signal.aborted) throw error;
    return { revisionId, outcome: 'failed', problem: message(error) };
  }
  record.status = waited.status;
  if (waited.outcome !== 'deployed') {
    if (waited.outcome === 'failed') {
      await showLogTail(ctx, deployment.id, revisionId, waited.status, false);
    }
    return {
      revisionId,
      status: waited.status,
      outcome: 'failed',
      problem: `its new revision ${inert(revisionId, 100)} ended in ${inert(waited.status, 40)}`,
    };
  }

  if (!config.healthCheck) return { revisionId, status: waited.status, outcome: 'restored' };
  const current = await client.getDeployment(deployment.id).catch(() => deployment);
  const url = agentUrlOf(current);
  const checked = await verifyDeployment(
    { http: opts.http, config, logger },
    { url, healthCheck: true },
  );
  record.health = checked.health;
  if (checked.error !== undefined) {
    return {
      revisionId,
      status: waited.status,
      outcome: 'failed',
      health: 'failed',
      problem: `its new revision ${inert(revisionId, 100)} is DEPLOYED but failed the health check: ${message(checked.error)}`,
    };
  }
  return {
    revisionId,
    status: waited.status,
    outcome: 'restored',
    ...(checked.health ? { health: checked.health } : {}),
  };
}

/**
 * The redeploy call. A lost answer (reset, timeout, 5xx after sending) is resolved by reading
 * the deployment: a new `latest_revision_id` is this call's revision; otherwise it is sent again
 * once. An answer that names no new revision yet is followed by a few reads.
 */
export async function redeploy(
  ctx: RunContext,
  client: RollbackPlane,
  deadline: Deadline,
  deployment: Deployment,
  target: string,
): Promise<string> {
  let before = (await client.getDeployment(deployment.id)).latest_revision_id;
  let answer: Deployment | undefined;
  for (let attempt = 1; answer === undefined; attempt++) {
    try {
      ctx.logger.info(
        `Redeploying revision ${inert(target, 100)} of deployment ${inert(deployment.id, 100)}.`,
      );
      answer = await client.redeployRevision(deployment.id, target);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError) || attempt >= 2) throw error;
      ctx.logger.warning(
        `The redeploy request got no usable answer (${inert(error.message, 300)}); reading the ` +
          'deployment to see whether it was applied.',
      );
      const now = await client.getDeployment(deployment.id);
      if (now.latest_revision_id && now.latest_revision_id !== before) {
        return now.latest_revision_id;
      }
      before = now.latest_revision_id;
    }
  }
  let current = answer;
  for (let read = 0; !current.latest_revision_id || current.latest_revision_id === before; read++) {
    if (read >= MAX_REVISION_READS || deadline.passed()) {
      throw new ActionError(
        `the control plane accepted the redeploy of revision ${inert(target, 100)} but reports no new ` +
          'revision to follow',
        'No revision',
      );
    }
    await ctx.clock.sleep(Math.min(1000, deadline.remainingMs()), ctx.signal);
    current = await client.getDeployment(deployment.id);
  }
  return current.latest_revision_id;
}

export function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.\s*$/, '');
}
