/**
 * Which deployment the inputs name, for every command: by `deployment-id` (checked against
 * `name`) or by exact `name`; waiting for a deployment being deleted to be gone; which of its
 * revisions a rollback serves again; and, before an update, `interrupt-previous` (off by
 * default; the README says why): its revision still in progress interrupted, best effort.
 */
import type { ControlPlane } from '../api/client.js';
import { listAll } from '../api/answers.js';
import type { Deployment, Revision } from '../api/schemas.js';
import type { BaseConfig, Target } from '../inputs/config.js';
import { ActionError, ApiError, CancelledError, DeadlineError } from '../lib/errors.js';
import { errorMessage as describe } from '../lib/text.js';
import { inert, type Logger } from '../lib/untrusted.js';
import type { RunBasics } from '../lib/time.js';
import { revisionStatus } from './revision-status.js';

/** What finding the target and waiting for a deletion need (the upsert's context is one). */
export type TargetContext = RunBasics & { client: ControlPlane; config: BaseConfig };

/**
 * The deployment the inputs name (by name: across every page); undefined when there is none, an
 * ID that answers 404 included. `verb` says what the command would do to another one.
 */
export async function lookupTarget(client: ControlPlane, config: Target, verb: string) {
  if (!config.deploymentId) {
    return config.name ? client.findDeploymentByName(config.name) : undefined;
  }
  const found = await getIfExists(client, config.deploymentId);
  if (found && config.name && found.name !== config.name) {
    throw new ActionError(
      `Deployment ${inert(found.id)} (input \`deployment-id\`) is named '${inert(found.name, 100)}', not ` +
        `'${config.name}' (input \`name\`). Refusing to ${verb} a deployment other than the one ` +
        'named; fix one of the two inputs.',
      'Name and ID disagree',
    );
  }
  return found;
}

/** `command: deploy`'s lookup: also undefined when the one found was being deleted (now gone). */
export async function findTarget(ctx: TargetContext & { config: Target }) {
  const { client, config, logger } = ctx;
  const found = await lookupTarget(client, config, 'update');
  if (!found && config.deploymentId) {
    throw new ActionError(
      `Deployment ${config.deploymentId} (input \`deployment-id\`) does not exist in this workspace. ` +
        'Check the ID, or give `name` instead of `deployment-id` to create it.',
      'Deployment not found',
    );
  }
  if (found && found.status === 'AWAITING_DELETE') {
    if (config.deploymentId) {
      throw new ActionError(
        `Deployment ${inert(found.id)} is being deleted (status AWAITING_DELETE); it cannot be updated. ` +
          'Deploy by `name` instead to create a new one once it is gone.',
        'Deployment is being deleted',
      );
    }
    logger.info(
      `Deployment '${inert(found.name)}' (${inert(found.id)}) is being deleted; waiting until it is gone before creating a new one.`,
    );
    await waitUntilGone(ctx, found.id);
    return undefined;
  }
  return found;
}

/** Polls GET /v2/deployments/{id} until it answers 404, within the run's deadline. */
export async function waitUntilGone(ctx: TargetContext, id: string): Promise<void> {
  const { client, clock, deadline, signal } = ctx;
  while (await getIfExists(client, id)) {
    if (deadline.passed()) {
      throw new DeadlineError(
        `Deployment ${id} was still being deleted when the timeout ran out. ` +
          'The deletion goes on on the platform; run the workflow again later, or raise `timeout`.',
      );
    }
    await clock.sleep(Math.min(shortWaitMs(ctx.config) * 5, deadline.remainingMs()), signal);
  }
}

async function getIfExists(client: ControlPlane, id: string): Promise<Deployment | undefined> {
  try {
    return await client.getDeployment(id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/** A short gap between reads that wait for the platform (scaled to `poll-interval`). */
export function shortWaitMs(config: BaseConfig): number {
  return Math.max(50, Math.min(2000, (config.pollIntervalSeconds * 1000) / 10));
}

/** The deployment's page in the LangSmith UI (`ui-url`). */
export function uiUrl(config: BaseConfig, deployment: Deployment): string {
  return `${config.uiBaseUrl}/o/${deployment.tenant_id}/host/deployments/${inert(deployment.id)}`;
}

/** Every revision of a deployment (all pages), in the order the control plane lists them. */
export function listAllRevisions(client: ControlPlane, id: string): Promise<Revision[]> {
  return listAll(
    (query) => client.listRevisions(id, query),
    `the revisions of deployment ${inert(id, 100)}`,
    'Give the revision to serve in `rollback-to`, or report this.',
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
  // Newest first; a date that does not parse sorts last; ties keep the listed order (`sort` is stable).
  const at = (r: Revision) =>
    Number.isNaN(Date.parse(r.created_at)) ? -Infinity : Date.parse(r.created_at);
  const [best] = revisions
    .filter((r) => revisionStatus(r.status).outcome === 'deployed' && r.id !== activeRevisionId)
    .sort((a, b) => at(b) - at(a) || 0);
  if (!best) {
    throw new ActionError(
      `Deployment ${deploymentLabel} has no revision to roll back to: none of its ` +
        `${revisions.length} revisions other than the live one` +
        (activeRevisionId ? ` (${inert(activeRevisionId, 100)})` : '') +
        ' reached DEPLOYED. Nothing was redeployed; deploy a fixed version instead.',
      'Nothing to roll back to',
    );
  }
  return { revision: best, alreadyLive: false };
}

const REFUSALS: Record<404 | 405 | 409, string> = {
  404: 'the control plane does not know the revision or does not offer the call (HTTP 404)',
  405: 'this control plane does not offer the call (HTTP 405)',
  409: 'it is no longer in progress (HTTP 409)',
};

/** `latest`: the `latest_revision_id` revision when the run has just read it (no second GET). */
export async function interruptPrevious(
  client: ControlPlane,
  found: Deployment,
  logger: Logger,
  latest?: Revision,
): Promise<void> {
  const revisionId = found.latest_revision_id;
  if (!revisionId) return;
  const rev = inert(revisionId);
  let status: string | undefined;
  try {
    status =
      latest?.id === revisionId
        ? latest.status
        : (await client.getRevision(found.id, revisionId)).status;
    if (revisionStatus(status).outcome !== 'in_progress') return;
    const answer = await client.interruptRevision(found.id, revisionId);
    if (answer === 'interrupted') {
      logger.info(
        `Interrupted revision ${rev} of '${inert(found.name)}' (it was ${inert(status)}), so ` +
          'that the new revision does not wait behind it (`interrupt-previous: true`).',
      );
      return;
    }
    logger.notice(
      `Revision ${rev} of '${inert(found.name)}' was ${inert(status)} and could not be ` +
        `interrupted: ${REFUSALS[answer]}. The update goes ahead; the new revision may wait behind it.`,
      { title: 'Previous revision not interrupted' },
    );
  } catch (error) {
    if (error instanceof CancelledError || error instanceof DeadlineError) throw error;
    if (status === undefined) {
      logger.debug(
        `interrupt-previous: could not read revision ${rev}: ${inert(describe(error), 300)}`,
      );
      return;
    }
    logger.warning(
      `Interrupting revision ${rev} of '${inert(found.name)}' (${inert(status)}) failed: ` +
        `${inert(describe(error), 500)}. The update goes ahead; the new revision may wait behind it. ` +
        'Set `interrupt-previous: false` to skip this step.',
      { title: 'Previous revision not interrupted' },
    );
  }
}
