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
  RevisionLogs,
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
  /** `POST /v2/deployments/{id}/upload-url`: where to PUT the `upload` archive (optional for fakes). */
  requestUploadUrl?(id: string): Promise<UploadTarget>;
  /** `undefined` when the install does not offer logs (404 or 405). */
  getRevisionLogs(
    id: string,
    revisionId: string,
    query: { type: 'build' | 'deploy'; limit?: number; order?: 'asc' | 'desc'; offset?: string },
  ): Promise<RevisionLogs | undefined>;
}
