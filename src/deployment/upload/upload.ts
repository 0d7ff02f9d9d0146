/**
 * `source: upload`, after the lookup: the platform's remote build in the four steps of the
 * `langgraph deploy` CLI (create, upload-url, upload, revision: the README's "The four steps"),
 * a failure naming the step it happened in. The revision is the API reference's
 * create-revision call; an install without that endpoint, or a deployment made by
 * `langgraph deploy` (`internal_docker`, whose source changes), gets the CLI's PATCH instead.
 */
import type { Deployment, RevisionCreateRequest } from '../../api/schemas.js';
import { request, type HttpContext } from '../../api/http/request.js';
import { ActionError, CancelledError } from '../../lib/errors.js';
import { inert, setSecret } from '../../lib/untrusted.js';
import {
  buildCommandFields,
  checkCreatable,
  checkSameKind,
  createDeployment,
  requestRevision,
  type UpsertContext,
} from '../upsert.js';
import { MAX_BYTES, megabytes } from './archive.js';
import { withOrigin } from '../origin.js';
import { secretsToSend } from '../skip-unchanged.js';

const STEPS = ['create', 'upload-url', 'upload', 'revision'] as const;

/** The source of a deployment `langgraph deploy` made from a locally built image. */
const CLI_IMAGE_SOURCE = 'internal_docker';

export async function upsertFromUpload(ctx: UpsertContext, found: Deployment | undefined) {
  const { client, config, logger, sourceArchive: archive } = ctx;
  if (!archive) throw new ActionError('Internal error: no source archive was built.');
  let step: (typeof STEPS)[number] = 'create';
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
      ({ deployment, created } = await createDeployment(ctx, {
        name: config.name,
        source: 'internal_source',
        source_config: { deployment_type: config.deploymentType },
        source_revision_config: { langgraph_config_path: archive.configPathInArchive },
        secrets: withOrigin(config, config.secrets ?? []),
      }));
      ctx.onCreated?.(deployment, created);
    }

    step = 'upload-url';
    const target = await client.requestUploadUrl(deployment.id);

    step = 'upload';
    logger.info(
      `Uploading the source archive (${megabytes(archive.bytes)}, sha256 ${archive.sha256.slice(0, 12)}…).`,
    );
    await putArchive(ctx, target.upload_url, archive.file, archive.bytes);

    step = 'revision';
    const body: RevisionCreateRequest = {
      source_revision_config: {
        source_tarball_path: target.object_path,
        langgraph_config_path: archive.configPathInArchive,
      },
    };
    if (config.installCommand || config.buildCommand)
      body.source_config = buildCommandFields(config);
    // The keyed record (skip-unchanged) binds the archive to the object path it was just PUT to.
    const secrets = secretsToSend(config, deployment, archive.sha256, target.object_path);
    if (secrets) body.secrets = withOrigin(config, secrets, deployment);
    const patch = { revision_source: 'internal_source' as const, ...body };
    // The revisions endpoint has no field for a change of source: that takes the PATCH.
    const post = deployment.source === CLI_IMAGE_SOURCE ? undefined : body;
    const result = await requestRevision(ctx, deployment, post, patch, created);
    archive.cleanup();
    return result;
  } catch (error) {
    if (error instanceof CancelledError) throw error;
    // The same error, its message saying which of the four steps failed: same class and
    // fields (status, title) for the callers.
    const prefix = `Source upload, step ${STEPS.indexOf(step) + 1} of 4 (${step}) failed: `;
    if (!(error instanceof Error)) throw uploadFailed(prefix + String(error));
    error.message = prefix + error.message;
    throw error;
  }
}

function uploadFailed(message: string): ActionError {
  return new ActionError(message, 'Source upload failed');
}

/** The three headers, and no other, that the signed URL was issued for. */
export function uploadHeaders(bytes: number): Record<string, string> {
  return {
    'Content-Type': 'application/gzip',
    'Content-Length': String(bytes),
    'X-Goog-Content-Length-Range': `0,${MAX_BYTES}`,
  };
}

/**
 * Uploads `file` (`bytes` long) to the signed `url` as a file body of `request()` (on
 * node:http(s) rather than fetch, which would add headers of its own): exactly the three signed
 * headers and no credential (the URL is signed), through the runner's proxy when one is set;
 * retried on 5xx, 408, 429 and connection failures within the run's deadline, an expired or
 * refused URL an error at once. Throws `ActionError` with advice.
 */
export async function putArchive(ctx: HttpContext, url: string, file: string, bytes: number) {
  // The signature is a credential while it is valid: never printed.
  setSecret(url);
  const target = new URL(url);
  if (target.search.length > 1) setSecret(target.search.slice(1));
  if (target.protocol !== 'https:' && target.protocol !== 'http:') {
    throw uploadFailed(
      `the upload URL the control plane issued is not http(s) (${inert(target.protocol, 20)}).`,
    );
  }
  const host = inert(target.host, 200);
  const res = await request(ctx, {
    method: 'PUT',
    url: target,
    headers: uploadHeaders(bytes),
    file,
    // The same object written again: safe to retry.
    retry: 'idempotent',
    describe: `the upload to ${host}`,
  });
  const { status } = res;
  if (status >= 200 && status < 300) return;
  if (status >= 500 || status === 408 || status === 429) {
    throw uploadFailed(
      `the upload to ${host} failed after ${res.attempts} attempts (last: HTTP ${status}). ` +
        "Check the runner's network access to it (proxy: HTTPS_PROXY / NO_PROXY), then re-run the job.",
    );
  }
  // Storage answers carry an XML or JSON error code (`ExpiredToken`, `AccessDenied`, …).
  const code =
    /<Code>([A-Za-z]{1,60})<\/Code>/.exec(res.text)?.[1] ??
    /"(?:code|error)"\s*:\s*"([A-Za-z]{1,60})"/.exec(res.text)?.[1];
  throw uploadFailed(
    `${host} refused the upload with HTTP ${status}${code ? ` ${inert(code, 60)}` : ''}. ` +
      (/expired/i.test(code ?? '') || status === 400 || status === 403
        ? 'The signed upload URL has expired or does not accept this request; it is issued ' +
          'for one upload shortly before it, so re-run the job. If it persists, a proxy may ' +
          'be changing the request.'
        : 'Re-run the job; if it persists, report it with the status above.'),
  );
}
