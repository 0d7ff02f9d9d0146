/**
 * The answer of the bulk `DELETE /v2/deployments?deployment_ids=…` (up to 100 IDs, repeated
 * query parameter). The published API says 200 when every deployment was deleted and 207 when
 * some failed, without a schema for the 207 body. This module reads the shapes such a body
 * plausibly takes, and never counts a deployment as deleted on doubt: an ID that a 207 body
 * neither names as deleted nor lets us rule out as failed is `unknown`.
 *
 * Recognised (any nesting key names matched case-insensitively):
 * - lists of failures under a key containing `fail` or `error` (`failed`, `errors`,
 *   `failed_deployments`…): each entry an ID string, or an object with `deployment_id` / `id`
 *   and a reason in `detail`, `error`, `message` or `reason`;
 * - a map under such a key from ID to reason (`{"failed": {"<id>": "reason"}}`);
 * - lists of successes under a key containing `delet` or `success` (`deleted`,
 *   `deleted_deployment_ids`, `succeeded`…);
 * - per-ID results (`results`, `deployments`, any list of objects with an ID) carrying
 *   `status` (an HTTP code or a word like `deleted` / `failed`), `success` or `deleted`.
 */
import { isRecord } from '../lib/guards.js';

/** Bulk calls take at most this many IDs (the API's `maxItems`). */
export const BULK_DELETE_LIMIT = 100;

export interface BulkDeleteOutcome {
  deleted: string[];
  failed: { id: string; reason: string }[];
  /** IDs the answer says nothing clear about: not known to be deleted. */
  unknown: string[];
}

type Verdict = { kind: 'deleted' } | { kind: 'failed'; reason: string };

const ID_KEYS = ['deployment_id', 'deploymentId', 'id'];
const REASON_KEYS = ['detail', 'error', 'message', 'reason', 'msg'];

function idOf(entry: Record<string, unknown>): string | undefined {
  for (const key of ID_KEYS) {
    const v = entry[key];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

function reasonOf(entry: unknown): string {
  if (typeof entry === 'string' && entry !== '') return entry;
  if (isRecord(entry)) {
    for (const key of REASON_KEYS) {
      const v = entry[key];
      if (typeof v === 'string' && v !== '') return v;
      if (isRecord(v)) return reasonOf(v);
    }
    if (typeof entry['status'] === 'number') return `HTTP ${entry['status']}`;
  }
  return 'the control plane reported a failure without a reason';
}

/** A per-ID result object's verdict, or undefined when it carries none. */
function verdictOfResult(entry: Record<string, unknown>): Verdict | undefined {
  const status = entry['status'] ?? entry['status_code'] ?? entry['code'];
  if (typeof status === 'number') {
    return status >= 200 && status < 300
      ? { kind: 'deleted' }
      : { kind: 'failed', reason: reasonOf(entry) };
  }
  if (typeof status === 'string') {
    if (/^(deleted|success|succeeded|ok|accepted|awaiting_delete)$/i.test(status))
      return { kind: 'deleted' };
    if (/fail|error|not_found|denied|refused/i.test(status))
      return { kind: 'failed', reason: reasonOf(entry) };
  }
  for (const key of ['success', 'deleted', 'ok']) {
    const v = entry[key];
    if (typeof v === 'boolean')
      return v ? { kind: 'deleted' } : { kind: 'failed', reason: reasonOf(entry) };
  }
  return undefined;
}

/**
 * Reads a bulk-delete answer for the IDs of one call. `status` 200/202/204 means all deleted;
 * 207 is read from the body; other statuses are not for this function.
 */
export function readBulkDeleteAnswer(
  ids: readonly string[],
  status: number,
  body: unknown,
): BulkDeleteOutcome {
  if (status !== 207) return { deleted: [...ids], failed: [], unknown: [] };
  const wanted = new Map(ids.map((id) => [id.toLowerCase(), id]));
  const verdicts = new Map<string, Verdict>();
  const note = (rawId: string, verdict: Verdict) => {
    const id = wanted.get(rawId.toLowerCase());
    // A failure outranks a success said elsewhere in the same body.
    if (id && verdicts.get(id)?.kind !== 'failed') verdicts.set(id, verdict);
  };

  const visit = (value: unknown, role: 'failed' | 'deleted' | undefined, depth: number) => {
    if (depth > 4) return;
    if (Array.isArray(value)) {
      for (const entry of value) {
        if (typeof entry === 'string') {
          if (role === 'failed') note(entry, { kind: 'failed', reason: reasonOf(undefined) });
          else if (role === 'deleted') note(entry, { kind: 'deleted' });
        } else if (isRecord(entry)) {
          const id = idOf(entry);
          const own = verdictOfResult(entry);
          if (id && own) note(id, own);
          else if (id && role === 'failed') note(id, { kind: 'failed', reason: reasonOf(entry) });
          else if (id && role === 'deleted') note(id, { kind: 'deleted' });
          else visit(entry, role, depth + 1);
        }
      }
      return;
    }
    if (!isRecord(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const lower = key.toLowerCase();
      const childRole = /fail|error/.test(lower)
        ? 'failed'
        : /delet|success|succeed/.test(lower)
          ? 'deleted'
          : role;
      if (wanted.has(lower)) {
        // A map keyed by ID: under a role key, or a per-ID result object.
        if (isRecord(child)) {
          const own = verdictOfResult(child);
          if (own) note(key, own);
          else if (role === 'failed') note(key, { kind: 'failed', reason: reasonOf(child) });
          else if (role === 'deleted') note(key, { kind: 'deleted' });
        } else if (role === 'failed') note(key, { kind: 'failed', reason: reasonOf(child) });
        else if (role === 'deleted') note(key, { kind: 'deleted' });
        continue;
      }
      if (typeof child === 'string' && childRole && wanted.has(child.toLowerCase())) {
        note(
          child,
          childRole === 'failed'
            ? { kind: 'failed', reason: reasonOf(undefined) }
            : { kind: 'deleted' },
        );
        continue;
      }
      visit(child, childRole, depth + 1);
    }
  };
  visit(body, undefined, 0);

  const anyFailed = [...verdicts.values()].some((v) => v.kind === 'failed');
  const outcome: BulkDeleteOutcome = { deleted: [], failed: [], unknown: [] };
  for (const id of ids) {
    const verdict = verdicts.get(id);
    if (verdict?.kind === 'failed') outcome.failed.push({ id, reason: verdict.reason });
    else if (verdict?.kind === 'deleted') outcome.deleted.push(id);
    // Not named: deleted only when the body clearly listed the failures (a 207 with failures
    // named and this one not among them); otherwise we do not know.
    else if (anyFailed) outcome.deleted.push(id);
    else outcome.unknown.push(id);
  }
  return outcome;
}
