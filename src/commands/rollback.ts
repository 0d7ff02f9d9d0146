/**
 * `command: rollback`, and `rollback-on-failure` after a deploy whose new revision reached
 * DEPLOYED but failed its checks: both serve an earlier revision again (`serveAgain`).
 */
import { ControlPlaneClient } from '../api/client.js';
import type { Deployment } from '../api/schemas.js';
import {
  listAllRevisions,
  message,
  pickRollbackTarget,
  redeploy,
  serveAgain,
} from '../deployment/redeploy.js';
import { lookupTarget } from '../deployment/target.js';
import { ActionError } from '../lib/errors.js';
import {
  fail,
  finish,
  notWaiting,
  setDeploymentOutputs,
  setStatus,
  setUrl,
  startGithubDeployment,
  type RunContext,
} from './context.js';
import type { GithubDeployment } from '../report/github/github-deployment.js';
import type { RollbackReport } from '../report/record.js';
import { inert } from '../lib/untrusted.js';
import { Deadline } from '../lib/time.js';

export async function runRollback(ctx: RunContext): Promise<number> {
  const { config, client, logger, state } = ctx;
  const report = state.report;
  report.name = config.name;

  const deployment = await lookupTarget(client, config, 'roll back');
  if (!deployment) {
    throw new ActionError(
      config.deploymentId
        ? `Deployment ${config.deploymentId} (input \`deployment-id\`) does not exist in this ` +
            'workspace, so there is nothing to roll back. Check the ID.'
        : `There is no deployment named '${config.name}' (input \`name\`), so there is nothing to ` +
            'roll back. Check the name, and `workspace-id` if the key can reach several workspaces.',
      'Deployment not found',
    );
  }
  setDeploymentOutputs(ctx, deployment);

  const label = `'${inert(deployment.name, 100)}' (${inert(deployment.id, 100)})`;
  const live = deployment.active_revision_id ?? undefined;
  const revisions = await listAllRevisions(client, deployment.id);
  const picked = pickRollbackTarget(revisions, live, config.rollbackTo, label);
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
    const revisionId = await redeploy(ctx, deployment, target.id);
    record.revisionId = report.revisionId = revisionId;
    ctx.output('revision-id', revisionId);
    record.status = (await client.getRevision(deployment.id, revisionId)).status;
    return notWaiting(ctx, revisionId, record.status);
  }

  const ghDeployment = await startGithubDeployment(ctx);
  const problem = await serveAgain(ctx, deployment, record, true);
  record.outcome = problem === undefined ? 'restored' : 'failed';
  report.timeline = record.timeline;
  if (record.status) setStatus(ctx, record.status);
  if (record.health) report.checks = { health: record.health };
  if (problem !== undefined) {
    await ghDeployment?.setStatus('failure', {
      description: `Rollback to revision ${inert(target.id, 100)} failed`,
    });
    fail(
      ctx,
      new ActionError(
        `The rollback of ${label} to revision ${inert(target.id, 100)} failed: ${problem}. ` +
          (live
            ? `Revision ${inert(live, 100)} may still be the live one. `
            : 'The deployment may have no healthy revision now. ') +
          'Look at the deployment in LangSmith' +
          (report.uiUrl ? ` (${inert(report.uiUrl, 300)})` : '') +
          ', then run the rollback again or deploy a fixed version.',
        'Rollback failed',
      ),
    );
    return finish(ctx, 'failure');
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
  return finish(ctx, 'success');
}

/**
 * `rollback-on-failure: true` and this run's revision (`requested.revisionId`) failed a check
 * after DEPLOYED: serve the revision that was live before again (`previousRevisionId`, read
 * before the write; undefined when this run created the deployment), with its own `timeout`
 * budget since the failed check may have used the run's up, check its health, and fail the
 * step with one message naming both revisions and why. Returns the exit code.
 */
