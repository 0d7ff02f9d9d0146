/**
 * `interrupt-previous` (off by default; the README's "Interrupt previous" says why): before a
 * new revision, the deployment's latest one, when still in progress, is interrupted so that the
 * new one does not queue behind it. Best effort: the update follows whatever happens here (a
 * 404, 405 or 409 is a notice, any other failure a warning); cancellation and the deadline
 * still end the run.
 */
import { errorMessage as describe } from '../lib/text.js';
import type { ControlPlane } from '../api/client.js';
import type { Deployment, Revision } from '../api/schemas.js';
import { CancelledError, DeadlineError } from '../lib/errors.js';
import { inert, type Logger } from '../lib/untrusted.js';
import { revisionStatus } from './revision-status.js';

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
): Promise<void> {
  const revisionId = found.latest_revision_id;
  if (!revisionId || !client.interruptRevision) return;
  const rev = inert(revisionId);
  let status: string;
  try {
    status =
      latest?.id === revisionId
        ? latest.status
        : (await client.getRevision(found.id, revisionId)).status;
  } catch (error) {
    rethrowIfFinal(error);
    logger.debug(
      `interrupt-previous: could not read revision ${rev}: ${inert(describe(error), 300)}`,
    );
    return;
  }
  if (revisionStatus(status).outcome !== 'in_progress') return;

  try {
    const answer = await client.interruptRevision(found.id, revisionId);
    if (answer === 'interrupted') {
      logger.info(
        `Interrupted revision ${rev} of '${inert(found.name)}' (it was ${inert(status)}), so ` +
          'that the new revision does not wait behind it (`interrupt-previous: true`).',
      );
      return;
    }
    logger.notice(
      `Revision ${rev} of '${inert(found.name)}' was ${inert(status)} and could not be ` +
        `interrupted: ${REFUSALS[answer]}. The update goes ahead; the new revision may wait ` +
        'behind it.',
      { title: 'Previous revision not interrupted' },
    );
  } catch (error) {
    rethrowIfFinal(error);
    logger.warning(
      `Interrupting revision ${rev} of '${inert(found.name)}' (${inert(status)}) failed: ` +
        `${inert(describe(error), 500)}. The update goes ahead; the new revision may wait behind it. ` +
        'Set `interrupt-previous: false` to skip this step.',
      { title: 'Previous revision not interrupted' },
    );
  }
}

function rethrowIfFinal(error: unknown): void {
  if (error instanceof CancelledError || error instanceof DeadlineError) throw error;
}
