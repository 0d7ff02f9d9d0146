/**
 * The control-plane REST API (`/v2/deployments…`) over `request()`. Every answer is validated
 * against `schemas.ts`; every secret value in a Deployment is masked as soon as the body is
 * parsed, before anything else looks at it.
 */
import { ApiError } from '../lib/errors.js';
import { redact } from '../lib/untrusted.js';
import type { ControlPlane } from './control-plane.js';
import { BULK_DELETE_LIMIT, readBulkDeleteAnswer, type BulkDeleteOutcome } from './bulk-delete.js';
import { deploymentNotFound, maskDeploymentSecrets, onlyMatch, safeJson } from './answers.js';
import {
  DeploymentSchema,
  DeploymentsListSchema,
  RevisionLogsSchema,
  UploadTargetSchema,
  RevisionSchema,
  RevisionsListSchema,
  type Deployment,
  type DeploymentCreateRequest,
  type DeploymentPatchRequest,
  type DeploymentsList,
  type Revision,
  type RevisionCreateRequest,
  type RevisionLogs,
  type RevisionLogsRequest,
  type RevisionsList,
  type UploadTarget,
} from './schemas.js';
import { ControlPlaneTransport, type Call } from './transport.js';

export { USER_AGENT, type ControlPlaneClientOptions } from './transport.js';

/** More pages than this while looking a name up is an error (a paging bug, not a big org). */
export const MAX_PAGES = 50;

export class ControlPlaneClient extends ControlPlaneTransport implements ControlPlane {
  async listDeployments(query: {
    nameContains?: string;
    limit?: number;
    offset?: number;
  }): Promise<DeploymentsList> {
    const call: Call = {
      method: 'GET',
      path: '/v2/deployments',
      query: { name_contains: query.nameContains, limit: query.limit, offset: query.offset },
      retry: 'idempotent',
      describe:
        query.nameContains !== undefined
          ? `GET deployments named like "${query.nameContains}"`
          : 'GET deployments',
    };
    return this.json(call, DeploymentsListSchema, { ok: [200], deployments: true });
  }

  async findDeploymentByName(name: string): Promise<Deployment | undefined> {
    const limit = this.pageLimit;
    let offset = 0;
    // Every page is read: two deployments of the exact name must not be told apart at random.
    const matches: Deployment[] = [];
    for (let page = 1; ; page++) {
      if (page > MAX_PAGES) {
        throw new ApiError(
          redact(
            `Looking up deployment "${name}" took more than ${MAX_PAGES} pages of ${limit} ` +
              'without reaching the end of the list: the control plane seems to page wrongly. ' +
              'Give `deployment-id` instead of `name`, or report this.',
          ),
          { method: 'GET', path: '/v2/deployments' },
        );
      }
      const list = await this.listDeployments({ nameContains: name, limit, offset });
      for (const d of list.resources)
        if (d.name === name && !matches.some((m) => m.id === d.id)) matches.push(d);
      if (list.resources.length === 0 || list.resources.length < limit) break;
      if (!(list.offset > offset)) break;
      offset = list.offset;
    }
    return onlyMatch(name, matches);
  }

  async getDeployment(id: string): Promise<Deployment> {
    const call: Call = {
      method: 'GET',
      path: `/v2/deployments/${encodeURIComponent(id)}`,
      retry: 'idempotent',
      describe: `GET deployment ${id}`,
      notFound: deploymentNotFound(this.workspaceId, id),
    };
    return this.json(call, DeploymentSchema, { ok: [200], deployments: true });
  }

  async createDeployment(body: DeploymentCreateRequest): Promise<Deployment> {
    const call: Call = {
      method: 'POST',
      path: '/v2/deployments',
      body,
      retry: 'unsafe',
      describe: `POST (create) deployment "${body.name}"`,
    };
    return this.json(call, DeploymentSchema, { ok: [200, 201], deployments: true });
  }

