/**
 * `interrupt-previous` (off by default): before a new revision, one of the deployment that is
 * still in progress is interrupted (`POST …/revisions/{rev}/interrupt`, the API reference's
 * path; `…/interruption` once on 404, the path of LangChain's CI/CD example), so that the new
 * revision does not queue behind it.
 *
 * Best effort: the PATCH follows whatever happens here. 404, 405 and 409 (nothing to
 * interrupt, or an install without the endpoint) are a notice; any other failure a warning.
 * Cancellation and the deadline still end the run.
 */
import { errorMessage as describe } from '../lib/text.js';
import type { ControlPlane } from '../api/client.js';
import type { Deployment, Revision } from '../api/schemas.js';
import { CancelledError, DeadlineError } from '../lib/errors.js';
import { inert, type Logger } from '../lib/untrusted.js';
import { revisionStatus } from './revision-status.js';

export type InterruptOutcome =
  | { kind: 'none'; reason: string }
  | { kind: 'interrupted'; revisionId: string; status: string }
  | { kind: 'refused'; revisionId: string; httpStatus: 404 | 405 | 409 }
  | { kind: 'failed'; revisionId?: string; message: string };

/** What a refusal means, for the notice. */
const REFUSALS: Record<404 | 405 | 409, string> = {
  404: 'the control plane does not know the revision or does not offer the call (HTTP 404)',
  405: 'this control plane does not offer the call (HTTP 405)',
  409: 'it is no longer in progress (HTTP 409)',
};

/** `latest`: the `latest_revision_id` revision when the run has just read it (no second GET). */
export async function interruptPrevious(
  client: ControlPlane,
  found: Deployment,
  logger: Logger,
  latest?: Revision,
): Promise<InterruptOutcome> {
  const revisionId = found.latest_revision_id;
  if (!revisionId) return { kind: 'none', reason: 'the deployment has no revision' };
  if (!client.interruptRevision) return { kind: 'none', reason: 'the client cannot interrupt' };
  const rev = inert(revisionId);
  let status: string;
  try {
    status =
      latest?.id === revisionId
        ? latest.status
        : (await client.getRevision(found.id, revisionId)).status;
  } catch (error) {
    rethrowIfFinal(error);
    const message = describe(error);
    logger.debug(`interrupt-previous: could not read revision ${rev}: ${inert(message, 300)}`);
    return { kind: 'failed', revisionId, message };
  }
  if (revisionStatus(status).outcome !== 'in_progress')
    return { kind: 'none', reason: `the latest revision is ${status}` };

  try {
    const answer = await client.interruptRevision(found.id, revisionId);
    if (answer === 'interrupted') {
      logger.info(
        `Interrupted revision ${rev} of '${inert(found.name)}' (it was ${inert(status)}), so ` +
          'that the new revision does not wait behind it (`interrupt-previous: true`).',
      );
      return { kind: 'interrupted', revisionId, status };
    }
    logger.notice(
      `Revision ${rev} of '${inert(found.name)}' was ${inert(status)} and could not be ` +
        `interrupted: ${REFUSALS[answer]}. The update goes ahead; the new revision may wait ` +
        'behind it.',
      { title: 'Previous revision not interrupted' },
    );
    return { kind: 'refused', revisionId, httpStatus: answer };
  } catch (error) {
    rethrowIfFinal(error);
    const message = describe(error);
    logger.warning(
      `Interrupting revision ${rev} of '${inert(found.name)}' (${inert(status)}) failed: ` +
        `${inert(message, 500)}. The update goes ahead; the new revision may wait behind it. ` +
        'Set `interrupt-previous: false` to skip this step.',
      { title: 'Previous revision not interrupted' },
    );
    return { kind: 'failed', revisionId, message };
  }
}

function rethrowIfFinal(error: unknown): void {
  if (error instanceof CancelledError || error instanceof DeadlineError) throw error;
}
