/**
 * `command: rollback`, and `rollback-on-failure` after a deploy whose new revision reached
 * DEPLOYED but failed its checks: both serve an earlier revision again (`serveAgain`: the
 * redeploy, a new revision replaying the old one's source, followed and health-checked).
 */
import type { Deployment } from '../api/schemas.js';
import { withRevision, writeOnce } from '../deployment/lost-answer.js';
import { listAllRevisions, lookupTarget, pickRollbackTarget } from '../deployment/target.js';
import { ActionError, CancelledError } from '../lib/errors.js';
import { errorMessage, formatSeconds as seconds } from '../lib/text.js';
import {
  agentUrlOf,
  finish,
  follow,
  notWaiting,
  setDeploymentOutputs,
  setStatus,
  setUrl,
  showLogTail,
  startGithubDeployment,
  type RunContext,
} from './context.js';
import type { GithubDeployment } from '../github/side-effects.js';
import type { RollbackReport } from '../report/record.js';
import type { DeployConfig, RollbackConfig } from '../inputs/config.js';
import { inert } from '../lib/untrusted.js';
import { verifyDeployment } from '../verify/index.js';

export async function runRollback(ctx: RunContext<RollbackConfig>): Promise<number> {
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
  const record = startRollback(ctx, {
    ...(live ? { from: live } : {}),
    to: target.id,
    reason: config.rollbackTo
      ? 'requested with command rollback and rollback-to'
      : 'requested with command rollback: the newest earlier revision that reached DEPLOYED',
  });

  if (picked.alreadyLive) {
    logger.notice(
      `Revision ${inert(target.id, 100)} (input \`rollback-to\`) is already the live revision of ${label}: ` +
        'nothing was redeployed.',
      { title: 'Already live' },
    );
    Object.assign(record, { outcome: 'not_needed', revisionId: target.id, status: 'DEPLOYED' });
    report.revisionId = target.id;
    ctx.output('revision-id', target.id);
    setStatus(ctx, 'DEPLOYED');
    return finishRollback(ctx, deployment, undefined, record);
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
  report.timeline = record.timeline;
  const problem = await serveAgain(ctx, deployment, record, true);
  record.outcome = problem === undefined ? 'restored' : 'failed';
  if (record.health) report.checks = { health: record.health };
  if (problem !== undefined) {
    await ghDeployment?.setStatus('failure', {
      description: `Rollback to revision ${inert(target.id, 100)} failed`,
    });
    throw new ActionError(
      `The rollback of ${label} to revision ${inert(target.id, 100)} failed: ${problem}. ` +
        (live
          ? `Revision ${inert(live, 100)} may still be the live one. `
          : 'The deployment may have no healthy revision now. ') +
        'Look at the deployment in LangSmith' +
        (report.uiUrl ? ` (${inert(report.uiUrl, 300)})` : '') +
        ', then run the rollback again or deploy a fixed version.',
      'Rollback failed',
    );
  }
  return finishRollback(ctx, deployment, ghDeployment, record);
}

/** The rollback's record in the report, and its `rolled-back-to` output. */
function startRollback(ctx: RunContext, plan: Omit<RollbackReport, 'outcome' | 'timeline'>) {
  ctx.output('rolled-back-to', plan.to);
  const record: RollbackReport = { ...plan, outcome: 'started', timeline: [] };
  return (ctx.state.report.rollback = record);
}

async function finishRollback(
  ctx: RunContext,
  deployment: Deployment,
  ghDeployment: GithubDeployment | undefined,
  record: RollbackReport,
): Promise<number> {
  const report = ctx.state.report;
  setUrl(ctx, await ctx.client.getDeployment(deployment.id).catch(() => deployment));
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
 * `rollback-on-failure: true` and this run's revision failed a check after DEPLOYED: serve the
 * one live before the write again (none when this run created the deployment) within what is
 * left of the run's one `timeout` (with less than `rollbackMinMs` left it does not start one,
 * and says so), check its health, and fail the step with one message naming both revisions and
 * why (thrown: the flow reports it).
 */
export async function rollBackAfterFailedChecks(
  ctx: RunContext<DeployConfig>,
  deployment: Deployment,
  ghDeployment: GithubDeployment | undefined,
  requested: { revisionId: string; previousRevisionId: string | undefined },
  failure: unknown,
): Promise<never> {
  const { config, logger, state } = ctx;
  const { revisionId: failedRevisionId, previousRevisionId: previous } = requested;
  const why = message(failure);
  const name = `'${inert(deployment.name, 100)}'`;
  const failWith = async (description: string, title: string, text: string): Promise<never> => {
    await ghDeployment?.setStatus('failure', { description });
    throw new ActionError(text, title);
  };
  const notRolledBack = (text: string) =>
    failWith(
      'Post-deploy checks failed',
      failure instanceof ActionError ? failure.title : 'Checks failed',
      `${why}. No rollback (\`rollback-on-failure\`): ${text}`,
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

  const left = ctx.deadline.remainingMs();
  if (left < rollbackMinMs(config)) {
    return notRolledBack(
      `only ${seconds(left)} of \`timeout\` (${config.timeoutSeconds} s) were left, too little to ` +
        `redeploy revision ${inert(previous, 100)} and follow it (at least ` +
        `${seconds(rollbackMinMs(config))}). Revision ${inert(failedRevisionId, 100)} of ${name} ` +
        'stays live: roll back with `command: rollback`, or raise `timeout`.',
    );
  }
  // Touch only what this run owns: when another run has requested a newer revision since (or
  // that cannot be made sure of), the deployment is that run's now, and serving the old
  // revision again would undo its work.
  const tookOver = await ctx.client.getDeployment(deployment.id).then(
    ({ latest_revision_id: latest }) =>
      latest === failedRevisionId
        ? undefined
        : `a newer revision${latest ? ` (${inert(latest, 100)})` : ''} has taken over the ` +
          `deployment since this run requested revision ${inert(failedRevisionId, 100)} (another ` +
          'run deployed it), so serving the old revision again would undo it.',
    (error: unknown) =>
      'the deployment could not be read again to make sure no newer revision has taken over ' +
      `(${inert(message(error), 300)}), and a rollback over another run's revision would undo it.`,
  );
  if (tookOver !== undefined) {
    return notRolledBack(
      `${tookOver} Revision ${inert(previous, 100)} of ${name} was not redeployed; check the ` +
        'deployment in LangSmith and roll back with `command: rollback` if it needs it.',
    );
  }

  const record = startRollback(ctx, { from: failedRevisionId, to: previous, reason: why });
  logger.warning(
    `Revision ${inert(failedRevisionId, 100)} of ${name} is DEPLOYED but failed its checks; ` +
      `rolling back to revision ${inert(previous, 100)}, which was live before this run ` +
      `(\`rollback-on-failure\`, within the ${seconds(left)} left of \`timeout\`).`,
    { title: 'Rolling back' },
  );
  await ghDeployment?.setStatus('in_progress', {
    description: `Checks failed; rolling back to revision ${inert(previous, 100)}`,
  });

  const problem = await serveAgain(ctx, deployment, record, false);
  record.outcome = problem === undefined ? 'restored' : 'failed';
  const failed =
    `Revision ${inert(failedRevisionId, 100)} of ${name} reached DEPLOYED but failed its ` +
    `checks: ${why}. `;
  if (problem === undefined) {
    return failWith(
      `Checks failed; rolled back to revision ${inert(previous, 100)}`,
      'Rolled back after failed checks',
      failed +
        `Rolled back: revision ${inert(previous, 100)}, which was live before this run, serves ` +
        `again (as new revision ${inert(record.revisionId, 100)}, DEPLOYED` +
        (record.health === 'passed' ? ', health check passed' : '') +
        '). Fix the cause and deploy again.',
    );
  }
  const ui = state.report.uiUrl ? ` (${inert(state.report.uiUrl, 300)})` : '';
  return failWith(
    `Checks failed; rollback to revision ${inert(previous, 100)} failed`,
    'Rollback failed',
    failed +
      `The rollback to revision ${inert(previous, 100)}, which was live before this run, ` +
      `failed too: ${problem}. The deployment may be serving the failing revision: ` +
      `look at it in LangSmith${ui} now, and run \`command: rollback\` or deploy a fix.`,
  );
}

/**
 * Below this much of `timeout` left, `rollback-on-failure` starts no redeploy: the redeploy call
 * and two status checks at `poll-interval` must fit, and never less than 10 s.
 */
export function rollbackMinMs(config: Pick<DeployConfig, 'pollIntervalSeconds'>): number {
  return Math.max(10_000, 2 * config.pollIntervalSeconds * 1000);
}

/**
 * Redeploys `record.to` with `ctx`'s client and deadline, follows the new revision to DEPLOYED
 * and checks its health, all into `record`; with `asRun` (`command: rollback`) its ID and
 * status are the run's outputs at once. Returns why it failed (for the caller's one message),
 * or undefined when the revision serves again; a cancellation is thrown.
 */
async function serveAgain(
  ctx: RunContext<DeployConfig | RollbackConfig>,
  deployment: Deployment,
  record: RollbackReport,
  asRun: boolean,
): Promise<string | undefined> {
  const { config, logger, state } = ctx;
  const failed = (error: unknown) => {
    if (error instanceof CancelledError || ctx.signal.aborted) throw error;
    return message(error);
  };
  const revisionId = await redeploy(ctx, deployment, record.to).catch((error: unknown) => ({
    problem: `the redeploy request failed: ${failed(error)}`,
  }));
  if (typeof revisionId !== 'string') return revisionId.problem;
  record.revisionId = revisionId;
  if (asRun) {
    state.report.revisionId = revisionId;
    ctx.output('revision-id', revisionId);
  }
  logger.info(
    `Revision ${inert(record.to, 100)} is being served again as new revision ${inert(revisionId, 100)}; following it.`,
  );

  const waited = await follow(ctx, deployment.id, revisionId, {
    onStatus: (change) => {
      record.timeline.push(change);
      record.status = change.status;
      if (asRun) setStatus(ctx, change.status);
    },
  }).catch(failed);
  if (typeof waited === 'string') return waited;
  if (waited.outcome !== 'deployed') {
    if (waited.outcome === 'failed') {
      await showLogTail(ctx, deployment.id, revisionId, waited.status, false);
    }
    return `its new revision ${inert(revisionId, 100)} ended in ${inert(waited.status, 40)}`;
  }

  if (!config.healthCheck) return undefined;
  const current = await ctx.client.getDeployment(deployment.id).catch(() => deployment);
  const checked = await verifyDeployment(ctx, { url: agentUrlOf(current), healthCheck: true });
  if (checked.health) record.health = checked.health; // 'failed' with an error
  if (checked.error === undefined) return undefined;
  return `its new revision ${inert(revisionId, 100)} is DEPLOYED but failed the health check: ${message(checked.error)}`;
}

/**
 * The redeploy call (`POST …/revisions/{rev}/redeploy`). A lost answer is resolved by reading
 * the deployment (`writeOnce`), and sent again once; an answer that names no new revision yet
 * is followed by a few reads.
 */
async function redeploy(ctx: RunContext, deployment: Deployment, target: string): Promise<string> {
  const fresh = await ctx.client.getDeployment(deployment.id);
  const sent = await writeOnce(ctx, fresh, 'redeploy', 2, undefined, () => {
    ctx.logger.info(
      `Redeploying revision ${inert(target, 100)} of deployment ${inert(deployment.id, 100)}.`,
    );
    return ctx.client.redeployRevision(deployment.id, target);
  });
  if (!('answer' in sent)) return sent.revisionId;
  return (await withRevision(ctx, sent.answer, 'redeploy', fresh.latest_revision_id)).revisionId;
}

/** The error's message without its final period, to go inside a sentence. */
function message(error: unknown): string {
  return errorMessage(error).replace(/\.\s*$/, '');
}