  async patchDeployment(id: string, body: DeploymentPatchRequest): Promise<Deployment> {
    const call: Call = {
      method: 'PATCH',
      path: `/v2/deployments/${encodeURIComponent(id)}`,
      body,
      retry: 'unsafe',
      describe: `PATCH (update) deployment ${id}`,
      notFound: deploymentNotFound(this.workspaceId, id),
    };
    return this.json(call, DeploymentSchema, { ok: [200], deployments: true });
  }

  async deleteDeployment(
    id: string,
    options: { deleteTracingProject: boolean },
  ): Promise<'deleted' | 'not_found'> {
    const call: Call = {
      method: 'DELETE',
      path: `/v2/deployments/${encodeURIComponent(id)}`,
      query: { delete_tracing_project: options.deleteTracingProject },
      retry: 'idempotent',
      describe: `DELETE deployment ${id}`,
    };
    const res = await this.send(call);
    if (res.status === 204 || res.status === 200 || res.status === 202) return 'deleted';
    if (res.status === 404) return res.attemptsWithUnknownOutcome > 0 ? 'deleted' : 'not_found';
    throw this.fail(call, res);
  }

  /**
   * Deletes up to 100 deployments in one call (`DELETE /v2/deployments?deployment_ids=…`).
   * `'not_found'` when the control plane answers 404 (one of them is already gone; the caller
   * deletes them one by one instead). Other failures throw `ApiError`.
   */
  async deleteDeployments(ids: readonly string[]): Promise<BulkDeleteOutcome | 'not_found'> {
    if (ids.length === 0) return { deleted: [], failed: [], unknown: [] };
    if (ids.length > BULK_DELETE_LIMIT) {
      throw new RangeError(
        `At most ${BULK_DELETE_LIMIT} deployments a bulk delete, not ${ids.length}.`,
      );
    }
    const call: Call = {
      method: 'DELETE',
      path: '/v2/deployments',
      query: { deployment_ids: ids },
      retry: 'idempotent',
      describe: `DELETE ${ids.length} deployment${ids.length === 1 ? '' : 's'} (bulk)`,
    };
    const res = await this.send(call);
    if ([200, 202, 204, 207].includes(res.status)) {
      return readBulkDeleteAnswer(ids, res.status, res.status === 207 ? safeJson(res) : undefined);
    }
    if (res.status === 404) return 'not_found';
    throw this.fail(call, res);
  }

  async listRevisions(
    id: string,
    query: { limit?: number; offset?: number },
  ): Promise<RevisionsList> {
    const call: Call = {
      method: 'GET',
      path: `/v2/deployments/${encodeURIComponent(id)}/revisions`,
      query: { limit: query.limit, offset: query.offset },
      retry: 'idempotent',
      describe: `GET revisions of deployment ${id}`,
      notFound: deploymentNotFound(this.workspaceId, id),
    };
    return this.json(call, RevisionsListSchema, { ok: [200] });
  }

  async getRevision(id: string, revisionId: string): Promise<Revision> {
    const call: Call = {
      method: 'GET',
      path: `/v2/deployments/${encodeURIComponent(id)}/revisions/${encodeURIComponent(revisionId)}`,
      retry: 'idempotent',
      describe: `GET revision ${revisionId} of deployment ${id}`,
      notFound:
        `Revision ${revisionId} of deployment ${id} does not exist (HTTP 404): the deployment ` +
        'may have been deleted or replaced meanwhile. Check the deployment in the LangSmith UI.',
    };
    return this.json(call, RevisionSchema, { ok: [200] });
  }

