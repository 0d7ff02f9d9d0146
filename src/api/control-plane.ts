/**
 * What the rest of the action needs from the control plane. `client.ts` implements it over
 * HTTP; tests may implement it in memory.
 */
import type {
  Deployment,
  DeploymentCreateRequest,
  DeploymentPatchRequest,
  DeploymentsList,
  Revision,
  RevisionCreateRequest,
  RevisionLogs,
  RevisionLogsRequest,
  RevisionsList,
  UploadTarget,
} from './schemas.js';

export interface ControlPlane {
  listDeployments(query: {
    nameContains?: string;
    limit?: number;
    offset?: number;
  }): Promise<DeploymentsList>;
  /** Exact, whole-name match across every page; `undefined` when there is none. */
  findDeploymentByName(name: string): Promise<Deployment | undefined>;
  /** Throws `ApiError` with `status: 404` when it does not exist. */
  getDeployment(id: string): Promise<Deployment>;
  createDeployment(body: DeploymentCreateRequest): Promise<Deployment>;
  patchDeployment(id: string, body: DeploymentPatchRequest): Promise<Deployment>;
  /**
   * `'not_found'` when the deployment does not exist. A retried DELETE (the first attempt's
   * outcome unknown) that answers 404 counts as `'deleted'`.
   */
  deleteDeployment(
    id: string,
    options: { deleteTracingProject: boolean },
  ): Promise<'deleted' | 'not_found'>;
  listRevisions(id: string, query: { limit?: number; offset?: number }): Promise<RevisionsList>;
  getRevision(id: string, revisionId: string): Promise<Revision>;
  /**
   * `POST …/revisions/{rev}/interrupt`, then `…/interruption` once on 404. `'interrupted'` on
   * 2xx; the HTTP status on 404, 405 or 409 (nothing to interrupt, or not offered); throws on
   * the rest. Optional so that in-memory fakes need not implement it.
   */
  interruptRevision?(id: string, revisionId: string): Promise<'interrupted' | 404 | 405 | 409>;
  /**
   * `POST /v2/deployments/{id}/revisions`: the created revision, or 404/405 when the install
   * does not offer the endpoint (the caller then PATCHes). Optional for in-memory fakes.
   */
  createRevision?(id: string, body: RevisionCreateRequest): Promise<Revision | 404 | 405>;
  /** `POST /v2/deployments/{id}/upload-url`: where to PUT the `upload` archive (optional for fakes). */
  requestUploadUrl?(id: string): Promise<UploadTarget>;
  /**
   * One page of a revision's build or deploy log (`POST /v1/projects/{id}/revisions/{rev}/
   * build_logs` or `deploy_logs`, the endpoints of the platform's own `langgraph deploy`
   * CLI). `undefined` when the install does not offer logs (404 or 405).
   */
  getRevisionLogs(
    id: string,
    revisionId: string,
    kind: 'build' | 'deploy',
    body: RevisionLogsRequest,
  ): Promise<RevisionLogs | undefined>;
}
