/**
 * An in-memory control plane whose create and update calls can be scripted (answers lost
 * after or before the platform applied them, rejections, a revision that shows up late, a
 * deployment being deleted), and the configs and context the deployment tests share.
 */
import type { ControlPlane } from '../../src/api/client.js';
import type {
  Deployment,
  DeploymentCreateRequest,
  DeploymentPatchRequest,
  DeploymentsList,
  Revision,
  RevisionCreateRequest,
  RevisionLogs,
  RevisionsList,
} from '../../src/api/schemas.js';
import type { DeployConfig } from '../../src/inputs/config.js';
import type { CreatableConfig, UpsertContext } from '../../src/deployment/upsert.js';
import { ApiError } from '../../src/lib/errors.js';
import { OutcomeUnknownError } from '../../src/api/http/request.js';
import { Deadline } from '../../src/lib/time.js';

import { FakeClock, recordingLogger } from '../helpers/fakes.js';

export const SECRET_VALUE = 'sk-very-secret-value-42';
/** Attempts of a create or update whose outcome stays unknown (MAX_UNKNOWN_OUTCOMES). */
export const MAX_ATTEMPTS = 3;
/** Re-reads of the deployment while `latest_revision_id` is missing or unchanged. */
export const MAX_REREADS = 5;

// ---------------------------------------------------------------------------------------------
// Config, logger, context

/** A test config as a create takes it: with its name (`checkCreatable` proves that in src/). */
export function named(config: DeployConfig): CreatableConfig {
  if (!config.name) throw new Error('This test config has no name.');
  return { ...config, name: config.name };
}

export function makeConfig(overrides: Partial<DeployConfig> = {}): DeployConfig {
  return {
    command: 'deploy',
    apiKey: 'lsv2_pt_test_key_0123456789abcdef',
    region: 'us',
    controlPlaneUrl: 'https://api.host.langchain.com',
    uiBaseUrl: 'https://smith.langchain.com',
    name: 'my-agent',
    wait: true,
    timeoutSeconds: 1800,
    pollIntervalSeconds: 15,
    source: 'github',
    integrationId: '8f9e0d1c-0000-4000-8000-00000000abcd',
    repoUrl: 'https://github.com/acme/agent',
    repoRef: 'main',
    configPath: 'langgraph.json',
    deploymentType: 'dev',
    buildLog: 'tail',
    buildOnPush: false,
    skipUnchanged: true,
    interruptPrevious: true,
    healthCheck: true,
    rollbackOnFailure: false,
    prComment: true,
    github: {
      eventName: 'push',
      ref: 'refs/heads/main',
      sha: 'deadbeef',
      repository: 'acme/agent',
      serverUrl: 'https://github.com',
      apiUrl: 'https://api.github.com',
      runId: '1',
      runAttempt: '1',
      workspace: '/tmp/ws',
    },
    ...overrides,
  };
}

export function dockerConfig(overrides: Partial<DeployConfig> = {}): DeployConfig {
  return makeConfig({
    source: 'external_docker',
    integrationId: undefined,
    repoUrl: undefined,
    repoRef: undefined,
    imageUri: 'ghcr.io/acme/agent:1.2.3',
    ...overrides,
  });
}

// ---------------------------------------------------------------------------------------------
// The fake control plane

/**
 * What one create or update call does:
 * - `ok`: applied, answered;
 * - `lost-after-apply`: applied, but the answer is lost (`OutcomeUnknownError`);
 * - `lost-before-apply`: never applied, and no answer (`OutcomeUnknownError`);
 * - `{ lateMs }`: no answer now, applied `lateMs` later (seen by the reads after that);
 * - a function: runs (it may change the plane, e.g. a concurrent run's create) and throws,
 *   or returns to go on as `ok`.
 */
export type Step =
  | 'ok'
  | 'lost-after-apply'
  | 'lost-before-apply'
  /** The answer is lost at once (a gateway's 504), and the platform applies it `lateMs` later. */
  | { lateMs: number }
  | ((plane: FakePlane) => void);

