/**
 * Create or update ("upsert") a deployment, and make sure the run knows which revision its
 * own call created, even when a response was lost on the way back.
 */
import type { ControlPlane } from '../control-plane/api.js';
import type {
  Deployment,
  DeploymentCreateRequest,
  DeploymentPatchRequest,
  SourceConfigRequest,
} from '../control-plane/schemas.js';
import type { Config } from '../config.js';
import { ActionError, ApiError, DeadlineError } from '../errors.js';
import { OutcomeUnknownError } from '../http.js';
import { inert, type Logger } from '../runner.js';
import type { SourceArchive } from '../source/archive.js';
import type { Clock, Deadline } from '../time.js';
import { isTracingProjectConflict, tracingProjectConflict } from './tracing-project-conflict.js';

export interface UpsertContext {
  client: ControlPlane;
  config: Config;
  logger: Logger;
  clock: Clock;
  deadline: Deadline;
  signal?: AbortSignal;
  /** `source: upload`: the archive built before the lookup. */
  sourceArchive?: SourceArchive;
}

export interface UpsertResult {
  deployment: Deployment;
  /** The revision this run's own create or update produced. */
  revisionId: string;
  created: boolean;
}

/** How many times a create or update whose outcome was unknown is attempted again. */
const MAX_UNKNOWN_OUTCOMES = 3;

/** A short gap between reads that wait for the platform (scaled to `poll-interval`). */
function shortWaitMs(config: Config): number {
  return Math.max(50, Math.min(2000, (config.pollIntervalSeconds * 1000) / 10));
}

/**
 * Finds the target deployment: by `deployment-id`, or by exact `name` across every page.
 * Undefined when there is none (or when the one found was being deleted and is now gone).
 */
