/**
 * `source: internal_docker`, before the revision: the image `image-uri` names must be in the
 * deployment's registry (a fresh push token says where that is, and reads it) with a
 * `linux/amd64` manifest; a tag is resolved, and the revision pins the digest, as the
 * `langgraph deploy` CLI does.
 */
import type { Deployment } from '../api/schemas.js';
import type { ControlPlane } from '../api/client.js';
import type { HttpContext } from '../api/http/request.js';
import { readImage, registryPath, splitImage } from '../api/registry.js';
import { ActionError } from '../lib/errors.js';
import { inert, type Logger } from '../lib/untrusted.js';

const PLATFORM = 'linux/amd64';
const HOW =
  'Build and push it for linux/amd64 in this workflow: `command: registry-login`, then ' +
  '`docker/build-push-action` with `platforms: linux/amd64`, `push: true` and `tags: ' +
  '${{ steps.login.outputs.image }}:<tag>`, then deploy `image-uri: ' +
  '${{ steps.login.outputs.image }}@${{ steps.build.outputs.digest }}` (docs/images.md).';

/** `image-uri` pinned by digest (`<repository>@sha256:…`), once the registry has shown it. */
export async function pinImage(
  ctx: { client: ControlPlane; http: HttpContext; logger: Logger },
  found: Deployment,
  imageUri: string,
): Promise<string> {
  const { token, registry_url } = await ctx.client.requestPushToken(found.id);
  const registry = registryPath(registry_url);
  const ref = splitImage(imageUri);
  const shown = `Input \`image-uri\` (${inert(imageUri, 300)})`;
  if (!`${ref.host}/${ref.name}`.startsWith(`${registry}/`)) {
    throw new ActionError(
      `${shown} is not in the registry of deployment '${inert(found.name)}' ` +
        `(${inert(registry)}/…): \`source: internal_docker\` deploys images pushed there, such as ` +
        `${inert(registry)}/${inert(found.name)}. Use the \`image\` output of \`command: ` +
        'registry-login` for the tag you push.',
      'Image not found',
    );
  }
  const image = await readImage(ctx.http, ref, token);
  if (!image) {
    throw new ActionError(
      `${shown} is not in the registry (no manifest for ${inert(ref.reference, 100)}). ${HOW}`,
      'Image not found',
    );
  }
  if (!image.platforms.includes(PLATFORM)) {
    const has = inert([...new Set(image.platforms)].map((p) => inert(p, 40)).join(', '), 300);
    throw new ActionError(
      `${shown} has no ${PLATFORM} image (it has ${has || 'no platform'}), and LangSmith ` +
        `Deployment runs ${PLATFORM}. ${HOW}`,
      'Image not for linux/amd64',
    );
  }
  const pinned = `${ref.host}/${ref.name}@${image.digest}`;
  if (!ref.byDigest) {
    ctx.logger.notice(
      `\`image-uri\` ${inert(imageUri, 300)} resolved to ${image.digest}: the revision pins ` +
        `${inert(pinned, 400)}, so a later push of the tag does not change what runs.`,
      { title: 'Image tag pinned to its digest' },
    );
  }
  return pinned;
}