export type Call =
  | { method: 'find'; name: string; at: number }
  | { method: 'get'; id: string; at: number }
  | { method: 'create'; body: DeploymentCreateRequest; at: number }
  | { method: 'patch'; id: string; body: DeploymentPatchRequest; at: number }
  | { method: 'revision'; id: string; body: RevisionCreateRequest; at: number }
  | { method: 'integrations' | 'repos' | 'list'; id?: string; at: number };

export function unknownOutcome(method: string, path: string): OutcomeUnknownError {
  return new OutcomeUnknownError(method, `${method} ${path}`, 'ECONNRESET');
}

export function apiError(
  status: number,
  method: string,
  path: string,
  detail = 'rejected',
): ApiError {
  return new ApiError(`${method} ${path} answered ${status}: ${detail}`, { status });
}

export class FakePlane implements ControlPlane {
  readonly store = new Map<string, Deployment>();
  readonly calls: Call[] = [];
  createSteps: Step[] = [];
  patchSteps: Step[] = [];
  /**
   * After each write, this many answers about that deployment (the write's own answer, and
   * the reads after it) still show the `latest_revision_id` from before the write.
   */
  revisionLag = 0;
  /** Ids being deleted: answers AWAITING_DELETE to this many more GETs, then is gone (404). */
  readonly deletingReads = new Map<string, number>();
  private readonly lag = new Map<string, { left: number; shown: string | null }>();
  /** Each deployment's revisions, newest first (what `listRevisions` answers). */
  private readonly history = new Map<string, Revision[]>();
  /** Writes whose answer was lost, applied once the clock reaches `at` (`{ lateMs }` steps). */
  private late: { at: number; apply: () => void }[] = [];
  private revisions = 0;
  private ids = 0;

  constructor(protected readonly clock: FakeClock) {}

  /** The workspace's GitHub integrations, each with the repositories (`owner/name`) it may build. */
  integrations: { id: string; name: string; repos: string[] }[] = [];

  async listGithubIntegrations() {
    this.calls.push({ method: 'integrations', at: this.clock.now() });
    return this.integrations.map(({ id, name }, i) => ({ id, name, installation_id: i + 1 }));
  }

  async listGithubRepos(id: string) {
    this.calls.push({ method: 'repos', id, at: this.clock.now() });
    const integration = this.integrations.find((i) => i.id === id);
    if (!integration) throw apiError(404, 'GET', `/v1/integrations/github/${id}/repos`);
    return integration.repos.map((full, i) => {
      const [owner = '', name = ''] = full.split('/');
      return { host_integration_id: id, id: i + 1, owner, name, url: `https://github.com/${full}` };
    });
  }

  /** An older install until `offerRevisions`: it answers 405, unrecorded, and the upsert PATCHes. */
  createRevision = async (
    _id: string,
    _body: RevisionCreateRequest,
  ): Promise<Revision | 404 | 405> => 405;
  revisionSteps: Step[] = [];

  /**
   * `POST …/revisions` as the API reference describes it (`'ok'`: answers the new revision),
   * or an install that answers 404/405 there.
   */
  offerRevisions(mode: 'ok' | 404 | 405 = 'ok'): this {
    this.createRevision = async (id, body) => {
      this.calls.push({
        method: 'revision',
        id,
        body: structuredClone(body),
        at: this.clock.now(),
      });
      if (mode !== 'ok') return mode;
      const step = this.runStep(this.revisionSteps);
      const path = `/v2/deployments/${id}/revisions`;
      const found = this.store.get(id);
      const apply = () => {
        Object.assign(found!.source_revision_config, body.source_revision_config);
        if (body.secrets) found!.secrets = body.secrets;
        this.newRevision(found!);
      };
      if (typeof step === 'object') this.late.push({ at: this.clock.now() + step.lateMs, apply });
      if (step === 'lost-before-apply' || typeof step === 'object') {
        throw unknownOutcome('POST', path);
      }
      if (!found) throw apiError(404, 'POST', path, 'Deployment not found');
      apply();
      if (step === 'lost-after-apply') throw unknownOutcome('POST', path);
      const at = new Date(this.clock.now()).toISOString();
      return {
        id: found.latest_revision_id!,
        created_at: at,
        updated_at: at,
        status: 'QUEUED',
        source: found.source,
        source_revision_config: { ...found.source_revision_config },
      };
    };
    return this;
  }

