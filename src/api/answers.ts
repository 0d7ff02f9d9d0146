/**
 * What the client makes of an answer before anyone reads it (masking, the shape check, advice;
 * see `client.ts`). Response bodies are never printed: only the field paths and types of a
 * shape mismatch, the server's `detail` text, and for 422 the fields and messages of each
 * validation error (never their `input`, which can echo secret values). Also: every page of a
 * list (`listAll`).
 */
import * as z from 'zod';
import { ApiError } from '../lib/errors.js';
import { isRecord } from '../lib/text.js';
import { withoutCredentials } from '../lib/outputs.js';
import { collapseWhitespace, inert, redact } from '../lib/untrusted.js';
import type { HttpRequest } from './http/request.js';
import { HTTPValidationErrorSchema } from './schemas.js';

/** The call an answer is for, as messages name it. */
export interface ErrorContext extends Pick<HttpRequest, 'describe'> {
  /** What a 404 means here, e.g. `Deployment 1234 does not exist. Check \`deployment-id\`.` */
  notFound?: string;
  /** The `workspace-id` input, when set (changes the 403 advice). */
  workspaceId?: string;
  /** The action's input names, to name the input behind a field of a 422 (`inputs/spec.ts`). */
  inputs?: ReadonlySet<string>;
}

/** Request fields not named after their input (the others are it with `_` for `-`). */
const RENAMED = new Map([
  ['langgraph_config_path', 'config-path'],
  ['listener_config', 'k8s-namespace'],
]);

/** The action input a request field comes from (`source_config.repo_url`: `repo-url`), if any. */
function inputOf(loc: (string | number)[], inputs?: ReadonlySet<string>): string | undefined {
  const parts = loc.filter((p) => typeof p === 'string');
  const field = /^source_(revision_)?config$/.test(parts[0] ?? '') ? parts[1] : parts[0];
  const input = field === undefined ? '' : (RENAMED.get(field) ?? field.replaceAll('_', '-'));
  return inputs?.has(input) ? input : undefined;
}

/**
 * One line of at most `max` characters, made inert for the runner. Secrets are masked in the
 * full text first: a secret that holds a tab or two spaces, or that the cut would halve, must
 * not show after the reflow or the cut.
 */