  /**
   * `POST …/revisions/{rev}/redeploy`: the platform creates a new revision that serves this
   * one's source again; the answer is the deployment, whose `latest_revision_id` is that new
   * revision. Not in the `ControlPlane` interface: only `commands/rollback.ts` uses it.
   */
  async redeployRevision(id: string, revisionId: string): Promise<Deployment> {
    const call: Call = {
      method: 'POST',
      path:
        `/v2/deployments/${encodeURIComponent(id)}/revisions/` +
        `${encodeURIComponent(revisionId)}/redeploy`,
      retry: 'unsafe',
      describe: `POST redeploy of revision ${revisionId} of deployment ${id}`,
      notFound:
        `Revision ${revisionId} of deployment ${id} cannot be redeployed: the control plane ` +
        'does not know it (HTTP 404). Check `rollback-to` against the deployment’s revisions.',
    };
    return this.json(call, DeploymentSchema, { ok: [200, 201], deployments: true });
  }

  /**
   * `POST …/revisions/{rev}/interrupt` (the API reference's path); a 404 there is asked once
   * more on `…/interruption` (the path of LangChain's CI/CD example, older installs).
   */
  async interruptRevision(
    id: string,
    revisionId: string,
  ): Promise<'interrupted' | 404 | 405 | 409> {
    let status: number = 404;
    for (const tail of ['interrupt', 'interruption']) {
      const call: Call = {
        method: 'POST',
        path:
          `/v2/deployments/${encodeURIComponent(id)}/revisions/` +
          `${encodeURIComponent(revisionId)}/${tail}`,
        // Asking twice to stop the same revision changes nothing more than asking once.
        retry: 'idempotent',
        describe: `POST ${tail} of revision ${revisionId} of deployment ${id}`,
      };
      const res = await this.send(call);
      status = res.status;
      if (status >= 200 && status < 300) return 'interrupted';
      if (status === 404) continue;
      if (status === 405 || status === 409) return status;
      throw this.fail(call, res);
    }
    return status as 404;
  }

  /**
   * `POST /v2/deployments/{id}/revisions`: a new revision, answered directly. 404 or 405 (an
   * install without this endpoint, or no such deployment: the caller's PATCH tells them apart)
   * comes back as the status. Never retried blindly: a lost answer is looked up by the caller.
   */
  async createRevision(id: string, body: RevisionCreateRequest): Promise<Revision | 404 | 405> {
    const call: Call = {
      method: 'POST',
      path: `/v2/deployments/${encodeURIComponent(id)}/revisions`,
      body,
      retry: 'unsafe',
      describe: `POST (create) revision of deployment ${id}`,
    };
    const res = await this.send(call);
    if (res.status === 404 || res.status === 405) return res.status;
    if (res.status !== 200 && res.status !== 201) {
      maskDeploymentSecrets(safeJson(res), this.mask);
      throw this.fail(call, res);
    }
    return this.parse(call, res, RevisionSchema, true);
  }

  /**
   * A signed URL for the `upload` archive. Asking again only issues another URL, so it is
   * retried like a read. The URL is masked at once: its signature is a credential.
   */
  async requestUploadUrl(id: string): Promise<UploadTarget> {
    const call: Call = {
      method: 'POST',
      path: `/v2/deployments/${encodeURIComponent(id)}/upload-url`,
      retry: 'idempotent',
      describe: `POST upload-url of deployment ${id}`,
      notFound: deploymentNotFound(this.workspaceId, id),
    };
    const target = await this.json(call, UploadTargetSchema, { ok: [200, 201] });
    this.mask(target.upload_url);
    return target;
  }

  async getRevisionLogs(
    id: string,
    revisionId: string,
    kind: 'build' | 'deploy',
    body: RevisionLogsRequest,
  ): Promise<RevisionLogs | undefined> {
    const call: Call = {
      method: 'POST',
      path:
        `/v1/projects/${encodeURIComponent(id)}/revisions/` +
        `${encodeURIComponent(revisionId)}/${kind}_logs`,
      body,
      // A read, although it is a POST: asking again changes nothing.
      retry: 'idempotent',
      describe: `POST (read) ${kind} logs of revision ${revisionId} of deployment ${id}`,
    };
    const res = await this.send(call);
    if (res.status === 404 || res.status === 405) return undefined;
    if (res.status !== 200) throw this.fail(call, res);
    return this.parse(call, res, RevisionLogsSchema, false);
  }
}
