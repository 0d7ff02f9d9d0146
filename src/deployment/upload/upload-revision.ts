/**
 * `source: upload`, after the lookup: the platform's remote build in four steps, as the
 * `langgraph deploy` CLI does it.
 *
 * 1. create (a new name only): POST /v2/deployments, `source: internal_source`;
 * 2. upload-url: POST /v2/deployments/{id}/upload-url → `{upload_url, object_path}`;
 * 3. upload: PUT of the archive to the signed URL (`upload.ts`);
 * 4. revision: POST /v2/deployments/{id}/revisions with the object path (the API reference's
 *    create-revision call; its answer is the revision to follow). An install without that
 *    endpoint, or a deployment made by `langgraph deploy` (`internal_docker`, whose source
 *    changes), gets the CLI's PATCH with `revision_source: internal_source` instead.
 *
 * A failure names the step it happened in.
 */
import type {
  Deployment,
  DeploymentPatchRequest,
  RevisionCreateRequest,
} from '../../api/schemas.js';
import type { Config } from '../../inputs/config.js';
import {
  buildCommandFields,
  checkCreatable,
  checkSameKind,
  applyPatch,
  createDeployment,
  requestRevision,
  type UpsertContext,
  type UpsertResult,
} from '../upsert.js';
import { ActionError, CancelledError } from '../../lib/errors.js';
import { inert } from '../../lib/untrusted.js';
import type { SourceArchive } from './archive.js';
import { megabytes } from './archive.js';
import { putArchive, UploadError } from './upload.js';

export type UploadStep = 'create' | 'upload-url' | 'upload' | 'revision';

const STEP_NUMBER: Record<UploadStep, number> = {
  create: 1,
  'upload-url': 2,
  upload: 3,
  revision: 4,
};

export async function upsertFromUpload(
  ctx: UpsertContext,
  found: Deployment | undefined,
): Promise<UpsertResult> {
  const archive = ctx.sourceArchive;
  if (!archive) throw new ActionError('Internal error: no source archive was built.');
  const { client, config, logger } = ctx;
  if (!client.requestUploadUrl) {
    throw new ActionError('Internal error: this control-plane client cannot request upload URLs.');
  }
  let step: UploadStep = 'create';
  try {
    let deployment = found;
    let created = false;
    if (deployment) checkSameKind(config, deployment);
    if (deployment?.source === CLI_IMAGE_SOURCE) {
      logger.notice(
        `Deployment '${inert(deployment.name)}' was made by \`langgraph deploy\` from a local ` +
          'image (source internal_docker); this run uploads the checkout instead, so its source ' +
          'changes to a remote build (internal_source), as `langgraph deploy` itself does.',
        { title: 'Deployment source changes' },
      );
    } else if (!deployment) {
      checkCreatable(config);
      const made = await createDeployment(ctx, {
        name: config.name,
        source: 'internal_source',
        source_config: { deployment_type: config.deploymentType },
        source_revision_config: { langgraph_config_path: archive.configPathInArchive },
        secrets: config.secrets ?? [],
      });
      deployment = made.deployment;
      created = made.created;
    }

    step = 'upload-url';
    const target = await client.requestUploadUrl(deployment.id);

    step = 'upload';
    logger.info(
      `Uploading the source archive (${megabytes(archive.bytes)}, sha256 ${archive.sha256.slice(0, 12)}…).`,
    );
    await putArchive(ctx, target.upload_url, archive.file, archive.bytes);

    step = 'revision';
    const body = uploadRevisionRequest(config, archive, target.object_path);
    const patch: DeploymentPatchRequest = { revision_source: 'internal_source', ...body };
    // The revisions endpoint has no field for a change of source: that takes the PATCH.
    const result =
      deployment.source === CLI_IMAGE_SOURCE
        ? await applyPatch(ctx, deployment, patch, created)
        : await requestRevision(ctx, deployment, body, patch, created);
    archive.cleanup();
    return result;
  } catch (error) {
    throw inStep(step, error);
  }
}

/** The source of a deployment `langgraph deploy` made from a locally built image. */
export const CLI_IMAGE_SOURCE = 'internal_docker';

/** The new revision built from the uploaded archive. */
export function uploadRevisionRequest(
  config: Config,
  archive: Pick<SourceArchive, 'configPathInArchive'>,
  objectPath: string,
): RevisionCreateRequest {
  const body: RevisionCreateRequest = {
    source_revision_config: {
      source_tarball_path: objectPath,
      langgraph_config_path: archive.configPathInArchive,
    },
  };
  if (config.installCommand || config.buildCommand) body.source_config = buildCommandFields(config);
  if (config.secrets !== undefined) body.secrets = config.secrets;
  return body;
}

/** The same error, its message saying which of the four steps failed. */
export function inStep(step: UploadStep, error: unknown): unknown {
  if (error instanceof CancelledError) return error;
  const prefix = `Source upload, step ${STEP_NUMBER[step]} of 4 (${step}) failed: `;
  if (error instanceof UploadError) {
    return new ActionError(prefix + error.message, 'Source upload failed');
  }
  if (error instanceof Error) {
    // Same class and fields (status, title) for the callers: only the message gains the step.
    error.message = prefix + error.message;
    return error;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ActionError(prefix + message, 'Source upload failed');
}
