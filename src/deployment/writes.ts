/**
 * The create and update calls, made safe against a lost answer: the run always learns which
 * revision its own call created. Both the upsert and the upload path use them.
 */
import type {
  Deployment,
  DeploymentCreateRequest,
  DeploymentPatchRequest,
  Revision,
  RevisionCreateRequest,
} from '../api/schemas.js';
import { ActionError, ApiError } from '../lib/errors.js';
import { OutcomeUnknownError } from '../api/http/request.js';
import { inert } from '../lib/untrusted.js';
import type { SourceArchive } from './upload/archive.js';
import { checkSameKind } from './requests.js';
import { shortWaitMs, type TargetContext } from './target.js';
import { isTracingProjectConflict, tracingProjectConflict } from './tracing-project-conflict.js';

export interface UpsertContext extends TargetContext {
  /** `source: upload`: the archive built before the lookup. */
  sourceArchive?: SourceArchive;
}

export interface UpsertResult {
  deployment: Deployment;
  /** The revision this run's own create or update produced. */
  revisionId: string;
  created: boolean;
  /** The revision as its create call answered it (so the wait needs no first read). */
  revision?: Revision;
}

/** How many times a create or update whose outcome was unknown is attempted again. */
const MAX_UNKNOWN_OUTCOMES = 3;

/**
 * POST /v2/deployments, never leaving two deployments of one name: a create whose answer was
 * lost looks the name up and adopts what it finds (`created: true`); a 400/409 whose name now
 * exists (a concurrent run) gives that deployment back with `created: false`, to update.
 */
export async function createDeployment(
  ctx: UpsertContext,
  body: DeploymentCreateRequest,
): Promise<{ deployment: Deployment; created: boolean }> {
  const { client, config, logger } = ctx;
  for (let attempt = 1; ; attempt++) {
    try {
      logger.info(`Creating deployment '${config.name}' (source ${config.source}).`);
      return { deployment: await client.createDeployment(body), created: true };
    } catch (error) {
      if (error instanceof OutcomeUnknownError) {
        // The platform may have created it even though the answer was lost: look before
        // creating again, so that a name never ends up with two deployments.
        logger.warning(
          `The create request for '${config.name}' got no usable answer (${error.message}); ` +
            'checking whether the deployment was created anyway.',
        );
        const existing = await client.findDeploymentByName(body.name);
        if (existing) {
          // Someone else's deployment of another source or repository is not ours to adopt.
          checkSameKind(config, existing);
          logger.info(
            `Deployment '${inert(existing.name)}' (${inert(existing.id)}) exists: adopting it.`,
          );
          return { deployment: existing, created: true };
        }
        if (attempt >= MAX_UNKNOWN_OUTCOMES) throw error;
        continue;
      }
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
        // Perhaps a concurrent run created it first: then this run updates it.
        const existing = await client.findDeploymentByName(body.name);
        if (existing) {
          logger.info(
            `Deployment '${inert(existing.name)}' was created by someone else in the meantime; updating it instead.`,
          );
          checkSameKind(config, existing);
          return { deployment: existing, created: false };
        }
        if (isTracingProjectConflict(error)) throw tracingProjectConflict(body.name);
      }
      throw error;
    }
  }
}

/**
 * PATCH /v2/deployments/{id} and the revision it made. A PATCH whose answer was lost reads
 * the deployment: a new `latest_revision_id` is this run's revision, else it PATCHes again.
 */
export async function applyPatch(
  ctx: UpsertContext,
  found: Deployment,
  body: DeploymentPatchRequest,
  created: boolean,
): Promise<UpsertResult> {
  const { client, logger } = ctx;
  let before = found.latest_revision_id;
  for (let attempt = 1; ; attempt++) {
    try {
      logger.info(
        created
          ? `Requesting the first revision of the new deployment '${inert(found.name)}' (${inert(found.id)}).`
          : `Updating deployment '${inert(found.name)}' (${inert(found.id)}).`,
      );
      const deployment = await client.patchDeployment(found.id, body);
      return withRevision(ctx, deployment, created, before);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError)) throw error;
      logger.warning(
        `The update request for ${inert(found.id)} got no usable answer (${error.message}); ` +
          'reading the deployment to see whether it was applied.',
      );
      const now = await client.getDeployment(found.id);
      if (now.latest_revision_id && now.latest_revision_id !== before) {
        logger.info(`The update was applied: revision ${inert(now.latest_revision_id)}.`);
        return { deployment: now, revisionId: now.latest_revision_id, created };
      }
      if (attempt >= MAX_UNKNOWN_OUTCOMES) throw error;
      before = now.latest_revision_id;
    }
  }
}

/**
 * POST /v2/deployments/{id}/revisions: the answer is the new revision. An install without the
 * endpoint (404/405) gets `patch` instead, once, with a notice. A POST whose answer was lost
 * reads the deployment: a new `latest_revision_id` is this run's revision, else it asks again.
 */
export async function requestRevision(
  ctx: UpsertContext,
  found: Deployment,
  body: RevisionCreateRequest,
  patch: DeploymentPatchRequest,
  created: boolean,
): Promise<UpsertResult> {
  const { client, logger } = ctx;
  if (!client.createRevision) return applyPatch(ctx, found, patch, created);
  let before = found.latest_revision_id;
  for (let attempt = 1; ; attempt++) {
    try {
      logger.info(
        `Requesting ${created ? 'the first revision of the new deployment' : 'a new revision of'} ` +
          `'${inert(found.name)}' (${inert(found.id)}).`,
      );
      const answer = await client.createRevision(found.id, body);
      if (typeof answer === 'object') {
        return { deployment: found, revisionId: answer.id, revision: answer, created };
      }
      logger.notice(
        `The control plane does not offer POST /v2/deployments/{id}/revisions (HTTP ${answer}); ` +
          'updating the deployment with PATCH instead, as older installs expect.',
        { title: 'Revision requested with PATCH' },
      );
      return await applyPatch(ctx, found, patch, created);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError)) throw error;
      logger.warning(
        `The request for a new revision of ${inert(found.id)} got no usable answer ` +
          `(${error.message}); reading the deployment to see whether it was made.`,
      );
      const now = await client.getDeployment(found.id);
      if (now.latest_revision_id && now.latest_revision_id !== before) {
        logger.info(`The revision was made: ${inert(now.latest_revision_id)}.`);
        return { deployment: now, revisionId: now.latest_revision_id, created };
      }
      if (attempt >= MAX_UNKNOWN_OUTCOMES) throw error;
      before = now.latest_revision_id;
    }
  }
}

/**
 * The revision to follow is `latest_revision_id` of this run's own create or update. When the
 * answer has none yet, read the deployment again a few times within the deadline.
 */
export async function withRevision(
  ctx: UpsertContext,
  deployment: Deployment,
  created: boolean,
  previousRevisionId?: string | null,
): Promise<UpsertResult> {
  const isNew = (id: string | null) => Boolean(id) && id !== previousRevisionId;
  let current = deployment;
  for (let read = 0; !isNew(current.latest_revision_id); read++) {
    if (read >= 5 || ctx.deadline.passed()) {
      throw new ActionError(
        `Deployment ${current.id} reports no new revision after the ${created ? 'create' : 'update'} ` +
          'call, so there is nothing to follow. Look at the deployment in the LangSmith UI.',
        'No revision',
      );
    }
    await ctx.clock.sleep(
      Math.min(shortWaitMs(ctx.config), ctx.deadline.remainingMs()),
      ctx.signal,
    );
    current = await ctx.client.getDeployment(current.id);
  }
  return { deployment: current, revisionId: current.latest_revision_id!, created };
}