  /** Puts a deployment in the store (as if created earlier). */
  add(partial: Partial<Deployment> & { name: string }): Deployment {
    const id = partial.id ?? `dep-${++this.ids}`;
    const deployment: Deployment = {
      id,
      source: 'github',
      source_config: { repo_url: 'https://github.com/acme/agent', integration_id: 'i-1' },
      source_revision_config: { repo_ref: 'main', langgraph_config_path: 'langgraph.json' },
      secrets: [],
      tenant_id: 'tenant-1',
      created_at: new Date(this.clock.now()).toISOString(),
      updated_at: new Date(this.clock.now()).toISOString(),
      status: 'READY',
      latest_revision_id: `rev-old-${id}`,
      ...partial,
    };
    this.store.set(id, deployment);
    if (deployment.latest_revision_id) this.record(deployment, deployment.latest_revision_id);
    return structuredClone(deployment);
  }

  count(method: Call['method']): number {
    return this.calls.filter((c) => c.method === method).length;
  }

  creates(): DeploymentCreateRequest[] {
    return this.calls.flatMap((c) => (c.method === 'create' ? [c.body] : []));
  }

  patches(): { id: string; body: DeploymentPatchRequest }[] {
    return this.calls.flatMap((c) => (c.method === 'patch' ? [{ id: c.id, body: c.body }] : []));
  }

  byName(name: string): Deployment[] {
    return [...this.store.values()].filter((d) => d.name === name);
  }

  /** A copy of the deployment as the platform answers it now (with the revision lag). */
  private view(d: Deployment): Deployment {
    const copy = structuredClone(d);
    const lag = this.lag.get(d.id);
    if (lag && lag.left > 0) {
      lag.left--;
      copy.latest_revision_id = lag.shown;
    }
    return copy;
  }

  private newRevision(d: Deployment): void {
    this.lag.set(d.id, { left: this.revisionLag, shown: d.latest_revision_id });
    d.latest_revision_id = `rev-${++this.revisions}`;
    this.record(d, d.latest_revision_id);
  }

  private record(d: Deployment, id: string): void {
    const at = new Date(this.clock.now()).toISOString();
    const revision = { id, created_at: at, updated_at: at, status: 'QUEUED', source: d.source };
    const listed = { ...revision, source_revision_config: { ...d.source_revision_config } };
    this.history.set(d.id, [listed, ...(this.history.get(d.id) ?? [])]);
  }

  /** Applies the late writes whose time has come (before every read). */
  private settle(): void {
    const due = this.late.filter((l) => l.at <= this.clock.now());
    this.late = this.late.filter((l) => l.at > this.clock.now());
    for (const write of due) write.apply();
  }

  private runStep(steps: Step[]): Step {
    const step = steps.shift() ?? 'ok';
    if (typeof step === 'function') {
      step(this);
      return 'ok';
    }
    return step;
  }

  /** Another client's revision of deployment `id`, made now (e.g. in the UI). */
  foreignRevision(id: string, config: Deployment['source_revision_config']): void {
    const found = this.store.get(id)!;
    found.source_revision_config = { ...config };
    this.newRevision(found);
  }

  async findDeploymentByName(name: string): Promise<Deployment | undefined> {
    this.calls.push({ method: 'find', name, at: this.clock.now() });
    const found = [...this.store.values()].find((d) => d.name === name);
    return found && this.view(found);
  }

  async getDeployment(id: string): Promise<Deployment> {
    this.settle();
    this.calls.push({ method: 'get', id, at: this.clock.now() });
    const found = this.store.get(id);
    const path = `/v2/deployments/${id}`;
    if (!found) throw apiError(404, 'GET', path, 'Deployment not found');
    const left = this.deletingReads.get(id);
    if (left !== undefined) {
      if (left <= 0) {
        this.store.delete(id);
        throw apiError(404, 'GET', path, 'Deployment not found');
      }
      this.deletingReads.set(id, left - 1);
    }
    return this.view(found);
  }

