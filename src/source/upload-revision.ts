/**
 * `source: upload`, after the lookup: the platform's remote build in four steps, as the
 * `langgraph deploy` CLI does it.
 *
 * 1. create (a new name only): POST /v2/deployments, `source: internal_source`;
 * 2. upload-url: POST /v2/deployments/{id}/upload-url → `{upload_url, object_path}`;
 * 3. upload: PUT of the archive to the signed URL (`upload.ts`);
 * 4. patch: PATCH /v2/deployments/{id} with `revision_source: internal_source` and the object
 *    path; its `latest_revision_id` is the revision to follow.
 *
 * A failure names the step it happened in.
 */
import type { Deployment, DeploymentPatchRequest } from '../control-plane/schemas.js';
import type { Config } from '../config.js';
import { buildCommandFields, checkCreatable, checkSameKind } from '../deployment/requests.js';
import {
  applyPatch,
  createDeployment,
  type UpsertContext,
  type UpsertResult,
} from '../deployment/writes.js';
import { ActionError, CancelledError } from '../errors.js';
import type { SourceArchive } from './archive.js';
import { megabytes } from './archive.js';
import { putArchive, UploadError } from './upload.js';

export type UploadStep = 'create' | 'upload-url' | 'upload' | 'patch';

const STEP_NUMBER: Record<UploadStep, number> = {
  create: 1,
  'upload-url': 2,
  upload: 3,
  patch: 4,
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
    if (deployment) {
      checkSameKind(config, deployment);
    } else {
      checkCreatable(config);
      const made = await createDeployment(ctx, {
        name: config.name!,
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

    step = 'patch';
    const result = await applyPatch(
      ctx,
      deployment,
      uploadPatchRequest(config, archive, target.object_path),
      created,
    );
    archive.cleanup();
    return result;
  } catch (error) {
    throw inStep(step, error);
  }
}

/** The PATCH that asks for a revision built from the uploaded archive. */
export function uploadPatchRequest(
  config: Config,
  archive: Pick<SourceArchive, 'configPathInArchive'>,
  objectPath: string,
): DeploymentPatchRequest {
  const body: DeploymentPatchRequest = {
    revision_source: 'internal_source',
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
