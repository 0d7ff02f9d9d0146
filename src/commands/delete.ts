/**
 * `command: delete`: remove a deployment (a preview when its pull request closes).
 * Idempotent: nothing to delete is `NOT_FOUND` and success. After the DELETE it reads the
 * deployment until it answers 404 (as LangChain's Terraform provider does), within `timeout`.
 */
import { DeadlineError } from '../lib/errors.js';
import { inert } from '../lib/untrusted.js';
import { lookupTarget, uiUrl, waitUntilGone } from '../deployment/target.js';
import type { DeleteConfig } from '../inputs/config.js';
import { deactivate, setStatus, writeReports, type RunContext } from './context.js';

export async function runDelete(ctx: RunContext<DeleteConfig>): Promise<number> {
  const { config, client, logger, state } = ctx;
  const report = state.report;
  report.name = config.name;

  const found = await lookupTarget(client, config, 'delete');
  if (!found) {
    logger.info(
      config.deploymentId
        ? `Deployment ${config.deploymentId} does not exist: nothing to delete.`
        : `There is no deployment named '${config.name}': nothing to delete.`,
    );
    report.outcome = 'not_found';
    setStatus(ctx, 'NOT_FOUND');
    ctx.output('name', config.name);
    ctx.output('deployment-id', config.deploymentId);
    return afterDelete(ctx);
  }

  Object.assign(report, { name: found.name, deploymentId: found.id, uiUrl: uiUrl(config, found) });
  ctx.output('deployment-id', found.id);
  ctx.output('name', found.name);
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
    await waitForTheDeletion(ctx, found.id, found.name);
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

/**
 * Always (not only with `wait`): a create of this name right after (a reopened pull request)
 * must not meet a deployment that is still going away. Bounded by `timeout`; the DELETE was
 * accepted, so running out of time is a warning, not a failed cleanup.
 */
async function waitForTheDeletion(ctx: RunContext, id: string, name: string): Promise<void> {
  try {
    await waitUntilGone(ctx, id);
    ctx.logger.info(`Deployment '${inert(name)}' is gone.`);
  } catch (error) {
    if (!(error instanceof DeadlineError)) throw error;
    ctx.logger.warning(
      `Deployment '${inert(name)}' (${inert(id)}) was still being deleted when \`timeout\` ran ` +
        'out. The platform accepted the deletion and it goes on; a deployment of this name ' +
        'created right now may meet it. Raise `timeout` to wait until it is gone.',
      { title: 'Deletion still in progress' },
    );
  }
}

/** PR comment ("preview removed"), GitHub environment inactive, summary: all best effort. */
async function afterDelete(ctx: RunContext): Promise<number> {
  const { environment, githubToken } = ctx.config;
  if (environment && githubToken) await deactivate(ctx, environment);
  await writeReports(ctx);
  return 0;
}
