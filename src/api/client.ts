/**
 * The control-plane REST API (`/v2/deployments…`): the one client, over `request()`. It sends
 * the API key (masked at once) and the workspace, and does three things with every answer
 * before anyone reads it: masks every secret value and URL credential of a deployment in it,
 * checks its shape against `schemas.ts`, and turns a failure into advice (all in `answers.ts`).
 */
import type * as z from 'zod';
import { ActionError } from '../lib/errors.js';
import { inert, setSecret } from '../lib/untrusted.js';
import {
  deploymentNotFound,
  listAll,
  errorFromResponse,
  parseAnswer,
  parseJson,
  type ErrorContext,
} from './answers.js';
import { BULK_DELETE_LIMIT, readBulkDeleteAnswer, type BulkDeleteOutcome } from './bulk-delete.js';
import { request } from './http/request.js';
import type { HttpContext, HttpRequest, HttpResponse } from './http/request.js';
import {
  DeploymentSchema,
  DeploymentsListSchema,
  GithubIntegrationsSchema,
  GithubRepositoriesSchema,
  PushTokenSchema,
  RevisionLogsSchema,
  UploadTargetSchema,
  RevisionSchema,
  RevisionsListSchema,
  type DeploymentCreateRequest,
  type DeploymentPatchRequest,
  type RevisionCreateRequest,
} from './schemas.js';

export const USER_AGENT = 'langgraph-deploy-action/1 (+GitHub Action)';

/**
 * What the rest of the action needs from the control plane; tests may implement it in memory.
 * `redeployRevision` and the bulk delete belong to the commands that hold the client.
 */
export type ControlPlane = Omit<ControlPlaneClient, CommandCalls>;
/** What the commands hold: every call a step makes, and theirs. */
export type CommandClient = ControlPlane & Pick<ControlPlaneClient, CommandCalls>;
type CommandCalls = 'redeployRevision' | 'deleteDeployments';

interface Call extends ErrorContext, Pick<HttpRequest, 'body' | 'retry'> {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  /** An array value is sent as the parameter repeated (`ids=a&ids=b`), as FastAPI reads lists. */
  query?: Record<string, string | number | boolean | undefined | readonly string[]>;
}

type Paging = { limit?: number; offset?: number };

function apiPath(prefix: string, ...parts: string[]): string {
  return [prefix, ...parts.map(encodeURIComponent)].join('/');
}

export class ControlPlaneClient {
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;
  private readonly mask: (value: string) => void;

  constructor(
    private readonly options: {
      /** E.g. `https://api.host.langchain.com` or `https://<host>/api-host`; trailing `/` allowed. */
      baseUrl: string;
      apiKey: string;
      workspaceId?: string;
      http: HttpContext;
      inputs?: ReadonlySet<string>;
      /** Masks a secret value; default `setSecret`. */
      mask?: (value: string) => void;
      /** `limit` of list calls; default (and the API's maximum) 100. */
      pageLimit?: number;
    },
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.mask = options.mask ?? setSecret;
    this.mask(options.apiKey);
    this.headers = {
      'X-Api-Key': options.apiKey,
      Accept: 'application/json',
      'User-Agent': USER_AGENT,
      ...(options.workspaceId ? { 'X-Tenant-Id': options.workspaceId } : {}),
    };
  }

  listDeployments({ nameContains: name, limit, offset }: Paging & { nameContains?: string }) {
    return this.json(DeploymentsListSchema, [200], {
      method: 'GET',
      path: '/v2/deployments',
      query: { name_contains: name, limit, offset },
      describe: name !== undefined ? `GET deployments named like "${name}"` : 'GET deployments',
    });
  }

