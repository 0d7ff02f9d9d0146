/** Routes of the control plane (`/v2/deployments…`), answered from the in-memory store. */
import { randomUUID } from 'node:crypto';
import { pageOfLogs, revisionLogs } from './logs.js';
import { emptyRevisionConfig, type DeploymentRecord, type Store } from './state.js';
import type { RevisionAgent, SimGithubIntegration, SimResponse, TimelineStep } from './types.js';
import {
  TYPE_FAMILIES,
  validateCreate,
  validatePatch,
  validationError,
  type Issue,
} from './validation.js';

export interface ControlPlaneConfig {
  tenantId: string;
  deleteDelayMs: number;
  /** Whether `POST /v2/deployments/{id}/revisions` exists (405 when not, as on older installs). */
  revisionsEndpoint: boolean;
  /** Whether the older `…/revisions/{rev}/interruption` path exists besides `…/interrupt`. */
  interruptionPath: boolean;
  logsEndpoint: boolean;
  commitSha: string | null;
  /** The pricing family whose deployment types a create is refused (`SimulatorOptions`). */
  refuseDeploymentTypes?: keyof typeof TYPE_FAMILIES | undefined;
  /** The workspace's GitHub integrations (`Simulator.setGithubIntegrations`). */
  githubIntegrations(): SimGithubIntegration[];
  /** The timeline of the next revision (consumes a queued one). */
  nextTimeline(): TimelineStep[];
  /** Agent behaviour of the next revision a create or PATCH makes (consumes a queued one). */
  nextRevisionAgent?(): RevisionAgent | undefined;
  agentUrl(deploymentId: string): string;
  /** Why the deletion of this deployment is refused, or undefined (see `refuseDeletion`). */
  deletionRefused(deploymentId: string): string | undefined;
  /** The storage of `internal_source` archives (`storage.ts`). */
  storage: {
    issue(deploymentId: string, now: number): { upload_url: string; object_path: string };
    uploadedFor(objectPath: string, deploymentId: string): boolean;
  };
  /** The registry of `internal_docker` images (`registry.ts`). */
  registry: { issue(tenantId: string, now: number): { token: string; registry_url: string } };
}

export interface CpRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Parsed JSON; `INVALID_JSON` when the body is not JSON; undefined when empty. */
  json: unknown;
  now: number;
}

export const INVALID_JSON = Symbol('invalid-json');

