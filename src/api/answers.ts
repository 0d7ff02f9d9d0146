/**
 * What the client does with an answer before anyone reads it: masks every secret value and
 * URL credential of a deployment, checks the shape against `schemas.ts`, and picks the one
 * deployment of a name.
 */
import { isRecord as isObject } from '../lib/guards.js';
import * as z from 'zod/mini';
import { ActionError, ApiError } from '../lib/errors.js';
import type { HttpResponse } from './http/request.js';
import { withoutCredentials } from '../lib/outputs.js';
import { inert, redact } from '../lib/untrusted.js';
import type { Deployment } from './schemas.js';

function typeName(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur = data;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** `resources.0.status: expected string, got a number` — field paths and types, no values. */
function describeIssues(issues: readonly z.core.$ZodIssue[], data: unknown): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.map(String).join('.') || '(body)';
      if (issue.code === 'invalid_type') {
        const got = valueAt(data, issue.path);
        return got === undefined
          ? `${field}: missing (expected ${issue.expected})`
          : `${field}: expected ${issue.expected}, got ${typeName(got)}`;
      }
      return `${field}: ${issue.message}`;
    })
    .join('; ');
}

/**
 * Masks every `secrets[].value` of a Deployment body, or of each one in `resources`, and the
 * credentials of any URL in its `source_config` (`https://user:password@…`).
 */
export function maskDeploymentSecrets(body: unknown, mask: (value: string) => void): void {
  const maskOne = (d: unknown) => {
    if (!isObject(d)) return;
    const sourceConfig = d['source_config'];
    if (isObject(sourceConfig)) {
      for (const value of Object.values(sourceConfig)) {
        if (typeof value === 'string' && value.includes('@')) {
          for (const credential of withoutCredentials(value).credentials) mask(credential);
        }
      }
    }
    if (!Array.isArray(d['secrets'])) return;
    for (const secret of d['secrets']) {
      if (isObject(secret) && typeof secret['value'] === 'string' && secret['value'] !== '') {
        mask(secret['value']);
      }
    }
  };
  maskOne(body);
  if (isObject(body) && Array.isArray(body['resources'])) body['resources'].forEach(maskOne);
}

/** The answer checked against its schema; a mismatch names field paths and types, no values. */
export function parseAnswer<S extends z.ZodMiniType>(
  schema: S,
  body: unknown,
  call: { describe: string; status: number; method: string; path: string },
): z.infer<S> {
  const result = z.safeParse(schema, body);
  if (!result.success) {
    throw new ApiError(
      redact(
        `Unexpected response from ${call.describe} (HTTP ${call.status}): ` +
          `${describeIssues(result.error.issues, body)}. The answer does not match the ` +
          'published control-plane API; check `control-plane-url`, and report this if it persists.',
      ),
      { status: call.status, method: call.method, path: call.path },
    );
  }
  return result.data;
}

/** The 404 of a deployment read: deleted meanwhile, or in another workspace. */
export function deploymentNotFound(workspaceId: string | undefined, id: string): string {
  return (
    `Deployment ${id} does not exist (HTTP 404)${workspaceId ? ` in workspace ${workspaceId}` : ''}: ` +
    'it was deleted in the meantime, or it belongs to another workspace. Check `deployment-id` ' +
    'if you gave one' +
    (workspaceId
      ? ', and `workspace-id`.'
      : ', and set `workspace-id` if the key can reach several workspaces.')
  );
}

export function safeJson(res: HttpResponse): unknown {
  try {
    return res.json();
  } catch {
    return undefined;
  }
}

/**
 * The one deployment of that exact name, or undefined. A deployment being deleted gives way
 * to a live one of the same name; two live ones are an error naming both IDs (nothing is
 * changed: which one the workflow means is for `deployment-id` to say).
 */
export function onlyMatch(name: string, matches: Deployment[]): Deployment | undefined {
  const live = matches.filter((d) => d.status !== 'AWAITING_DELETE');
  if (live.length > 1) {
    throw new ActionError(
      `${live.length} deployments are named '${name}' (IDs ${live.map((d) => inert(d.id, 64)).join(', ')}): ` +
        'the action will not pick one at random, and changed nothing. Give the one to deploy in ' +
        '`deployment-id` (with or without `name`), or delete the extra one in the LangSmith UI.',
      'Deployment name is ambiguous',
    );
  }
  return live[0] ?? matches[0];
}
