/**
 * A request that makes a revision (`POST …/revisions`, the PATCH of older installs, a
 * redeploy) whose answer was lost: before it is sent again, the revision it may have made is
 * looked for (INTERFACE v1.3, "A lost answer never makes a second revision"), so that a gateway
 * that answers 504 while the platform applies the request later does not make two revisions.
 * `writeOnce` sends it; `withRevision` reads the revision to follow when an answer has none.
 */
import type { Deployment, Revision, RevisionCreateRequest } from '../api/schemas.js';
import { retrying } from '../api/http/retry-policy.js';
import { OutcomeUnknownError } from '../api/http/request.js';
import { ActionError, DeadlineError } from '../lib/errors.js';
import { inert } from '../lib/untrusted.js';
import { shortWaitMs, type TargetContext } from './target.js';

/** How long the lost revision is looked for, at least (within the run's deadline). */
export const LOOKUP_MS = 15_000;

/** What the run's revision is built from, as sent (`undefined`: a redeploy, any source). */
export type SentSource = RevisionCreateRequest['source_revision_config'] | undefined;

/**
 * The revision the lost request made: listed (newest first) above the deployment's latest
 * revision before the request, and built from what was sent (each field the revision reports);
 * `undefined` when none is listed for `LOOKUP_MS`. A deadline that comes first is an error.
 */
export async function findLostRevision(
  ctx: TargetContext,
  found: Pick<Deployment, 'id' | 'latest_revision_id'>,
  sent: SentSource,
  what: string,
): Promise<Revision | undefined> {
  const { clock } = ctx;
  const start = clock.now();
  const fits = (revision: Revision) =>
    Object.entries(sent ?? {}).every(([key, value]) => {
      const reported = revision.source_revision_config[key];
      return reported == null || value === undefined || reported === value;
    });
  const call = {
    http: ctx,
    what: `the lookup of the revision the ${what} request made`,
    backoff: () => shortWaitMs(ctx.config),
    outOfTime: () =>
      new DeadlineError(
        `The ${what} request for deployment ${found.id} got no usable answer, and no revision ` +
          'it made was listed before the timeout. It may still appear: look at the ' +
          'deployment in LangSmith before running the job again.',
      ),
  };
  return retrying(call, async () => {
    const { resources } = await ctx.client.listRevisions(found.id, { limit: 20 });
    const before = resources.findIndex((r) => r.id === found.latest_revision_id);
    const mine = resources.slice(0, before < 0 ? undefined : before).find(fits);
    if (mine || clock.now() - start >= LOOKUP_MS) return { done: mine };
    return { again: 'not listed yet' };
  });
}

/**
 * Sends a write that makes a revision (an update, a new revision, a redeploy) and its answer.
 * A lost answer (reset, timeout, 5xx after sending) is resolved by looking for the revision it
 * made (`findLostRevision`, `sent`: what it is built from); only when none is listed is it sent
 * again, up to `attempts` times in all.
 */
export async function writeOnce<T, D extends Pick<Deployment, 'id' | 'latest_revision_id'>>(
  ctx: TargetContext,
  found: D,
  what: string,
  attempts: number,
  sent: SentSource,
  send: () => Promise<T>,
): Promise<{ answer: T } | { deployment: D; revisionId: string; revision: Revision }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { answer: await send() };
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError)) throw error;
      ctx.logger.warning(
        `The ${what} request for ${inert(found.id)} got no usable answer (${inert(error.message, 300)}); ` +
          `looking for the revision it may have made (for ${LOOKUP_MS / 1000} s at least) before sending it again.`,
      );
      const revision = await findLostRevision(ctx, found, sent, what);
      if (revision) {
        ctx.logger.info(`The ${what} was applied: revision ${inert(revision.id)}.`);
        return { deployment: found, revisionId: revision.id, revision };
      }
      if (attempt >= attempts) throw error;
    }
  }
}

/**
 * The revision to follow is `latest_revision_id` of this run's own write. When the answer has
 * none yet (or still the one from `before` it), read the deployment again a few times within
 * the deadline.
 */
export async function withRevision(
  ctx: TargetContext,
  deployment: Deployment,
  what: 'create' | 'update' | 'redeploy',
  before?: string | null,
) {
  const isNew = (id: string | null) => Boolean(id) && id !== before;
  let current = deployment;
  for (let read = 0; !isNew(current.latest_revision_id); read++) {
    if (read >= 5 || ctx.deadline.passed()) {
      throw new ActionError(
        `Deployment ${inert(current.id)} reports no new revision after the ${what} call, so there ` +
          'is nothing to follow. Look at the deployment in the LangSmith UI.',
        'No revision',
      );
    }
    const { clock, deadline, signal } = ctx;
    await clock.sleep(Math.min(shortWaitMs(ctx.config), deadline.remainingMs()), signal);
    current = await ctx.client.getDeployment(current.id);
  }
  const revisionId = current.latest_revision_id!;
  return { deployment: current, revisionId, created: what === 'create' };
}