const notFound = (detail = 'Not Found'): SimResponse => ({ status: 404, body: { detail } });
const methodNotAllowed = (): SimResponse => ({
  status: 405,
  body: { detail: 'Method Not Allowed' },
});
const deploymentNotFound = (id: string) => notFound(`Deployment ID ${id} not found.`);
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export class ControlPlane {
  constructor(
    private readonly store: Store,
    private readonly config: ControlPlaneConfig,
  ) {}

  handle(req: CpRequest): SimResponse {
    this.store.startDeleteClocks(req.now);
    const parts = req.path.split('/').filter((p) => p !== '');
    if (parts[0] === 'v1' && parts[1] === 'projects') return this.v1Projects(parts, req);
    if (parts[0] === 'v1' && parts[1] === 'integrations') return this.integrations(parts, req);
    if (parts[0] !== 'v2' || parts[1] !== 'deployments') return notFound();
    const [, , id, sub, revId, tail, ...rest] = parts;
    if (rest.length > 0) return notFound();
    const m = req.method;
    if (id === undefined) {
      if (m === 'GET') return this.list(req);
      if (m === 'POST') return this.create(req);
      if (m === 'DELETE') return this.bulkDelete(req);
      return methodNotAllowed();
    }
    if (sub === undefined) {
      if (m === 'GET') return this.get(id, req.now);
      if (m === 'PATCH') return this.patch(id, req);
      if (m === 'DELETE') return this.delete(id, req);
      return methodNotAllowed();
    }
    if (sub === 'upload-url' && revId === undefined) {
      return m === 'POST' ? this.uploadUrl(id, req.now) : methodNotAllowed();
    }
    if (sub === 'push-token' && revId === undefined) {
      return m === 'POST' ? this.pushToken(id, req.now) : methodNotAllowed();
    }
    if (sub !== 'revisions') return notFound();
    if (revId !== undefined && tail === 'redeploy') {
      return m === 'POST' ? this.redeploy(id, revId, req.now) : methodNotAllowed();
    }
    // `/interrupt` is the API reference's path; `/interruption` the one of LangChain's CI/CD
    // example (`interruptionPath: false` plays an install with only the former).
    if ((tail === 'interrupt' || tail === 'interruption') && revId !== undefined) {
      if (tail === 'interruption' && !this.config.interruptionPath) return notFound();
      return m === 'POST' ? this.interrupt(id, revId, req.now) : methodNotAllowed();
    }
    if (revId === undefined && m === 'POST') {
      // `revisionsEndpoint: false` plays an older self-hosted install without the call.
      if (!this.config.revisionsEndpoint) return methodNotAllowed();
      return this.patch(id, req, true);
    }
    if (m !== 'GET') return methodNotAllowed();
    if (revId === undefined) return this.listRevisions(id, req);
    if (tail === undefined) return this.getRevision(id, revId, req.now);
    return notFound();
  }

  /**
   * `POST /v1/projects/{deployment_id}/revisions/{rev}/build_logs` and `…/deploy_logs`: the
   * endpoints the platform's `langgraph deploy` CLI reads logs from (the project ID is the
   * deployment ID). Body `{order, limit, offset?}`.
   */
  private v1Projects(parts: string[], req: CpRequest): SimResponse {
    const [, , id, sub, revId, tail, ...rest] = parts;
    if (
      id === undefined ||
      sub !== 'revisions' ||
      revId === undefined ||
      (tail !== 'build_logs' && tail !== 'deploy_logs') ||
      rest.length > 0
    ) {
      return notFound();
    }
    if (req.method !== 'POST') return methodNotAllowed();
    return this.logs(id, revId, tail === 'build_logs' ? 'build' : 'deploy', req);
  }

  /**
   * `GET /v1/integrations/github/install` (`[{id, installation_id, name}]`) and
   * `GET /v1/integrations/github/{id}/repos` (`[{host_integration_id, id, name, owner, url,
   * default_branch}]`), the shapes of the spec snapshot.
   */
  private integrations(parts: string[], req: CpRequest): SimResponse {
    const [, , provider, id, tail, ...rest] = parts;
    const all = this.config.githubIntegrations();
    if (provider !== 'github' || rest.length > 0) return notFound();
    if (req.method !== 'GET') return methodNotAllowed();
    if (id === 'install' && tail === undefined) {
      const body = all.map(({ id, name }, i) => ({ id, installation_id: 1000 + i, name }));
      return { status: 200, body };
    }
    const integration = all.find((i) => i.id === id);
    if (!integration || tail !== 'repos') return notFound();
    const body = integration.repos.map((full, i) => {
      const [owner, name] = full.split('/');
      const url = `https://github.com/${full}`;
      return { host_integration_id: id, id: i + 1, name, owner, url, default_branch: 'main' };
    });
    return { status: 200, body };
  }

  private list(req: CpRequest): SimResponse {
    const issues: Issue[] = [];
    const limit = intParam(req.query, 'limit', 20, 1, 100, issues);
    const offset = intParam(req.query, 'offset', 0, 0, undefined, issues);
    if (issues.length > 0) return validationError(issues);
    const contains = req.query.get('name_contains');
    const status = req.query.get('status');
    const matching = this.store
      .all(req.now)
      .filter((d) => !contains || d.name.includes(contains))
      .filter((d) => !status || this.store.deploymentStatus(d, req.now) === status);
    const resources = matching
      .slice(offset, offset + limit)
      .map((d) => this.store.toWire(d, req.now));
    return { status: 200, body: { resources, offset: offset + resources.length } };
  }

  private create(req: CpRequest): SimResponse {
    if (req.json === INVALID_JSON) return jsonInvalid();
    const checked = validateCreate(req.json);
    if ('error' in checked) return checked.error;
    const input = checked.input;
    const refused = this.config.refuseDeploymentTypes;
    const type = input.sourceConfig.deployment_type;
    if (refused && (TYPE_FAMILIES[refused] as readonly (string | null)[]).includes(type)) {
      const other = TYPE_FAMILIES[refused === 'previous' ? 'usage-based' : 'previous'];
      const msg = `Input should be ${other.map((t) => `'${t}'`).join(' or ')}`;
      return validationError([
        { loc: ['body', 'source_config', 'deployment_type'], msg, type: 'enum' },
      ]);
    }
    if (this.store.byName(input.name, req.now)) {
      return {
        status: 409,
        body: { detail: `Deployment with name '${input.name}' already exists.` },
      };
    }
    // A deployment deleted without `delete_tracing_project` left its tracing project behind.
    if (this.store.tracingProjects.has(input.name)) {
      return {
        status: 409,
        body: { detail: `There already exists a project in LangSmith named: ${input.name}` },
      };
    }
    const id = randomUUID();
    const sourceConfig = { ...input.sourceConfig };
    const cloudBuilt = input.source !== 'external_docker';
    const image = input.source === 'internal_docker';
    if (cloudBuilt) sourceConfig.deployment_type ??= 'dev';
    if (input.source === 'github' || input.source === 'internal_source') {
      sourceConfig.build_on_push ??= false;
    }
    const dep: DeploymentRecord = {
      id,
      name: input.name,
      source: input.source,
      sourceConfig,
      secrets: input.secrets,
      tenantId: this.config.tenantId,
      createdAt: req.now,
      updatedAt: req.now,
      status: 'READY',
      revisions: [],
      // LangSmith Cloud fills the top-level `url` of what it builds; `custom_url` stays null.
      ...(cloudBuilt ? { url: this.config.agentUrl(id) } : {}),
    };
    this.store.add(dep);
    // A remote build starts with the PATCH that names the uploaded archive; an image
    // deployment with the revision that names the pushed image.
    if (input.source !== 'internal_source' && !(image && !input.revisionConfig.image_uri)) {
      this.addRevision(dep, input.revisionConfig, req.now);
    }
    return { status: 201, body: this.store.toWire(dep, req.now) };
  }

  private uploadUrl(id: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    // The CLI asks one for a deployment it made from a local image too (a remote build then
    // takes it over with its PATCH).
    if (dep.source !== 'internal_source' && dep.source !== 'internal_docker') {
      return {
        status: 400,
        body: { detail: `Deployment ID ${id} has source '${dep.source}', not 'internal_source'.` },
      };
    }
    return { status: 200, body: this.config.storage.issue(id, now) };
  }

  /**
   * `POST /v2/deployments/{id}/push-token`: a short-lived token for the deployment's images in
   * the registry (user `oauth2accesstoken`), and the registry path they go under. Only for
   * `internal_docker` deployments, with the platform's words (as the CLI matches them).
   */
  private pushToken(id: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    if (dep.source !== 'internal_docker') {
      return {
        status: 400,
        body: {
          detail: "Push tokens are only available for 'internal_docker' source deployments.",
        },
      };
    }
    return { status: 200, body: this.config.registry.issue(dep.tenantId, now) };
  }

  private get(id: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    return { status: 200, body: this.store.toWire(dep, now) };
  }

  /**
   * PATCH /v2/deployments/{id}, or (`asRevision`) POST /v2/deployments/{id}/revisions: the
   * API reference's create-revision call, which always makes a revision and answers with it
   * (201), where the PATCH answers with the deployment.
   */
  private patch(id: string, req: CpRequest, asRevision = false): SimResponse {
    const dep = this.store.get(id, req.now);
    if (!dep) return deploymentNotFound(id);
    if (req.json === INVALID_JSON) return jsonInvalid();
    if (dep.deleteAt !== undefined || dep.status === 'AWAITING_DELETE') {
      return { status: 400, body: { detail: `Deployment ID ${id} is being deleted.` } };
    }
    const latest = dep.revisions.at(-1)?.config ?? emptyRevisionConfig();
    const checked = validatePatch(req.json, dep, latest, asRevision);
    if ('error' in checked) return checked.error;
    const { config, revision, secrets, newRevision, sourceChange } = checked.input;
    const tarball = revision.source_tarball_path;
    if (tarball != null && !this.config.storage.uploadedFor(tarball, id)) {
      return {
        status: 400,
        body: { detail: `source_tarball_path '${tarball}' was not uploaded for deployment ${id}.` },
      };
    }
    Object.assign(dep.sourceConfig, config);
    if (secrets) dep.secrets = secrets;
    if (sourceChange) dep.source = sourceChange;
    dep.updatedAt = req.now;
    const base = sourceChange ? emptyRevisionConfig() : latest;
    const rev = newRevision ? this.addRevision(dep, { ...base, ...revision }, req.now) : undefined;
    if (asRevision && rev) return { status: 201, body: this.store.revisionToWire(rev, req.now) };
    return { status: 200, body: this.store.toWire(dep, req.now) };
  }

  private delete(id: string, req: CpRequest): SimResponse {
    const flag = req.query.get('delete_tracing_project');
    if (flag !== null && !/^(true|false|1|0|yes|no|on|off)$/i.test(flag)) {
      return validationError([
        {
          loc: ['query', 'delete_tracing_project'],
          msg: 'Input should be a valid boolean, unable to interpret input',
          type: 'bool_parsing',
        },
      ]);
    }
    const dep = this.store.get(id, req.now);
    if (!dep) return deploymentNotFound(id);
    const refused = this.config.deletionRefused(id);
    if (refused !== undefined) return { status: 409, body: { detail: refused } };
    if (flag !== null && /^(true|1|yes|on)$/i.test(flag))
      this.store.tracingProjects.delete(dep.name);
    this.remove(dep, req.now);
    return { status: 204 };
  }

  private remove(dep: DeploymentRecord, now: number): void {
    if (this.config.deleteDelayMs > 0) dep.deleteAt ??= now + this.config.deleteDelayMs;
    else this.store.remove(dep.id);
  }

  /**
   * `DELETE /v2/deployments?deployment_ids=<id>&deployment_ids=<id>…` (a list query parameter:
   * repeated, at most 100 UUIDs). An unknown ID refuses the whole call with 404, as the
   * published example says; refused deletions give 207 with
   * `{"deleted": [ids], "failed": [{"deployment_id", "detail"}]}` (the API publishes no 207
   * schema: this is the simulator's own choice), else 200 with the same shape.
   */
  private bulkDelete(req: CpRequest): SimResponse {
    const ids = req.query.getAll('deployment_ids');
    const loc = ['query', 'deployment_ids'];
    if (ids.length === 0) return validationError([{ loc, msg: 'Field required', type: 'missing' }]);
    if (ids.length > 100) {
      return validationError([
        {
          loc,
          msg: `List should have at most 100 items after validation, not ${ids.length}`,
          type: 'too_long',
        },
      ]);
    }
    const bad = ids.findIndex((id) => !UUID.test(id));
    if (bad >= 0) {
      return validationError([
        {
          loc: [...loc, bad],
          msg: 'Input should be a valid UUID',
          type: 'uuid_parsing',
        },
      ]);
    }
    const deps = [];
    for (const id of ids) {
      const dep = this.store.get(id, req.now);
      if (!dep) return deploymentNotFound(id);
      deps.push(dep);
    }
    const deleted: string[] = [];
    const failed: { deployment_id: string; detail: string }[] = [];
    for (const dep of deps) {
      const refused = this.config.deletionRefused(dep.id);
      if (refused !== undefined) failed.push({ deployment_id: dep.id, detail: refused });
      else {
        this.remove(dep, req.now);
        deleted.push(dep.id);
      }
    }
    return { status: failed.length > 0 ? 207 : 200, body: { deleted, failed } };
  }

  private listRevisions(id: string, req: CpRequest): SimResponse {
    const issues: Issue[] = [];
    const limit = intParam(req.query, 'limit', 20, 1, 100, issues);
    const offset = intParam(req.query, 'offset', 0, 0, undefined, issues);
    if (issues.length > 0) return validationError(issues);
    const dep = this.store.get(id, req.now);
    if (!dep) return deploymentNotFound(id);
    const status = req.query.get('status')?.split(',').filter(Boolean);
    const resources = this.store
      .revisionsNewestFirst(dep)
      .map((r) => this.store.revisionToWire(r, req.now))
      .filter((r) => !status?.length || status.includes(r.status))
      .slice(offset, offset + limit);
    return { status: 200, body: { resources, offset: offset + resources.length } };
  }

  private getRevision(id: string, revId: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    const rev = dep.revisions.find((r) => r.id === revId);
    if (!rev) return notFound(`Revision ID ${revId} not found.`);
    return { status: 200, body: this.store.revisionToWire(rev, now) };
  }

  /**
   * `POST …/revisions/{rev}/redeploy`: a new revision replaying that one's source (same
   * revision config, commit included) through the normal timeline; it becomes
   * `active_revision_id` when it is DEPLOYED. Only a revision that reached DEPLOYED can be
   * served again (400 otherwise: the platform's rule is not published; this is the cautious one).
   */
  private redeploy(id: string, revId: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    if (dep.deleteAt !== undefined || dep.status === 'AWAITING_DELETE') {
      return { status: 400, body: { detail: `Deployment ID ${id} is being deleted.` } };
    }
    const old = dep.revisions.find((r) => r.id === revId);
    if (!old) return notFound(`Revision ID ${revId} not found.`);
    const status = this.store.revisionToWire(old, now).status;
    if (status !== 'DEPLOYED') {
      return {
        status: 400,
        body: {
          detail: `Revision ID ${revId} is ${status}; only a deployed revision can be redeployed.`,
        },
      };
    }
    const rev = this.store.addRevision(dep, old.config, this.config.nextTimeline(), now);
    rev.replayOf = old.id;
    if (old.agent) rev.agent = { ...old.agent };
    return { status: 200, body: this.store.toWire(dep, now) };
  }

  /** Not in the spec snapshot: the call LangChain's CI/CD example makes for a blocking revision. */
  private interrupt(id: string, revId: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    const rev = dep.revisions.find((r) => r.id === revId);
    if (!rev) return notFound(`Revision ID ${revId} not found.`);
    if (!this.store.interrupt(rev, now)) {
      return { status: 409, body: { detail: `Revision ID ${revId} is not in progress.` } };
    }
    return { status: 200, body: this.store.revisionToWire(rev, now) };
  }

  private logs(id: string, revId: string, type: 'build' | 'deploy', req: CpRequest): SimResponse {
    if (!this.config.logsEndpoint) return notFound();
    if (req.json === INVALID_JSON) return jsonInvalid();
    const body = (req.json ?? {}) as Record<string, unknown>;
    const issues: Issue[] = [];
    if (typeof body !== 'object' || Array.isArray(body)) {
      return validationError([
        { loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' },
      ]);
    }
    const order = body['order'] ?? 'desc';
    if (order !== 'asc' && order !== 'desc') {
      issues.push({ loc: ['body', 'order'], msg: "Input should be 'asc' or 'desc'", type: 'enum' });
    }
    const limit = body['limit'] ?? 100;
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) {
      issues.push({
        loc: ['body', 'limit'],
        msg: 'Input should be an integer from 1 to 1000',
        type: 'int_range',
      });
    }
    const rawOffset = body['offset'];
    let offset = 0;
    if (rawOffset !== undefined && rawOffset !== null) {
      if (typeof rawOffset !== 'string' || !/^\d+$/.test(rawOffset)) {
        issues.push({
          loc: ['body', 'offset'],
          msg: 'Input should be an offset from next_offset',
          type: 'string_type',
        });
      } else offset = Number(rawOffset);
    }
    if (issues.length > 0) return validationError(issues);
    const dep = this.store.get(id, req.now);
    if (!dep) return notFound(`Project ID ${id} not found.`);
    const rev = dep.revisions.find((r) => r.id === revId);
    if (!rev) return notFound(`Revision ID ${revId} not found.`);
    const history = this.store.history(rev, req.now);
    const entries = revisionLogs(dep, rev, history, type);
    return {
      status: 200,
      body: pageOfLogs(entries, order as 'asc' | 'desc', limit as number, offset),
    };
  }

  private addRevision(
    dep: DeploymentRecord,
    config: ReturnType<typeof emptyRevisionConfig>,
    now: number,
  ) {
    const sha = dep.source === 'github' ? this.config.commitSha : null;
    const rev = this.store.addRevision(
      dep,
      { ...config, repo_commit_sha: sha },
      this.config.nextTimeline(),
      now,
    );
    const agent = this.config.nextRevisionAgent?.();
    if (agent) rev.agent = { ...agent };
    return rev;
  }
}

function jsonInvalid(): SimResponse {
  return validationError([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }]);
}

function intParam(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number | undefined,
  issues: Issue[],
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const loc = ['query', name];
  if (!/^[+-]?\d+$/.test(raw.trim())) {
    issues.push({
      loc,
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      type: 'int_parsing',
    });
    return fallback;
  }
  const value = Number(raw);
  if (value < min) {
    issues.push({
      loc,
      msg: `Input should be greater than or equal to ${min}`,
      type: 'greater_than_equal',
    });
  } else if (max !== undefined && value > max) {
    issues.push({
      loc,
      msg: `Input should be less than or equal to ${max}`,
      type: 'less_than_equal',
    });
  }
  return value;
}