function oneLine(text: string, max = 600): string {
  return inert(collapseWhitespace(redact(text)), max + 1);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The server's `detail` (`{detail: "..."}`, or `message`) text, when the body carries one. */
export function serverDetail(body: unknown, max?: number): string | undefined {
  const detail = z.safeParse(z.looseObject({ detail: z.string() }), body);
  if (detail.success) return oneLine(detail.data.detail, max);
  const message = isRecord(body) ? body['message'] : undefined;
  return typeof message === 'string' && message.trim() !== '' ? oneLine(message, max) : undefined;
}

/**
 * One line per validation error: `source_config.integration_id: Field required`, the leading
 * `body`/`query`/`path`/`header` element of `loc` dropped, the input named when known. Never
 * the entry's `input` or `ctx` (they can echo the values sent, secrets included).
 */
function renderValidationErrors(body: unknown, inputs?: ReadonlySet<string>): string[] | undefined {
  return z.safeParse(HTTPValidationErrorSchema, body).data?.detail.map((entry) => {
    const where = ['body', 'query', 'path', 'header'].includes(String(entry.loc[0]));
    const loc = where ? entry.loc.slice(1) : entry.loc;
    const field = loc.map(String).join('.');
    const input = inputOf(loc, inputs);
    const msg = oneLine(entry.msg, 300);
    return `${inert(field, 120) || '(request)'}: ${msg}${input ? ` (input \`${input}\`)` : ''}`;
  });
}

/** Maps a non-2xx answer to an `ApiError` with advice; its body masked first, like any answer. */
export function errorFromResponse(
  res: { status: number; text: string; attempts?: number },
  ctx: ErrorContext,
  mask: (value: string) => void,
): ApiError {
  const { status } = res;
  const body = parseJson(res.text);
  maskDeploymentSecrets(body, mask);
  // Without its final period: the messages below go on with ". What to do".
  const detail = serverDetail(body)?.replace(/\.$/, '');
  const withDetail = detail ? `: ${detail}` : '';
  const attempts = res.attempts ?? 1;
  let message: string;
  let title: string | undefined;

  if (status === 401) {
    title = 'API key rejected';
    message =
      `${ctx.describe} was rejected (HTTP 401 Unauthorized): the control plane did not accept ` +
      'the API key. Check the `api-key` secret: it must be a valid, unexpired LangSmith API ' +
      'key of the organization or workspace that owns the deployments (and for the region / ' +
      '`control-plane-url` used).';
  } else if (status === 403 && /not enabled/i.test(detail ?? '')) {
    // The `langgraph deploy` CLI's two 403s (deploy.py, `_call_host_backend_with_optional_tenant`).
    title = 'LangSmith Deployment not enabled';
    message =
      `${ctx.describe} was refused (HTTP 403 Forbidden)${withDetail}. LangSmith Deployment ` +
      'needs the Plus plan or above (https://www.langchain.com/pricing), or an organization ' +
      'admin enabling it (LangSmith → Deployments); check too that `api-key` belongs to that ' +
      'organization.';
  } else if (status === 403 && /workspace specification|X-Tenant-Id/i.test(detail ?? '')) {
    title = 'Workspace needed';
    message =
      `${ctx.describe} was refused (HTTP 403 Forbidden)${withDetail}. The API key is ` +
      'organization-scoped and needs a workspace: set input `workspace-id` to the workspace ' +
      `of the deployments (Settings → Workspaces in LangSmith)${ctx.workspaceId ? `; ${ctx.workspaceId} was sent` : ''}, ` +
      'or use a workspace-scoped key.';
  } else if (status === 403) {
    title = 'Permission denied';
    message = `${ctx.describe} was refused (HTTP 403 Forbidden)${withDetail}. `;
    message += ctx.workspaceId
      ? `Check that \`workspace-id\` (${ctx.workspaceId}) is the workspace of the deployments ` +
        'and that the API key has permission to manage deployments there.'
      : 'A workspace-scoped or organization-scoped API key needs the `workspace-id` input ' +
        '(sent as X-Tenant-Id); otherwise the key lacks permission to manage deployments.';
  } else if (status === 404) {
    title = 'Not found';
    message =
      ctx.notFound ??
      `${ctx.describe} answered 404 Not Found${withDetail}. Check the URL and the IDs given.`;
  } else if (status === 400 || status === 409) {
    message =
      `${ctx.describe} was rejected (HTTP ${status})${withDetail || ' without a reason'}` +
      '. Check the inputs the message names.';
  } else if (status === 422) {
    title = 'Request rejected as invalid';
    const lines = renderValidationErrors(body, ctx.inputs)?.map((l) => `\n  - ${l}`);
    message = lines?.length
      ? `${ctx.describe} was rejected as invalid (HTTP 422):${lines.join('')}\nFix the inputs named above.`
      : `${ctx.describe} was rejected as invalid (HTTP 422)${withDetail}. Check the inputs.`;
  } else if (status === 429) {
    title = 'Rate limited';
    message =
      `${ctx.describe} was still rate limited (HTTP 429) after ${attempts} attempt` +
      `${attempts === 1 ? '' : 's'}. The control plane limits requests per API key: wait a few ` +
      'minutes and re-run the job, and avoid running many deploy jobs with the same key at once.';
  } else if (status >= 500) {
    title = 'Control plane unavailable';
    message =
      `${ctx.describe} failed with HTTP ${status}${attempts > 1 ? ` after ${attempts} attempts` : ''}` +
      `${withDetail}. The platform may be having trouble: re-run the job later, and check ` +
      'https://status.smith.langchain.com.';
  } else {
    message = `${ctx.describe} failed with HTTP ${status}${withDetail}.`;
  }
  return new ApiError(redact(message), { status, title });
}

/**
 * Masks every `secrets[].value` of a Deployment body, or of each one in `resources`, and the
 * credentials of any URL in its `source_config` (`https://user:password@…`).
 */
function maskDeploymentSecrets(body: unknown, mask: (value: string) => void): void {
  const listed = isRecord(body) && Array.isArray(body['resources']) ? body['resources'] : [];
  for (const d of [body, ...listed].filter(isRecord)) {
    for (const value of Object.values(isRecord(d['source_config']) ? d['source_config'] : {})) {
      if (typeof value !== 'string' || !value.includes('@')) continue;
      for (const credential of withoutCredentials(value).credentials) mask(credential);
    }
    for (const secret of Array.isArray(d['secrets']) ? d['secrets'] : []) {
      if (isRecord(secret) && typeof secret['value'] === 'string' && secret['value'] !== '') {
        mask(secret['value']);
      }
    }
  }
}

/**
 * The answer as JSON, masked (`maskDeploymentSecrets`), then checked against its schema. A
 * mismatch names up to three field paths and types (`resources.0.status: expected string, got
 * a number`), never values.
 */
export function parseAnswer<S extends z.ZodType>(
  schema: S,
  { status, text }: { status: number; text: string },
  ctx: ErrorContext,
  mask: (value: string) => void,
): z.infer<S> {
  const body = parseJson(text);
  if (body === undefined) {
    throw new ApiError(
      redact(
        `Invalid response from ${ctx.describe} (HTTP ${status}): the body is not JSON. The URL ` +
          'may not point at the API (a proxy or sign-in page may have answered instead); check ' +
          'the URL, and re-run the job if it was a passing fault.',
      ),
      { status },
    );
  }
  maskDeploymentSecrets(body, mask);
  const result = z.safeParse(schema, body, { reportInput: true });
  if (result.success) return result.data;
  const typeName = (v: unknown) => {
    const kind = v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
    return kind === 'null' ? kind : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
  };
  const issues = result.error.issues.slice(0, 3).map((issue) => {
    const field = issue.path.map(String).join('.') || '(body)';
    if (issue.code !== 'invalid_type') return `${field}: ${issue.message}`;
    return issue.input === undefined
      ? `${field}: missing (expected ${issue.expected})`
      : `${field}: expected ${issue.expected}, got ${typeName(issue.input)}`;
  });
  throw new ApiError(
    redact(
      `Unexpected response from ${ctx.describe} (HTTP ${status}): ${issues.join('; ')}. The ` +
        'answer does not match the published control-plane API; check `control-plane-url`, ' +
        'and report this if it persists.',
    ),
    { status },
  );
}

/** The 404 of a deployment read: deleted meanwhile, or in another workspace. */
export function deploymentNotFound(id: string, workspace: string | undefined): string {
  return (
    `Deployment ${id} does not exist (HTTP 404)${workspace ? ` in workspace ${workspace}` : ''}: ` +
    'it was deleted in the meantime, or it belongs to another workspace. Check `deployment-id` ' +
    'if you gave one' +
    (workspace
      ? ', and `workspace-id`.'
      : ', and set `workspace-id` if the key can reach several workspaces.')
  );
}

/** More pages than this while reading a list is an error (a paging bug, not a big org). */
const MAX_PAGES = 50;

/** Every item of a paged control-plane list, in the order listed. */
export async function listAll<T>(
  page: (query: { limit: number; offset: number }) => Promise<{ resources: T[]; offset: number }>,
  what: string,
  advice: string,
  limit = 100,
): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0, pages = 1; pages <= MAX_PAGES; pages++) {
    const list = await page({ limit, offset });
    all.push(...list.resources);
    if (list.resources.length < limit || !(list.offset > offset)) return all;
    offset = list.offset;
  }
  throw new ApiError(
    redact(
      `Listing ${what} took more than ${MAX_PAGES} pages of ${limit} without reaching the end: ` +
        `the control plane seems to page wrongly. ${advice}`,
    ),
  );
}