export async function findTarget(ctx: UpsertContext): Promise<Deployment | undefined> {
  const { client, config, logger } = ctx;
  let found: Deployment | undefined;
  if (config.deploymentId) {
    try {
      found = await client.getDeployment(config.deploymentId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        throw new ActionError(
          `Deployment ${config.deploymentId} (input \`deployment-id\`) does not exist in this workspace. ` +
            'Check the ID, or give `name` instead of `deployment-id` to create it.',
          'Deployment not found',
        );
      }
      throw error;
    }
    if (config.name && found.name !== config.name) {
      throw new ActionError(
        `Deployment ${inert(found.id)} (input \`deployment-id\`) is named '${inert(found.name)}', not '${config.name}' ` +
          '(input `name`). Refusing to touch a deployment other than the one named; fix one of the two inputs.',
        'Name and ID disagree',
      );
    }
  } else if (config.name) {
    found = await client.findDeploymentByName(config.name);
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
export async function waitUntilGone(ctx: UpsertContext, id: string): Promise<void> {
  const { client, clock, deadline, signal } = ctx;
  for (;;) {
    try {
      await client.getDeployment(id);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return;
      throw error;
    }
    if (deadline.passed()) {
      throw new DeadlineError(
        `Deployment ${id} was still being deleted when the timeout ran out. ` +
          'The deletion goes on on the platform; run the workflow again later, or raise `timeout`.',
      );
    }
    await clock.sleep(Math.min(shortWaitMs(ctx.config) * 5, deadline.remainingMs()), signal);
  }
}

/** Stops before an update that would deploy something other than the inputs describe. */
export function checkSameKind(config: Config, found: Deployment): void {
  if (found.source !== wireSource(config)) {
    throw new ActionError(
      `Deployment '${inert(found.name)}' (${inert(found.id)}) has source '${inert(found.source)}', but the inputs say ` +
        `'${config.source}' (input \`source\`, sent as '${wireSource(config)}'). Updating it ` +
        'would deploy something else; ' +
        'use another `name`, or fix `source`.',
      'Deployment of another kind',
    );
  }
  if (config.source === 'github' && config.repoUrl) {
    const theirs = found.source_config.repo_url ?? '';
    if (normalizeRepoUrl(theirs) !== normalizeRepoUrl(config.repoUrl)) {
      throw new ActionError(
        `Deployment '${inert(found.name)}' (${inert(found.id)}) deploys ${theirs || '(no repository)'}, but the inputs ` +
          `say ${config.repoUrl} (input \`repo-url\`). Updating it would deploy another repository; ` +
          'use another `name`, or fix `repo-url`.',
        'Deployment of another repository',
      );
    }
  }
}

/** The platform's name of the source: `upload` is its `internal_source`. */
export function wireSource(config: Config): string {
  return config.source === 'upload' ? 'internal_source' : config.source;
}

export function normalizeRepoUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/** Checks that depend on the lookup: what a create needs. */
export function checkCreatable(config: Config): void {
  if (config.source === 'github' && !config.integrationId) {
    throw new ActionError(
      `No deployment named '${config.name}' exists, so this run creates it, and creating a ` +
        '`github` deployment needs input `integration-id` (the GitHub integration ID, from ' +
        'LangSmith > Deployments > the GitHub integration, or GET /v1/integrations/github/install).',
      'Invalid input: integration-id',
    );
  }
  if (!config.name) {
    throw new ActionError(
      'Input `name` is required to create a deployment.',
      'Invalid input: name',
    );
  }
}

/** `install-command` / `build-command` as `source_config` fields (`github` and `upload`). */
export function buildCommandFields(
  config: Config,
): Pick<SourceConfigRequest, 'install_command' | 'build_command'> {
  return {
    ...(config.installCommand ? { install_command: config.installCommand } : {}),
    ...(config.buildCommand ? { build_command: config.buildCommand } : {}),
  };
}

export function createRequest(config: Config): DeploymentCreateRequest {
  const secrets = config.secrets ?? [];
  if (config.source === 'github') {
    return {
      name: config.name!,
      source: 'github',
      source_config: {
        integration_id: config.integrationId,
        repo_url: config.repoUrl,
        deployment_type: config.deploymentType,
        build_on_push: config.buildOnPush,
        ...buildCommandFields(config),
      },
      source_revision_config: {
        repo_ref: config.repoRef,
        langgraph_config_path: config.configPath,
      },
      secrets,
    };
  }
  return {
    name: config.name!,
    source: 'external_docker',
    source_config: {
      ...(config.resourceSpec ? { resource_spec: config.resourceSpec } : {}),
      ...(config.customUrl ? { custom_url: config.customUrl } : {}),
      ...(config.listenerId ? { listener_id: config.listenerId } : {}),
      ...(config.k8sNamespace ? { listener_config: { k8s_namespace: config.k8sNamespace } } : {}),
    },
    source_revision_config: { image_uri: config.imageUri },
    secrets,
  };
}

/** The update: only what may change after creation; `secrets` only when the input is set. */
export function patchRequest(config: Config): DeploymentPatchRequest {
  const body: DeploymentPatchRequest =
    config.source === 'github'
      ? {
          source_revision_config: {
            repo_ref: config.repoRef,
            langgraph_config_path: config.configPath,
          },
          ...(config.installCommand || config.buildCommand
            ? { source_config: buildCommandFields(config) }
            : {}),
        }
      : {
          source_revision_config: { image_uri: config.imageUri },
          ...(config.resourceSpec || config.customUrl
            ? {
                source_config: {
                  ...(config.resourceSpec ? { resource_spec: config.resourceSpec } : {}),
                  ...(config.customUrl ? { custom_url: config.customUrl } : {}),
                },
              }
            : {}),
        };
  if (config.secrets !== undefined) body.secrets = config.secrets;
  return body;
}

/** POST, or PATCH when the deployment exists. `found` comes from `findTarget`. */
export async function upsert(
  ctx: UpsertContext,
  found: Deployment | undefined,
): Promise<UpsertResult> {
  if (ctx.config.source === 'upload') {
    const { upsertFromUpload } = await import('../source/upload-revision.js');
    return upsertFromUpload(ctx, found);
  }
  if (found) return update(ctx, found);
  return create(ctx);
}

async function create(ctx: UpsertContext): Promise<UpsertResult> {
  checkCreatable(ctx.config);
  const made = await createDeployment(ctx, createRequest(ctx.config));
  return made.created ? withRevision(ctx, made.deployment, true) : update(ctx, made.deployment);
}

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
        const existing = await client.findDeploymentByName(config.name!);
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
        const existing = await client.findDeploymentByName(config.name!);
        if (existing) {
          logger.info(
            `Deployment '${inert(existing.name)}' was created by someone else in the meantime; updating it instead.`,
          );
          checkSameKind(config, existing);
          return { deployment: existing, created: false };
        }
        if (isTracingProjectConflict(error)) throw tracingProjectConflict(config.name!);
      }
      throw error;
    }
  }
}

async function update(ctx: UpsertContext, found: Deployment): Promise<UpsertResult> {
  checkSameKind(ctx.config, found);
  return applyPatch(ctx, found, patchRequest(ctx.config), false);
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
      logger.info(`Updating deployment '${inert(found.name)}' (${inert(found.id)}).`);
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
 * The revision to follow is `latest_revision_id` of this run's own create or update. When the
 * answer has none yet, read the deployment again a few times within the deadline.
 */
async function withRevision(
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

/** The deployment's page in the LangSmith UI (`ui-url`). */
export function uiUrl(config: Config, deployment: Deployment): string {
  return `${config.uiBaseUrl}/o/${deployment.tenant_id}/host/deployments/${inert(deployment.id)}`;
}
