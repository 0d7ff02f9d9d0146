/** Routes of the control plane (`/v2/deployments…`), answered from the in-memory store. */
import { randomUUID } from 'node:crypto';
import { pageOfLogs, revisionLogs } from './logs.js';
import { emptyRevisionConfig, type DeploymentRecord, type Store } from './state.js';
import type { SimResponse, TimelineStep } from './types.js';
import { validateCreate, validatePatch, validationError, type Issue } from './validation.js';

export interface ControlPlaneConfig {
  tenantId: string;
  deleteDelayMs: number;
  logsEndpoint: boolean;
  commitSha: string | null;
  /** The timeline of the next revision (consumes a queued one). */
  nextTimeline(): TimelineStep[];
  agentUrl(deploymentId: string): string;
  /** The storage of `internal_source` archives (`storage.ts`). */
  storage: {
    issue(deploymentId: string, now: number): { upload_url: string; object_path: string };
    uploadedFor(objectPath: string, deploymentId: string): boolean;
  };
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

export class ControlPlane {
  constructor(
    private readonly store: Store,
    private readonly config: ControlPlaneConfig,
  ) {}

  handle(req: CpRequest): SimResponse {
    const parts = req.path.split('/').filter((p) => p !== '');
    if (parts[0] !== 'v2' || parts[1] !== 'deployments') return notFound();
    const [, , id, sub, revId, tail, ...rest] = parts;
    if (rest.length > 0) return notFound();
    const m = req.method;
    if (id === undefined) {
      if (m === 'GET') return this.list(req);
      if (m === 'POST') return this.create(req);
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
    if (sub !== 'revisions') return notFound();
    if (m !== 'GET') return methodNotAllowed();
    if (revId === undefined) return this.listRevisions(id, req);
    if (tail === undefined) return this.getRevision(id, revId, req.now);
    if (tail === 'logs') return this.logs(id, revId, req);
    return notFound();
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
    if (this.store.byName(input.name, req.now)) {
      return {
        status: 409,
        body: { detail: `Deployment with name '${input.name}' already exists.` },
      };
    }
    const id = randomUUID();
    const sourceConfig = { ...input.sourceConfig };
    if (input.source === 'github' || input.source === 'internal_source') {
      sourceConfig.custom_url = this.config.agentUrl(id);
      sourceConfig.deployment_type ??= 'dev';
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
    };
    this.store.add(dep);
    // A remote build starts with the PATCH that names the uploaded archive.
    if (input.source !== 'internal_source') this.addRevision(dep, input.revisionConfig, req.now);
    return { status: 201, body: this.store.toWire(dep, req.now) };
  }

  private uploadUrl(id: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    if (dep.source !== 'internal_source') {
      return {
        status: 400,
        body: { detail: `Deployment ID ${id} has source '${dep.source}', not 'internal_source'.` },
      };
    }
    return { status: 200, body: this.config.storage.issue(id, now) };
  }

  private get(id: string, now: number): SimResponse {
    const dep = this.store.get(id, now);
    if (!dep) return deploymentNotFound(id);
    return { status: 200, body: this.store.toWire(dep, now) };
  }

  private patch(id: string, req: CpRequest): SimResponse {
    const dep = this.store.get(id, req.now);
    if (!dep) return deploymentNotFound(id);
    if (req.json === INVALID_JSON) return jsonInvalid();
    if (dep.deleteAt !== undefined || dep.status === 'AWAITING_DELETE') {
      return { status: 400, body: { detail: `Deployment ID ${id} is being deleted.` } };
    }
    const latest = dep.revisions.at(-1)?.config ?? emptyRevisionConfig();
    const checked = validatePatch(req.json, dep, latest);
    if ('error' in checked) return checked.error;
    const { config, revision, secrets, newRevision } = checked.input;
    const tarball = revision.source_tarball_path;
    if (tarball != null && !this.config.storage.uploadedFor(tarball, id)) {
      return {
        status: 400,
        body: { detail: `source_tarball_path '${tarball}' was not uploaded for deployment ${id}.` },
      };
    }
    Object.assign(dep.sourceConfig, config);
    if (secrets) dep.secrets = secrets;
    dep.updatedAt = req.now;
    if (newRevision) this.addRevision(dep, { ...latest, ...revision }, req.now);
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
    if (this.config.deleteDelayMs > 0) {
      dep.deleteAt ??= req.now + this.config.deleteDelayMs;
    } else {
      this.store.remove(id);
    }
    return { status: 204 };
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

  private logs(id: string, revId: string, req: CpRequest): SimResponse {
    if (!this.config.logsEndpoint) return notFound();
    const issues: Issue[] = [];
    const type = enumParam(req.query, 'type', ['build', 'deploy'], undefined, issues);
    const order = enumParam(req.query, 'order', ['asc', 'desc'], 'asc', issues);
    const limit = intParam(req.query, 'limit', 100, 1, 1000, issues);
    const offset = intParam(req.query, 'offset', 0, 0, undefined, issues);
    if (issues.length > 0) return validationError(issues);
    const dep = this.store.get(id, req.now);
    if (!dep) return deploymentNotFound(id);
    const rev = dep.revisions.find((r) => r.id === revId);
    if (!rev) return notFound(`Revision ID ${revId} not found.`);
    const history = this.store.history(rev, req.now);
    const entries = revisionLogs(dep, rev, history, type as 'build' | 'deploy');
    return { status: 200, body: pageOfLogs(entries, order as 'asc' | 'desc', limit, offset) };
  }

  private addRevision(
    dep: DeploymentRecord,
    config: ReturnType<typeof emptyRevisionConfig>,
    now: number,
  ) {
    const sha = dep.source === 'github' ? this.config.commitSha : null;
    return this.store.addRevision(
      dep,
      { ...config, repo_commit_sha: sha },
      this.config.nextTimeline(),
      now,
    );
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

function enumParam(
  query: URLSearchParams,
  name: string,
  allowed: string[],
  fallback: string | undefined,
  issues: Issue[],
): string {
  const raw = query.get(name);
  const loc = ['query', name];
  if (raw === null) {
    if (fallback === undefined) issues.push({ loc, msg: 'Field required', type: 'missing' });
    return fallback ?? '';
  }
  if (!allowed.includes(raw)) {
    issues.push({
      loc,
      msg: `Input should be ${allowed.map((a) => `'${a}'`).join(' or ')}`,
      type: 'enum',
    });
  }
  return raw;
}
