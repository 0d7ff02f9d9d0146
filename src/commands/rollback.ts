/**
 * Serving an earlier revision again: `command: rollback`, and `rollback-on-failure` after a
 * deploy whose new revision reached DEPLOYED but failed its checks. Both ask the platform to
 * redeploy a revision (`POST …/revisions/{rev}/redeploy`, which creates a new revision that
 * replays the old one's source), follow the revision that creates to DEPLOYED with the same
 * polling as a deploy, and check its health.
 */
import { ControlPlaneClient } from '../api/client.js';
import type { Deployment } from '../api/schemas.js';
import {
  listAllRevisions,
  message,
  pickRollbackTarget,
  redeploy,
  serveAgain,
  type RollbackPlane,
} from '../deployment/redeploy.js';
import { lookupTarget, uiUrl } from '../deployment/target.js';
import { ActionError } from '../lib/errors.js';
import { fail, writeReports, type RunContext } from './context.js';
import { type HttpContext } from '../api/http/request.js';
import type { GithubDeployment } from '../report/github/github-deployment.js';
import type { RollbackReport } from '../report/record.js';
import { inert } from '../lib/untrusted.js';
import { Deadline } from '../lib/time.js';
import { failRun, setStatus, setUrl, startGithubDeployment } from '../deployment/steps.js';

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

  // The rollback's own budget and client: the failed check may have used the run's up.
  const deadline = Deadline.fromSeconds(ctx.clock, config.timeoutSeconds);
  const http: HttpContext = { ...ctx.http, deadline };
  const client = new ControlPlaneClient({
    baseUrl: config.controlPlaneUrl,
    apiKey: config.apiKey,
    workspaceId: config.workspaceId,
    http,
  });
  // Touch only what this run owns: when another run has requested a newer revision since, the
  // deployment is that run's now, and serving the old revision again would undo its work.
  const tookOver = await newerRevision(client, deployment.id, failedRevisionId);
  if (tookOver !== undefined) {
    fail(
      ctx,
      new ActionError(
        `${why}. No rollback (\`rollback-on-failure\`): ${tookOver} Revision ` +
          `${inert(previousRevisionId, 100)} of ${name} was not redeployed; check the deployment ` +
          'in LangSmith and roll back with `command: rollback` if it needs it.',
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

/**
 * Why the deployment is no longer this run's to roll back (its latest revision is not the one
 * this run requested, or it cannot be read to make sure), or undefined when it still is.
 */
async function newerRevision(
  client: ControlPlaneClient,
  deploymentId: string,
  requested: string,
): Promise<string | undefined> {
  let latest: string | null;
  try {
    latest = (await client.getDeployment(deploymentId)).latest_revision_id;
  } catch (error) {
    return (
      `the deployment could not be read again to make sure no newer revision has taken over ` +
      `(${inert(message(error), 300)}), and a rollback over another run's revision would undo it.`
    );
  }
  if (latest === requested) return undefined;
  return (
    `a newer revision${latest ? ` (${inert(latest, 100)})` : ''} has taken over the deployment ` +
    `since this run requested revision ${inert(requested, 100)} (another run deployed it), so ` +
    'serving the old revision again would undo it.'
  );
}