export async function rollBackAfterFailedChecks(
  ctx: RunContext,
  deployment: Deployment,
  ghDeployment: GithubDeployment | undefined,
  requested: { revisionId: string; previousRevisionId: string | undefined },
  failure: unknown,
): Promise<number> {
  const { config, logger, state } = ctx;
  const { revisionId: failedRevisionId, previousRevisionId: previous } = requested;
  const why = message(failure);
  const name = `'${inert(deployment.name, 100)}'`;
  const failWith = async (description: string, error: ActionError) => {
    await ghDeployment?.setStatus('failure', { description });
    fail(ctx, error);
    return finish(ctx, 'failure');
  };
  const notRolledBack = (text: string) =>
    failWith(
      'Post-deploy checks failed',
      new ActionError(
        `${why}. No rollback (\`rollback-on-failure\`): ${text}`,
        failure instanceof ActionError ? failure.title : 'Checks failed',
      ),
    );

  if (!previous || previous === failedRevisionId) {
    const nothing = !previous
      ? state.report.created
        ? 'this run created the deployment, so there is no earlier revision'
        : 'no revision of the deployment was live before this run'
      : `revision ${inert(failedRevisionId, 100)} was already the live one before this run`;
    return notRolledBack(
      `${nothing} to serve again. Revision ${inert(failedRevisionId, 100)} of ${name} stays live.`,
    );
  }

  // The rollback's own budget and client: the failed check may have used the run's up.
  const deadline = Deadline.fromSeconds(ctx.clock, config.timeoutSeconds);
  const http = { ...ctx.http, deadline };
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
    return notRolledBack(
      `${tookOver} Revision ${inert(previous, 100)} of ${name} was not redeployed; check the ` +
        'deployment in LangSmith and roll back with `command: rollback` if it needs it.',
    );
  }

  const record: RollbackReport = {
    from: failedRevisionId,
    to: previous,
    reason: why,
    outcome: 'started',
    timeline: [],
  };
  state.report.rollback = record;
  ctx.output('rolled-back-to', previous);
  logger.warning(
    `Revision ${inert(failedRevisionId, 100)} of ${name} is DEPLOYED but failed its checks; ` +
      `rolling back to revision ${inert(previous, 100)}, which was live before this run ` +
      `(\`rollback-on-failure\`, with a budget of ${config.timeoutSeconds} s of its own).`,
    { title: 'Rolling back' },
  );
  await ghDeployment?.setStatus('in_progress', {
    description: `Checks failed; rolling back to revision ${inert(previous, 100)}`,
  });

  const problem = await serveAgain({ ...ctx, client, http, deadline }, deployment, record, false);
  record.outcome = problem === undefined ? 'restored' : 'failed';
  const failed =
    `Revision ${inert(failedRevisionId, 100)} of ${name} reached DEPLOYED but failed its ` +
    `checks: ${why}. `;
  if (problem === undefined) {
    return failWith(
      `Checks failed; rolled back to revision ${inert(previous, 100)}`,
      new ActionError(
        failed +
          `Rolled back: revision ${inert(previous, 100)}, which was live before this run, serves ` +
          `again (as new revision ${inert(record.revisionId, 100)}, DEPLOYED` +
          (record.health === 'passed' ? ', health check passed' : '') +
          '). Fix the cause and deploy again.',
        'Rolled back after failed checks',
      ),
    );
  }
  const ui = state.report.uiUrl ? ` (${inert(state.report.uiUrl, 300)})` : '';
  return failWith(
    `Checks failed; rollback to revision ${inert(previous, 100)} failed`,
    new ActionError(
      failed +
        `The rollback to revision ${inert(previous, 100)}, which was live before this run, ` +
        `failed too: ${problem}. The deployment may be serving the failing revision: ` +
        `look at it in LangSmith${ui} now, and run \`command: rollback\` or deploy a fix.`,
      'Rollback failed',
    ),
  );
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
