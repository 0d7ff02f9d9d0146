/**
 * Create or update ("upsert") a deployment: POST when the lookup found none, else a new
 * revision (POST …/revisions) after checking it is the same kind; `source: upload` goes
 * through its own path.
 */
import type { Deployment } from '../api/schemas.js';
import { checkCreatable, checkSameKind, createRequest, revisionRequest } from './requests.js';
import {
  createDeployment,
  requestRevision,
  withRevision,
  type UpsertContext,
  type UpsertResult,
} from './writes.js';
import { upsertFromUpload } from './upload/upload.js';

export type { UpsertContext, UpsertResult } from './writes.js';

/** POST, or a new revision when the deployment exists. `found` comes from `findTarget`. */
export async function upsert(
  ctx: UpsertContext,
  found: Deployment | undefined,
): Promise<UpsertResult> {
  if (ctx.config.source === 'upload') {
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

async function update(ctx: UpsertContext, found: Deployment): Promise<UpsertResult> {
  checkSameKind(ctx.config, found);
  const body = revisionRequest(ctx.config);
  return requestRevision(ctx, found, body, body, false);
}
