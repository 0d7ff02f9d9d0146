/**
 * A request that makes a revision (`POST …/revisions`, the PATCH of older installs, a
 * redeploy) whose answer was lost: before it is sent again, the revision it may have made is
 * looked for (INTERFACE v1.3, "A lost answer never makes a second revision"), so that a gateway
 * that answers 504 while the platform applies the request later does not make two revisions.
 */
import type { Deployment, Revision, RevisionCreateRequest } from '../api/schemas.js';
import { retrying } from '../api/http/retry-policy.js';
import { DeadlineError } from '../lib/errors.js';
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
  const { clock, deadline, signal } = ctx;
  const start = clock.now();
  const fits = (revision: Revision) =>
    Object.entries(sent ?? {}).every(([key, value]) => {
      const reported = revision.source_revision_config[key];
      return reported == null || value === undefined || reported === value;
    });
  const loop = {
    clock,
    deadline,
    signal,
    backoff: () => shortWaitMs(ctx.config),
    log: () => undefined,
    tooLate: () =>
      new DeadlineError(
        `The ${what} request for deployment ${found.id} got no usable answer, and no revision ` +
          'it made was listed before the timeout. It may still appear: look at the ' +
          'deployment in LangSmith before running the job again.',
      ),
  };
  return retrying(loop, async () => {
    const { resources } = await ctx.client.listRevisions(found.id, { limit: 20 });
    const before = resources.findIndex((r) => r.id === found.latest_revision_id);
    const mine = resources.slice(0, before < 0 ? undefined : before).find(fits);
    if (mine || clock.now() - start >= LOOKUP_MS) return { done: mine };
    return { again: 'not listed yet' };
  });
}
