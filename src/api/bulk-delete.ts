/**
 * The answer of the bulk `DELETE /v2/deployments?deployment_ids=…` (up to 100 IDs, repeated
 * query parameter). The published API says 200 when every deployment was deleted and 207 when
 * some failed, without a schema for the 207 body. This module reads the shapes such a body
 * plausibly takes, and never counts a deployment as deleted on doubt: an ID that a 207 body
 * neither names as deleted nor lets us rule out as failed is `unknown`.
 *
 * An ID counts by the key it is under (one containing `fail` or `error`: failed; `delet`,
 * `success` or `succeed`: deleted; matched case-insensitively), as a string in a list, an
 * object's ID or a map key, or by a verdict its own object carries wherever it is (`status`,
 * an HTTP code or a word, or `success`, `deleted` or `ok` as a boolean).
 */
import { isRecord } from '../lib/text.js';

/** Bulk calls take at most this many IDs (the API's `maxItems`). */
export const BULK_DELETE_LIMIT = 100;

export interface BulkDeleteOutcome {
  deleted: string[];
  failed: { id: string; reason: string }[];
  /** IDs the answer says nothing clear about: not known to be deleted. */
  unknown: string[];
}

type Role = 'failed' | 'deleted' | undefined;

function idOf(entry: Record<string, unknown>): string | undefined {
  const ids = ['deployment_id', 'deploymentId', 'id'].map((key) => entry[key]);
  return ids.find((v): v is string => typeof v === 'string' && v !== '');
}

function reasonOf(entry: unknown): string {
  if (typeof entry === 'string' && entry !== '') return entry;
  if (isRecord(entry)) {
    for (const key of ['detail', 'error', 'message', 'reason', 'msg']) {
      const v = entry[key];
      if ((typeof v === 'string' && v !== '') || isRecord(v)) return reasonOf(v);
    }
    if (typeof entry['status'] === 'number') return `HTTP ${entry['status']}`;
  }
  return 'the control plane reported a failure without a reason';
}

/** The verdict an object carries itself, or undefined when it carries none. */
function ownRole(entry: Record<string, unknown>): Role {
  const status = entry['status'] ?? entry['status_code'] ?? entry['code'];
  if (typeof status === 'number') return status >= 200 && status < 300 ? 'deleted' : 'failed';
  if (typeof status === 'string') {
    if (/^(deleted|success|succeeded|ok|accepted|awaiting_delete)$/i.test(status)) return 'deleted';
    if (/fail|error|not_found|denied|refused/i.test(status)) return 'failed';
  }
  const flag = ['success', 'deleted', 'ok']
    .map((key) => entry[key])
    .find((v) => typeof v === 'boolean');
  return flag === undefined ? undefined : flag ? 'deleted' : 'failed';
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
  const failed = new Map<string, string>();
  const deleted = new Set<string>();
  /** `about` is what the body says with the ID: its entry, a reason, or nothing. */
  const note = (rawId: string, role: Role, about: unknown) => {
    const id = wanted.get(rawId.toLowerCase());
    if (id === undefined || role === undefined) return;
    if (role === 'deleted') deleted.add(id);
    else if (!failed.has(id)) failed.set(id, reasonOf(about));
  };
  const visit = (value: unknown, role: Role, depth: number): void => {
    if (depth > 8) return;
    if (typeof value === 'string') return note(value, role, undefined);
    if (Array.isArray(value)) return value.forEach((entry) => visit(entry, role, depth + 1));
    if (!isRecord(value)) return;
    const id = idOf(value);
    const own = ownRole(value) ?? role;
    if (id !== undefined && own !== undefined) return note(id, own, value);
    for (const [key, child] of Object.entries(value)) {
      if (wanted.has(key.toLowerCase())) {
        // A map keyed by ID: under a role key, or a per-ID result object.
        note(key, (isRecord(child) ? ownRole(child) : undefined) ?? role, child);
      } else {
        const keyRole = /fail|error/i.test(key)
          ? 'failed'
          : /delet|succe/i.test(key)
            ? 'deleted'
            : role;
        visit(child, keyRole, depth + 1);
      }
    }
  };
  visit(body, undefined, 0);

  const outcome: BulkDeleteOutcome = { deleted: [], failed: [], unknown: [] };
  for (const id of ids) {
    const reason = failed.get(id);
    // A failure outranks a success said elsewhere in the same body.
    if (reason !== undefined) outcome.failed.push({ id, reason });
    // Not named: deleted only when the body clearly listed the failures (a 207 with failures
    // named and this one not among them); otherwise we do not know.
    else if (deleted.has(id) || failed.size > 0) outcome.deleted.push(id);
    else outcome.unknown.push(id);
  }
  return outcome;
}
