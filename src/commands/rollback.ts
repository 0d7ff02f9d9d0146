/**
 * Serving an earlier revision again: `command: rollback`, and `rollback-on-failure` after a
 * deploy whose new revision reached DEPLOYED but failed its checks. Both ask the platform to
 * redeploy a revision (`POST …/revisions/{rev}/redeploy`, which creates a new revision that
 * replays the old one's source), follow the revision that creates to DEPLOYED with the same
 * polling as a deploy, and check its health.
 */
import type { ControlPlane } from '../control-plane/api.js';
import { ControlPlaneClient, MAX_PAGES } from '../control-plane/client.js';
import type { Deployment, Revision } from '../control-plane/schemas.js';
import { revisionStatus } from '../deployment/revision-status.js';
import { lookupTarget, uiUrl } from '../deployment/target.js';
import { ActionError, ApiError, CancelledError } from '../errors.js';
import { fail, writeReports, type RunContext } from '../run-context.js';
import { OutcomeUnknownError, type HttpContext } from '../http/request.js';
import type { GithubDeployment } from '../report/github-deployment.js';
import type { RollbackReport } from '../report/types.js';
import { inert } from '../runner.js';
import { Deadline } from '../time.js';
import { waitForRevision } from '../deployment/wait.js';
import {
  agentUrlOf,
  failRun,
  setStatus,
  setUrl,
  showLogTail,
  startGithubDeployment,
} from '../deployment/steps.js';

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

function nanLast(ms: number): number {
  return Number.isNaN(ms) ? -Infinity : ms;
}

/** What serving a revision again came to. */
interface Restored {
  /** The revision the redeploy created (undefined when the redeploy call failed). */
  revisionId?: string;
  status?: string;
  outcome: 'restored' | 'failed';
  health?: 'passed' | 'failed' | 'skipped';
  /** Why it failed, written for the workflow's author. */
  problem?: string;
}