  /**
   * Exact, whole-name match across every page; `undefined` when there is none. A deployment
   * being deleted gives way to a live one of the same name; two live ones are an error naming
   * both IDs (nothing is changed: which one the workflow means is for `deployment-id` to say).
   */
  async findDeploymentByName(name: string) {
    // Every page is read: two deployments of the exact name must not be told apart at random.
    const listed = await listAll(
      (query) => this.listDeployments({ nameContains: name, ...query }),
      `deployments named like "${name}"`,
      'Give `deployment-id` instead of `name`, or report this.',
      this.options.pageLimit,
    );
    const ids = new Set<string>();
    const matches = listed.filter((d) => d.name === name && !ids.has(d.id) && ids.add(d.id));
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

  /** Throws `ApiError` with `status: 404` when it does not exist. */
  getDeployment(id: string) {
    return this.json(DeploymentSchema, [200], {
      method: 'GET',
      path: apiPath('/v2/deployments', id),
      describe: `GET deployment ${id}`,
      notFound: deploymentNotFound(id, this.options.workspaceId),
    });
  }

  createDeployment(body: DeploymentCreateRequest) {
    return this.json(DeploymentSchema, [200, 201], {
      method: 'POST',
      path: '/v2/deployments',
      body,
      describe: `POST (create) deployment "${body.name}"`,
    });
  }

  patchDeployment(id: string, body: DeploymentPatchRequest) {
    return this.json(DeploymentSchema, [200], {
      method: 'PATCH',
      path: apiPath('/v2/deployments', id),
      body,
      describe: `PATCH (update) deployment ${id}`,
      notFound: deploymentNotFound(id, this.options.workspaceId),
    });
  }

  /**
   * `'not_found'` when the deployment does not exist. A retried DELETE (the first attempt's
   * outcome unknown) that answers 404 counts as `'deleted'`.
   */
  async deleteDeployment(
    id: string,
    options: { deleteTracingProject: boolean },
  ): Promise<'deleted' | 'not_found'> {
    const call: Call = {
      method: 'DELETE',
      path: apiPath('/v2/deployments', id),
      query: { delete_tracing_project: options.deleteTracingProject },
      describe: `DELETE deployment ${id}`,
    };
    const res = await this.send(call, [200, 202, 204, 404]);
    return res.status === 404 && res.attemptsWithUnknownOutcome === 0 ? 'not_found' : 'deleted';
  }

  /**
   * Deletes up to 100 deployments in one call (`DELETE /v2/deployments?deployment_ids=…`).
   * `'not_found'` when the control plane answers 404 (one of them is already gone; the caller
   * deletes them one by one instead). Other failures throw `ApiError`.
   */
  async deleteDeployments(ids: readonly string[]): Promise<BulkDeleteOutcome | 'not_found'> {
    if (ids.length > BULK_DELETE_LIMIT) {
      throw new RangeError(
        `At most ${BULK_DELETE_LIMIT} deployments a bulk delete, not ${ids.length}.`,
      );
    }
    const call: Call = {
      method: 'DELETE',
      path: '/v2/deployments',
      query: { deployment_ids: ids },
      describe: `DELETE ${ids.length} deployment${ids.length === 1 ? '' : 's'} (bulk)`,
    };
    const res = await this.send(call, [200, 202, 204, 207, 404]);
    if (res.status === 404) return 'not_found';
    return readBulkDeleteAnswer(ids, res.status, parseJson(res.text));
  }

  listRevisions(id: string, query: Paging) {
    return this.json(RevisionsListSchema, [200], {
      method: 'GET',
      path: apiPath('/v2/deployments', id, 'revisions'),
      query: { limit: query.limit, offset: query.offset },
      describe: `GET revisions of deployment ${id}`,
      notFound: deploymentNotFound(id, this.options.workspaceId),
    });
  }

  getRevision(id: string, revisionId: string) {
    return this.json(RevisionSchema, [200], {
      method: 'GET',
      path: apiPath('/v2/deployments', id, 'revisions', revisionId),
      describe: `GET revision ${revisionId} of deployment ${id}`,
      notFound:
        `Revision ${revisionId} of deployment ${id} does not exist (HTTP 404): the deployment ` +
        'may have been deleted or replaced meanwhile. Check the deployment in the LangSmith UI.',
    });
  }

  listGithubIntegrations() {
    return this.read(GithubIntegrationsSchema, '/v1/integrations/github/install');
  }

  listGithubRepos(id: string) {
    return this.read(GithubRepositoriesSchema, apiPath('/v1/integrations/github', id, 'repos'));
  }

  /**
   * `POST …/revisions/{rev}/redeploy`: the platform creates a new revision that serves this
   * one's source again; the answer is the deployment, whose `latest_revision_id` is that new
   * revision.
   */
  redeployRevision(id: string, revisionId: string) {
    return this.json(DeploymentSchema, [200, 201], {
      method: 'POST',
      path: apiPath('/v2/deployments', id, 'revisions', revisionId, 'redeploy'),
      describe: `POST redeploy of revision ${revisionId} of deployment ${id}`,
      notFound:
        `Revision ${revisionId} of deployment ${id} cannot be redeployed: the control plane ` +
        'does not know it (HTTP 404). Check `rollback-to` against the deployment’s revisions.',
    });
  }

  /**
   * `POST …/revisions/{rev}/interrupt` (the API reference's path); a 404 there is asked once
   * more on `…/interruption` (the path of LangChain's CI/CD example, older installs).
   * `'interrupted'` on 2xx; the HTTP status on 404, 405 or 409 (nothing to interrupt, or not
   * offered); throws on the rest.
   */
  async interruptRevision(
    id: string,
    revisionId: string,
  ): Promise<'interrupted' | 404 | 405 | 409> {
    for (const tail of ['interrupt', 'interruption']) {
      const call: Call = {
        method: 'POST',
        path: apiPath('/v2/deployments', id, 'revisions', revisionId, tail),
        // Asking twice to stop the same revision changes nothing more than asking once.
        retry: 'idempotent',
        describe: `POST ${tail} of revision ${revisionId} of deployment ${id}`,
      };
      const res = await this.send(call);
      if (res.status >= 200 && res.status < 300) return 'interrupted';
      if (res.status === 405 || res.status === 409) return res.status;
      if (res.status !== 404) throw errorFromResponse(res, this.context(call), this.mask);
    }
    return 404;
  }

  /**
   * `POST /v2/deployments/{id}/revisions`: a new revision, answered directly. 404 or 405 (an
   * install without this endpoint, or no such deployment: the caller's PATCH tells them apart)
   * comes back as the status. Never retried blindly: a lost answer is looked up by the caller.
   */
  createRevision(id: string, body: RevisionCreateRequest) {
    return this.json(RevisionSchema, [200, 201], {
      method: 'POST',
      path: apiPath('/v2/deployments', id, 'revisions'),
      body,
      describe: `POST (create) revision of deployment ${id}`,
      asIs: [404, 405],
    });
  }

  /**
   * `POST /v2/deployments/{id}/upload-url`: a signed URL for the `upload` archive. The URL is
   * masked at once: its signature is a credential.
   */
  requestUploadUrl(id: string) {
    return this.issue(UploadTargetSchema, id, 'upload-url', (target) => target.upload_url);
  }

  /**
   * `POST /v2/deployments/{id}/push-token`: a registry token for the deployment's images
   * (`internal_docker`), masked at once, before anything could print it.
   */
  requestPushToken(id: string) {
    return this.issue(PushTokenSchema, id, 'push-token', (answer) => answer.token);
  }

  /** A credential the control plane issues: asking again only issues another (retried as a read). */
  private async issue<S extends z.ZodType>(
    schema: S,
    id: string,
    what: string,
    secret: (answer: z.infer<S>) => string,
  ): Promise<z.infer<S>> {
    const answer = await this.json(schema, [200, 201], {
      method: 'POST',
      path: apiPath('/v2/deployments', id, what),
      retry: 'idempotent',
      describe: `POST ${what} of deployment ${id}`,
      notFound: deploymentNotFound(id, this.options.workspaceId),
    });
    this.mask(secret(answer));
    return answer;
  }

  /**
   * One page of a revision's build or deploy log (`POST /v1/projects/{id}/revisions/{rev}/
   * build_logs` or `deploy_logs`, the endpoints of the platform's own `langgraph deploy`
   * CLI), asked newest or oldest first, a page size, and where to go on. `undefined` when the
   * install does not offer logs (404 or 405).
   */
  async getRevisionLogs(
    id: string,
    revisionId: string,
    kind: 'build' | 'deploy',
    body: { order: 'asc' | 'desc'; limit: number; offset?: string },
  ) {
    const logs = await this.json(RevisionLogsSchema, [200], {
      method: 'POST',
      path: apiPath('/v1/projects', id, 'revisions', revisionId, `${kind}_logs`),
      body,
      // A read, although it is a POST: asking again changes nothing.
      retry: 'idempotent',
      describe: `POST (read) ${kind} logs of revision ${revisionId} of deployment ${id}`,
      asIs: [404, 405],
    });
    return typeof logs === 'number' ? undefined : logs;
  }

  /** The answer; with `ok`, a status not in it throws its `ApiError` (`errorFromResponse`). */
  private async send(call: Call, ok?: number[]): Promise<HttpResponse> {
    const url = new URL(this.baseUrl + call.path);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(key, item);
      else if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const res = await request(this.options.http, { ...call, url: url.href, headers: this.headers });
    if (ok && !ok.includes(res.status)) throw errorFromResponse(res, this.context(call), this.mask);
    return res;
  }

  private read<S extends z.ZodType>(schema: S, path: string): Promise<z.infer<S>> {
    return this.json(schema, [200], { method: 'GET', path, describe: `GET ${path}` });
  }

  /** The answer of an `ok` status, read by `parseAnswer`; a status in `asIs` comes back as it is. */
  private async json<S extends z.ZodType, P extends number = never>(
    schema: S,
    ok: number[],
    call: Call & { asIs?: P[] },
  ): Promise<z.infer<S> | NoInfer<P>> {
    const res = await this.send(call, [...ok, ...(call.asIs ?? [])]);
    if (call.asIs?.includes(res.status as P)) return res.status as P;
    return parseAnswer(schema, res, this.context(call), this.mask);
  }

  /** The call as messages name it, and the workspace. */
  private context(call: Call): ErrorContext {
    const { workspaceId, inputs } = this.options;
    return { ...call, workspaceId, inputs };
  }
}