  async createDeployment(body: DeploymentCreateRequest): Promise<Deployment> {
    this.calls.push({ method: 'create', body: structuredClone(body), at: this.clock.now() });
    const step = this.runStep(this.createSteps);
    if (step === 'lost-before-apply') throw unknownOutcome('POST', '/v2/deployments');
    const id = `dep-${++this.ids}`;
    const deployment: Deployment = {
      id,
      name: body.name,
      source: body.source,
      source_config: { ...body.source_config },
      source_revision_config: { ...body.source_revision_config },
      secrets: body.secrets,
      tenant_id: 'tenant-1',
      created_at: new Date(this.clock.now()).toISOString(),
      updated_at: new Date(this.clock.now()).toISOString(),
      status: 'AWAITING_DATABASE',
      latest_revision_id: null,
    };
    this.store.set(id, deployment);
    this.newRevision(deployment);
    if (step === 'lost-after-apply') throw unknownOutcome('POST', '/v2/deployments');
    return this.view(deployment);
  }

  async patchDeployment(id: string, body: DeploymentPatchRequest): Promise<Deployment> {
    this.calls.push({ method: 'patch', id, body: structuredClone(body), at: this.clock.now() });
    const step = this.runStep(this.patchSteps);
    const path = `/v2/deployments/${id}`;
    const found = this.store.get(id);
    const apply = () => {
      Object.assign(found!.source_revision_config, body.source_revision_config ?? {});
      if (body.secrets) found!.secrets = body.secrets;
      this.newRevision(found!);
    };
    if (typeof step === 'object') this.late.push({ at: this.clock.now() + step.lateMs, apply });
    if (step === 'lost-before-apply' || typeof step === 'object') {
      throw unknownOutcome('PATCH', path);
    }
    if (!found) throw apiError(404, 'PATCH', path, 'Deployment not found');
    apply();
    if (step === 'lost-after-apply') throw unknownOutcome('PATCH', path);
    return this.view(found);
  }

  listDeployments(): Promise<DeploymentsList> {
    throw new Error('listDeployments is not used by the upsert');
  }
  deleteDeployment(
    _id: string,
    _options: { deleteTracingProject: boolean },
  ): Promise<'deleted' | 'not_found'> {
    throw new Error('deleteDeployment is not used by the upsert');
  }
  /** Newest first, as the platform lists them; a lost answer is looked up this way. */
  async listRevisions(id: string, query: { limit?: number }): Promise<RevisionsList> {
    this.settle();
    this.calls.push({ method: 'list', id, at: this.clock.now() });
    const resources = (this.history.get(id) ?? []).slice(0, query.limit ?? 20);
    return { resources: structuredClone(resources), offset: resources.length };
  }
  getRevision(_id: string, _revisionId: string): Promise<Revision> {
    throw new Error('getRevision is not used by the upsert');
  }
  requestPushToken(_id: string): never {
    throw new Error('requestPushToken is not used by the upsert');
  }
  requestUploadUrl(_id: string): never {
    throw new Error('requestUploadUrl is not used by the upsert');
  }
  interruptRevision(_id: string, _revisionId: string): never {
    throw new Error('interruptRevision is not used by the upsert');
  }
  getRevisionLogs(): Promise<RevisionLogs | undefined> {
    throw new Error('getRevisionLogs is not used by the upsert');
  }
}

export function setup(config: DeployConfig = makeConfig()) {
  const clock = new FakeClock();
  const plane = new FakePlane(clock);
  const logger = recordingLogger();
  const deadline = new Deadline(clock, clock.now() + config.timeoutSeconds * 1000);
  const ctx: UpsertContext = { client: plane, config, logger, clock, deadline };
  return { clock, plane, logger, deadline, ctx, config };
}

/** JSON as it goes on the wire (fields set to `undefined` are not sent). */
export function wire(body: unknown): unknown {
  return JSON.parse(JSON.stringify(body));
}

export async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

// ---------------------------------------------------------------------------------------------