interface ServeAgainOptions {
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
async function serveAgain(ctx: RunContext, opts: ServeAgainOptions): Promise<Restored> {
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
  const { verifyDeployment } = await import('../verify/run-checks.js');
  const checked = await verifyDeployment(
    { http: opts.http, apiKey: config.apiKey, logger },
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
async function redeploy(
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

function message(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\.\s*$/, '');
}

// ---------------------------------------------------------------------------------------------
// command: rollback
// ---------------------------------------------------------------------------------------------

export async function runRollback(ctx: RunContext): Promise<number> {
  const { config, logger, state } = ctx;
  const client = ctx.client as RollbackPlane;
  const report = state.report;
  report.name = config.name;

  const deployment = await lookup(ctx);
  Object.assign(report, {
    name: deployment.name,
    deploymentId: deployment.id,
    uiUrl: uiUrl(config, deployment),
  });
  ctx.output('deployment-id', deployment.id);
  ctx.output('name', deployment.name);
  ctx.output('ui-url', report.uiUrl);
  setUrl(ctx, deployment);

  const label = `'${inert(deployment.name, 100)}' (${inert(deployment.id, 100)})`;
  const live = deployment.active_revision_id ?? undefined;
  const revisions = await listAllRevisions(client, deployment.id);
  const picked = pickRollbackTarget(revisions, live, config.rollbackTo, label);
  if (!picked.ok) {
    fail(ctx, new ActionError(picked.message, 'Nothing to roll back to'));
    return failRun(ctx);
  }
  const target = picked.revision;
  const record: RollbackReport = {
    ...(live ? { from: live } : {}),
    to: target.id,
    reason: config.rollbackTo
      ? 'requested with command rollback and rollback-to'
      : 'requested with command rollback: the newest earlier revision that reached DEPLOYED',
    outcome: 'started',
    timeline: [],
  };
  report.rollback = record;
  ctx.output('rolled-back-to', target.id);

  if (picked.alreadyLive) {
    // Nothing to redeploy: the revision asked for is the one serving.
    logger.notice(
      `Revision ${inert(target.id, 100)} (input \`rollback-to\`) is already the live revision of ${label}: ` +
        'nothing was redeployed.',
      { title: 'Already live' },
    );
    Object.assign(record, { outcome: 'not_needed', revisionId: target.id, status: 'DEPLOYED' });
    report.revisionId = target.id;
    ctx.output('revision-id', target.id);
    setStatus(ctx, 'DEPLOYED');
    return finishRollback(ctx, undefined, record);
  }

  const commit = target.source_revision_config.repo_commit_sha;
  logger.info(
    `Rolling back ${label}: serving revision ${inert(target.id, 100)} (created ` +
      `${inert(target.created_at, 40)}${commit ? `, commit ${inert(commit, 40)}` : ''}) again` +
      (live ? `, instead of the live revision ${inert(live, 100)}.` : '.'),
  );

  if (!config.wait) {
    const revisionId = await redeploy(ctx, client, ctx.deadline, deployment, target.id);
    Object.assign(record, { revisionId, outcome: 'started' });
    report.revisionId = revisionId;
    ctx.output('revision-id', revisionId);
    const revision = await client.getRevision(deployment.id, revisionId);
    setStatus(ctx, revision.status);
    record.status = revision.status;
    report.outcome = 'started';
    logger.info(
      `Not waiting (input \`wait\` is false): revision ${inert(revisionId, 100)} is ${inert(revision.status, 40)}.`,
    );
    await writeReports(ctx);
    return 0;
  }

  const ghDeployment = await startGithubDeployment(ctx);
  state.onCancel = async () => ghDeployment?.setStatus('error', { description: 'Cancelled' });
  const restored = await serveAgain(ctx, {
    client,
    http: ctx.http,
    deadline: ctx.deadline,
    deployment,
    target: target.id,
    record,
    onRevision: (revisionId) => {
      report.revisionId = revisionId;
      ctx.output('revision-id', revisionId);
    },
    onStatus: (status) => {
      report.timeline = record.timeline;
      setStatus(ctx, status);
    },
  });
  report.timeline = record.timeline;
  if (restored.status) setStatus(ctx, restored.status);
  if (restored.health) report.checks = { health: restored.health };
  record.outcome = restored.outcome;
  if (restored.outcome === 'failed') {
    await ghDeployment?.setStatus('failure', {
      description: `Rollback to revision ${inert(target.id, 100)} failed`,
    });
    fail(
      ctx,
      new ActionError(
        `The rollback of ${label} to revision ${inert(target.id, 100)} failed: ${restored.problem}. ` +
          (live
            ? `Revision ${inert(live, 100)} may still be the live one. `
            : 'The deployment may have no healthy revision now. ') +
          'Look at the deployment in LangSmith' +
          (report.uiUrl ? ` (${inert(report.uiUrl, 300)})` : '') +
          ', then run the rollback again or deploy a fixed version.',
        'Rollback failed',
      ),
    );
    return failRun(ctx);
  }
  return finishRollback(ctx, ghDeployment, record);
}

async function finishRollback(
  ctx: RunContext,
  ghDeployment: GithubDeployment | undefined,
  record: RollbackReport,
): Promise<number> {
  const report = ctx.state.report;
  const current = await ctx.client.getDeployment(report.deploymentId!).catch(() => undefined);
  if (current) setUrl(ctx, current);
  report.outcome = 'success';
  await ghDeployment?.setStatus('success', {
    environmentUrl: report.uiUrl,
    description: `Rolled back to revision ${inert(record.to, 100)}`,
  });
  ctx.logger.info(
    `Deployment '${inert(report.name, 100)}' serves revision ${inert(record.to, 100)} again` +
      (record.revisionId && record.revisionId !== record.to
        ? ` (as revision ${inert(record.revisionId, 100)})`
        : '') +
      (report.url ? ` at ${inert(report.url, 300)}.` : '.'),
  );
  await writeReports(ctx);
  return 0;
}

/** The deployment to roll back, by `deployment-id` or by exact `name`; absent is an error. */
async function lookup(ctx: RunContext): Promise<Deployment> {
  const { config, client } = ctx;
  const found = await lookupTarget(client, config, 'roll back');
  if (found) return found;
  throw new ActionError(
    config.deploymentId
      ? `Deployment ${config.deploymentId} (input \`deployment-id\`) does not exist in this ` +
          'workspace, so there is nothing to roll back. Check the ID.'
      : `There is no deployment named '${config.name}' (input \`name\`), so there is nothing to ` +
          'roll back. Check the name, and `workspace-id` if the key can reach several workspaces.',
    'Deployment not found',
  );
}

// ---------------------------------------------------------------------------------------------
// rollback-on-failure
// ---------------------------------------------------------------------------------------------

export interface FailedChecks {
  deployment: Deployment;
  /** This run's revision: DEPLOYED, then failed a check. */
  failedRevisionId: string;
  /** `active_revision_id` read before the PATCH; undefined when this run created it. */
  previousRevisionId: string | undefined;
  /** The failed check, as the checks reported it. */
  failure: unknown;
  ghDeployment: GithubDeployment | undefined;
}

/**
 * `rollback-on-failure: true` and this run's revision failed a check after DEPLOYED: serve the
 * revision that was live before again (with its own `timeout` budget, since the failed check
 * may have used the run's up), check its health, and fail the step with one message naming
 * both revisions and why. Returns the exit code.
 */
export async function rollBackAfterFailedChecks(
  ctx: RunContext,
  failed: FailedChecks,
): Promise<number> {
  const { config, logger, state } = ctx;
  const { deployment, failedRevisionId, previousRevisionId } = failed;
  const why = message(failed.failure);
  const title = failed.failure instanceof ActionError ? failed.failure.title : 'Checks failed';
  const name = `'${inert(deployment.name, 100)}'`;

  if (!previousRevisionId || previousRevisionId === failedRevisionId) {
    const nothing = !previousRevisionId
      ? state.report.created
        ? 'this run created the deployment, so there is no earlier revision'
        : 'no revision of the deployment was live before this run'
      : `revision ${inert(failedRevisionId, 100)} was already the live one before this run`;
    fail(
      ctx,
      new ActionError(
        `${why}. No rollback (\`rollback-on-failure\`): ${nothing} to serve again. ` +
          `Revision ${inert(failedRevisionId, 100)} of ${name} stays live.`,
        title,
      ),
    );
    await failed.ghDeployment?.setStatus('failure', { description: 'Post-deploy checks failed' });
    return failRun(ctx);
  }

  const record: RollbackReport = {
    from: failedRevisionId,
    to: previousRevisionId,
    reason: why,
    outcome: 'started',
    timeline: [],
  };
  state.report.rollback = record;
  ctx.output('rolled-back-to', previousRevisionId);
  logger.warning(
    `Revision ${inert(failedRevisionId, 100)} of ${name} is DEPLOYED but failed its checks; ` +
      `rolling back to revision ${inert(previousRevisionId, 100)}, which was live before this run ` +
      `(\`rollback-on-failure\`, with a budget of ${config.timeoutSeconds} s of its own).`,
    { title: 'Rolling back' },
  );
  await failed.ghDeployment?.setStatus('in_progress', {
    description: `Checks failed; rolling back to revision ${inert(previousRevisionId, 100)}`,
  });

  // The rollback's own budget and client: the failed check may have used the run's up.
  const deadline = Deadline.fromSeconds(ctx.clock, config.timeoutSeconds);
  const http: HttpContext = { ...ctx.http, deadline };
  const client = new ControlPlaneClient({
    baseUrl: config.controlPlaneUrl,
    apiKey: config.apiKey,
    workspaceId: config.workspaceId,
    http,
  });
  const restored = await serveAgain(ctx, {
    client,
    http,
    deadline,
    deployment,
    target: previousRevisionId,
    record,
  });
  record.outcome = restored.outcome;
  const ui = state.report.uiUrl ? ` (${inert(state.report.uiUrl, 300)})` : '';
  if (restored.outcome === 'restored') {
    await failed.ghDeployment?.setStatus('failure', {
      description: `Checks failed; rolled back to revision ${inert(previousRevisionId, 100)}`,
    });
    fail(
      ctx,
      new ActionError(
        `Revision ${inert(failedRevisionId, 100)} of ${name} reached DEPLOYED but failed its checks: ${why}. ` +
          `Rolled back: revision ${inert(previousRevisionId, 100)}, which was live before this run, serves ` +
          `again (as new revision ${inert(restored.revisionId, 100)}, DEPLOYED` +
          (restored.health === 'passed' ? ', health check passed' : '') +
          '). Fix the cause and deploy again.',
        'Rolled back after failed checks',
      ),
    );
  } else {
    await failed.ghDeployment?.setStatus('failure', {
      description: `Checks failed; rollback to revision ${inert(previousRevisionId, 100)} failed`,
    });
    fail(
      ctx,
      new ActionError(
        `Revision ${inert(failedRevisionId, 100)} of ${name} reached DEPLOYED but failed its checks: ${why}. ` +
          `The rollback to revision ${inert(previousRevisionId, 100)}, which was live before this run, ` +
          `failed too: ${restored.problem}. The deployment may be serving the failing revision: ` +
          `look at it in LangSmith${ui} now, and run \`command: rollback\` or deploy a fix.`,
        'Rollback failed',
      ),
    );
  }
  return failRun(ctx);
}
