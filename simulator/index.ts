/**
 * A local stand-in for the LangSmith Deployment control plane and for each deployment's agent
 * server, over node:http. Used by integration and end-to-end tests, the demo and the benchmark.
 *
 * Request pipeline: request log → injected fault → API key (401) → tenant (403, control plane
 * only) → rate limit (429) → route.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AgentServers, type FeedbackRecord } from './agent-server.js';
import { traceAgentRun } from './agent-runs.js';
import { ControlPlane, INVALID_JSON } from './control-plane.js';
import { FaultQueue, RateLimiter } from './faults.js';
import { GithubPulls } from './github.js';
import { Registry } from './registry.js';
import { LangSmithApi, LANGSMITH_PREFIX, parseMultipart } from './langsmith.js';
import { langSmithControls, type LangSmithControls } from './langsmith-controls.js';
import { BodyTooLarge, readBody, send } from './http.js';
import { emptyRevisionConfig, emptySourceConfig, Store, type DeploymentRecord } from './state.js';
import { Storage } from './storage.js';
import { DEFAULT_TIMELINE, validateTimeline, type RevisionRecord } from './timeline.js';
import type {
  AgentBehaviour,
  Deployment,
  Fault,
  RequestLogEntry,
  Revision,
  RevisionAgent,
  SeedDeployment,
  SimGithubIntegration,
  SimResponse,
  SimulatorOptions,
  TimelineStep,
} from './types.js';

export type { FeedbackRecord } from './agent-server.js';
export type { SimEvaluator, SimScorer } from './evaluator.js';
export type { LangSmithOptions, LangSmithSettings } from './langsmith.js';
export type {
  LangSmithControls,
  SeedDataset,
  SeedExample,
  SeedExperiment,
  SeedScores,
} from './langsmith-controls.js';
export type {
  AgentBehaviour,
  Deployment,
  Fault,
  RequestLogEntry,
  Revision,
  RevisionAgent,
  SeedDeployment,
  SimGithubIntegration,
  SimulatorOptions,
  TimelineStep,
} from './types.js';
export { DEFAULT_TIMELINE, parseTimeline, scaleTimeline } from './timeline.js';
export { MEDIA, Registry, type Platform, type PushedImage } from './registry.js';
export {
  GithubPulls,
  type SimChangedFile,
  type SimCommit,
  type SimPullRequestInput,
} from './github.js';

export const DEFAULT_API_KEY = 'sim-key';
export const DEFAULT_TENANT_ID = '00000000-0000-4000-8000-00000000a11c';
const SEED_INTEGRATION_ID = '00000000-0000-4000-8000-0000000017e6';

export interface Simulator {
  /** Control-plane base URL (also served under `${url}/api-host`). */
  readonly url: string;
  /** The first accepted key. */
  readonly apiKey: string;
  /** Every request in arrival order. */
  readonly requests: RequestLogEntry[];
  /** Default timeline of revisions created from now on. */
  setTimeline(steps: TimelineStep[]): void;
  /** Timeline of the next revision created only (FIFO). */
  queueTimeline(steps: TimelineStep[]): void;
  inject(fault: Fault): void;
  clearFaults(): void;
  /** Puts a deployment in directly (no request logged). */
  seedDeployment(input: SeedDeployment): Deployment;
  deployments(): Deployment[];
  /** Newest first. */
  revisions(deploymentId: string): Revision[];
  /** Mutable behaviour of the deployment's agent server. */
  agent(deploymentId: string): AgentBehaviour;
  /**
   * Behaviour of agent servers not configured yet, e.g. deployments an end-to-end run is about
   * to create (`reset()` restores `options.agent`).
   */
  setAgentDefaults(defaults: Partial<AgentBehaviour>): void;
  agentUrl(deploymentId: string): string;
  /**
   * Mutable agent behaviour of one revision while it is the live one (over the deployment's
   * `agent()`); a redeploy of it inherits it. E.g. `revisionAgent(id, rev).healthy = false`.
   */
  revisionAgent(deploymentId: string, revisionId: string): RevisionAgent;
  /** Agent behaviour of the next revision a create or PATCH makes (FIFO; not redeploys). */
  queueRevisionAgent(agent: RevisionAgent): void;
  /**
   * GitHub pull requests served at `${url}/github/repos/{owner}/{repo}/pulls/{n}` (use
   * `${url}/github` as `GITHUB_API_URL`), for `command: prune`.
   */
  readonly github: GithubPulls;
  /**
   * The `repo_commit_sha` the next github revisions report (`commitSha` of the options until
   * set): a push moves it, as the platform builds the branch's new head.
   */
  setCommitSha(sha: string | null): void;
  /** The workspace's GitHub integrations and the repositories each may build (default: none). */
  setGithubIntegrations(integrations: SimGithubIntegration[]): void;
  /** Refuses to delete this deployment (409 alone; a failed entry in a bulk delete's 207). */
  refuseDeletion(deploymentId: string, detail?: string): void;
  /** Every POST to a pre-signed feedback URL handed out in a run's `feedback` event. */
  feedback(): FeedbackRecord[];
  /** Agent runs (streamed, and `POST /runs/wait`): how many started, in flight now, most at once. */
  agentRuns(): { started: number; inFlight: number; maxInFlight: number };
  /**
   * The object storage of `source: upload` (its own loopback server): uploaded objects, its
   * request log, `expireAll()`. Its faults come from `inject` with path `/storage/<object>`.
   */
  readonly storage: Storage;
  /**
   * The image registry of `internal_docker` deployments (its own loopback server): the push
   * tokens of `POST /v2/deployments/{id}/push-token` log in to it; `pushImage` puts images in.
   */
  readonly registry: Registry;
  /**
   * The LangSmith API at `${url}/api/v1` (datasets, examples, sessions, runs, feedback): seed
   * datasets and baselines, bind evaluators, refuse the key, read what was stored.
   */
  readonly langsmith: LangSmithControls;
  /** Drops state, request log, faults and queued timelines. */
  reset(): void;
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const sim = new SimulatorServer(options);
  await sim.listen(options.host ?? '127.0.0.1', options.port ?? 0);
  await sim.storage.listen(options.host ?? '127.0.0.1');
  await sim.registry.listen(options.host ?? '127.0.0.1');
  return sim;
}

class SimulatorServer implements Simulator {
  readonly requests: RequestLogEntry[] = [];
  readonly github = new GithubPulls();
  private readonly commit: { sha: string | null };
  private readonly refusedDeletions = new Map<string, string>();
  private readonly apiKeys: string[];
  private readonly initialTimeline: TimelineStep[];
  private timeline: TimelineStep[];
  private queued: TimelineStep[][] = [];
  private queuedAgents: RevisionAgent[] = [];
  private integrations: SimGithubIntegration[] = [];
  /** Requests a `status-then-commit` fault applies later. */
  private readonly late = new Set<NodeJS.Timeout>();
  private readonly faults = new FaultQueue();
  private readonly limiter: RateLimiter;
  private readonly store: Store;
  private readonly controlPlane: ControlPlane;
  private readonly agents: AgentServers;
  private readonly server: Server;
  private baseUrl = '';
  private runs = { started: 0, inFlight: 0, maxInFlight: 0 };
  readonly storage: Storage;
  readonly registry = new Registry();
  private readonly langsmithApi: LangSmithApi;
  readonly langsmith: LangSmithControls;

  constructor(private readonly options: SimulatorOptions) {
    this.apiKeys = options.apiKeys ?? [DEFAULT_API_KEY];
    if (this.apiKeys.length === 0 || this.apiKeys.some((k) => k === '')) {
      throw new Error('apiKeys needs at least one non-empty key.');
    }
    this.initialTimeline = validateTimeline(options.timeline ?? [...DEFAULT_TIMELINE]);
    this.timeline = this.initialTimeline;
    this.limiter = new RateLimiter(options.rateLimit ?? { requests: 1000, windowMs: 10_000 });
    this.agents = new AgentServers(options.agent);
    this.store = new Store(
      () => options.supersede ?? true,
      () => options.queueBehind ?? false,
    );
    this.storage = new Storage(
      () => options.uploadUrlTtlMs ?? 15 * 60_000,
      (method, path) => this.faults.take(method, path),
    );
    const commit = (this.commit = { sha: options.commitSha ?? null });
    this.controlPlane = new ControlPlane(this.store, {
      tenantId: this.tenantId,
      deleteDelayMs: options.deleteDelayMs ?? 0,
      logsEndpoint: options.logsEndpoint ?? true,
      get commitSha() {
        return commit.sha;
      },
      revisionsEndpoint: options.revisionsEndpoint ?? true,
      refuseDeploymentTypes: options.refuseDeploymentTypes,
      interruptionPath: options.interruptionPath ?? true,
      nextTimeline: () => this.queued.shift() ?? this.timeline,
      nextRevisionAgent: () => this.queuedAgents.shift(),
      agentUrl: (id) => this.agentUrl(id),
      deletionRefused: (id) => this.refusedDeletions.get(id),
      githubIntegrations: () => this.integrations,
      storage: this.storage,
      registry: this.registry,
    });
    this.langsmithApi = new LangSmithApi(options.langsmith ?? {}, () => this.tenantId);
    this.langsmith = langSmithControls(
      this.langsmithApi,
      () => this.tenantId,
      () => this.requests,
    );
    this.server = createServer((req, res) => void this.onRequest(req, res));
  }

  get url(): string {
    return this.baseUrl;
  }

  get apiKey(): string {
    return this.apiKeys[0]!;
  }

  private get tenantId(): string {
    return this.options.tenantId ?? DEFAULT_TENANT_ID;
  }

  async listen(host: string, port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    const address = this.server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    this.baseUrl = `http://${shown}:${address.port}`;
  }

  setTimeline(steps: TimelineStep[]): void {
    this.timeline = validateTimeline(steps);
  }

  queueTimeline(steps: TimelineStep[]): void {
    this.queued.push(validateTimeline(steps));
  }

  inject(fault: Fault): void {
    this.faults.inject(fault);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  agent(deploymentId: string): AgentBehaviour {
    return this.agents.behaviour(deploymentId);
  }

  setAgentDefaults(defaults: Partial<AgentBehaviour>): void {
    this.agents.setDefaults(defaults);
  }

  revisionAgent(deploymentId: string, revisionId: string): RevisionAgent {
    const dep = this.store.get(deploymentId, Date.now());
    const rev = dep?.revisions.find((r) => r.id === revisionId);
    if (!rev) throw new Error(`The simulator has no revision ${revisionId} of ${deploymentId}.`);
    return (rev.agent ??= {});
  }

  queueRevisionAgent(agent: RevisionAgent): void {
    this.queuedAgents.push({ ...agent });
  }

  feedback(): FeedbackRecord[] {
    return [...this.agents.feedback];
  }

  agentRuns(): { started: number; inFlight: number; maxInFlight: number } {
    return { ...this.runs };
  }

  agentUrl(deploymentId: string): string {
    return `${this.baseUrl}/agents/${deploymentId}`;
  }

  setCommitSha(sha: string | null): void {
    this.commit.sha = sha;
  }

  setGithubIntegrations(integrations: SimGithubIntegration[]): void {
    this.integrations = structuredClone(integrations);
  }

  refuseDeletion(deploymentId: string, detail?: string): void {
    this.refusedDeletions.set(
      deploymentId,
      detail ?? `Deployment ID ${deploymentId} cannot be deleted right now (simulated refusal).`,
    );
  }

  deployments(): Deployment[] {
    const now = Date.now();
    return this.store.all(now).map((d) => this.store.toWire(d, now));
  }

  revisions(deploymentId: string): Revision[] {
    const now = Date.now();
    const dep = this.store.get(deploymentId, now);
    if (!dep) throw new Error(`The simulator has no deployment ${deploymentId}.`);
    return this.store.revisionsNewestFirst(dep).map((r) => this.store.revisionToWire(r, now));
  }

  seedDeployment(input: SeedDeployment): Deployment {
    const now = Date.now();
    if (this.store.byName(input.name, now)) {
      throw new Error(`A deployment named ${input.name} already exists in the simulator.`);
    }
    const id = input.id ?? randomUUID();
    if (this.store.get(id, now)) throw new Error(`A deployment with ID ${id} already exists.`);
    const source = input.source ?? 'github';
    const github = source === 'github';
    // Built by LangSmith Cloud (it fills the top-level `url`): github and the CLI's sources.
    const cloudBuilt = source !== 'external_docker';
    const seeds = input.revisions ?? [{ status: 'DEPLOYED' }];
    const revisions: RevisionRecord[] = seeds.map((seed, i) => {
      const createdAt = seed.createdAt
        ? Date.parse(seed.createdAt)
        : now - (seeds.length - i) * 60_000;
      const updatedAt = seed.updatedAt ? Date.parse(seed.updatedAt) : createdAt;
      if (Number.isNaN(createdAt) || Number.isNaN(updatedAt)) {
        throw new Error(`Seeded revision ${i} of ${input.name} has a date that is not ISO 8601.`);
      }
      return {
        id: randomUUID(),
        source,
        createdAt,
        startAt: updatedAt,
        steps: [{ status: seed.status, durationMs: 0 }],
        config: {
          ...emptyRevisionConfig(),
          ...(github
            ? {
                repo_ref: 'main',
                langgraph_config_path: 'langgraph.json',
                repo_commit_sha: this.commit.sha,
              }
            : { image_uri: 'registry.example.com/agent:seed' }),
        },
      };
    });
    const dep: DeploymentRecord = {
      id,
      name: input.name,
      source,
      sourceConfig: {
        ...emptySourceConfig(),
        ...(github
          ? {
              integration_id: SEED_INTEGRATION_ID,
              repo_url: input.repoUrl ?? 'https://github.com/example/agent',
              deployment_type: 'dev',
              build_on_push: false,
            }
          : cloudBuilt
            ? { deployment_type: 'dev' }
            : {}),
        custom_url: input.customUrl ?? null,
      },
      ...(cloudBuilt && input.customUrl === undefined ? { url: this.agentUrl(id) } : {}),
      secrets: (input.secrets ?? []).map((s) => ({ ...s })),
      tenantId: this.tenantId,
      createdAt: revisions[0]?.createdAt ?? now,
      updatedAt: revisions.at(-1)?.startAt ?? now,
      status: input.status ?? 'READY',
      revisions,
    };
    const delay = this.options.deleteDelayMs ?? 0;
    if (dep.status === 'AWAITING_DELETE' && delay > 0) dep.deleteDelayFromFirstRequest = delay;
    this.store.add(dep);
    // Seeded as being deleted: taken as deleted with its tracing project (the name is free after).
    if (dep.status === 'AWAITING_DELETE') this.store.tracingProjects.delete(dep.name);
    return this.store.toWire(dep, now);
  }

  reset(): void {
    for (const timer of this.late) clearTimeout(timer);
    this.late.clear();
    this.requests.length = 0;
    this.store.clear();
    this.faults.clear();
    this.limiter.clear();
    this.agents.clear();
    this.github.clear();
    this.refusedDeletions.clear();
    this.runs = { started: 0, inFlight: 0, maxInFlight: 0 };
    this.storage.clear();
    this.registry.clear();
    this.langsmithApi.reset();
    this.queued = [];
    this.queuedAgents = [];
    this.integrations = [];
    this.timeline = this.initialTimeline;
  }

  async close(): Promise<void> {
    for (const timer of this.late) clearTimeout(timer);
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await Promise.all([closed, this.storage.close(), this.registry.close()]);
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const at = Date.now();
    const url = new URL(req.url ?? '/', 'http://simulator.invalid');
    let path = url.pathname;
    if (path === '/api-host' || path.startsWith('/api-host/')) {
      path = path.slice('/api-host'.length) || '/';
    }
    const method = (req.method ?? 'GET').toUpperCase();
    const tenant = header(req, 'x-tenant-id');
    const entry: RequestLogEntry = {
      method,
      path,
      query: Object.fromEntries(url.searchParams),
      status: 0,
      hasApiKey: header(req, 'x-api-key') !== undefined,
      at,
      ...(tenant !== undefined ? { tenant } : {}),
    };
    this.requests.push(entry);

    let raw: string;
    try {
      raw = await readBody(req);
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) {
        entry.status = 'reset'; // the client went away mid-body
        return;
      }
      entry.status = 413;
      await send(res, { status: 413, body: { detail: error.message } });
      return;
    }
    if (raw !== '') entry.body = parseOr(raw, raw);

    const form = path.startsWith(`${LANGSMITH_PREFIX}/`)
      ? await parseMultipart(header(req, 'content-type'), raw)
      : undefined;
    const reply = async (response: SimResponse) => {
      entry.status = response.status;
      if (!response.sse && !response.agentRun) return send(res, response);
      const runs = this.runs;
      runs.started++;
      runs.inFlight++;
      runs.maxInFlight = Math.max(runs.maxInFlight, runs.inFlight);
      try {
        await send(res, response);
      } finally {
        runs.inFlight--;
      }
    };
    const destroy = () => {
      entry.status = 'reset';
      req.socket.destroy();
    };
    const processIt = () => this.process(req, method, path, url.searchParams, raw, form);

    const fault = this.faults.take(method, path);
    switch (fault?.kind) {
      case undefined:
        return reply(processIt());
      case 'status':
        return reply({
          status: fault.status,
          headers: fault.headers,
          body: fault.body ?? { detail: `Simulated fault: HTTP ${fault.status}.` },
        });
      case 'reset':
        return destroy();
      case 'malformed-json':
        return reply({ status: 200, raw: '{"resources": [{"id": <html>Bad Gateway</html>' });
      case 'delay':
        await sleep(fault.ms);
        if (res.destroyed || req.socket.destroyed) {
          processIt();
          entry.status = 'reset';
          return;
        }
        return reply(processIt());
      case 'commit-then-reset':
        processIt();
        return destroy();
      case 'rewrite':
        return reply(fault.rewrite(processIt()));
      case 'hang':
        await new Promise<void>((resolve) => res.once('close', () => resolve()));
        entry.status = 'reset';
        return;
      case 'status-then-commit': {
        const timer = setTimeout(() => {
          this.late.delete(timer);
          processIt();
        }, fault.afterMs);
        this.late.add(timer);
        return reply({
          status: fault.status,
          body: { detail: `Simulated fault: HTTP ${fault.status}, applied later.` },
        });
      }
      case 'commit-then-status':
        processIt();
        return reply({
          status: fault.status,
          body: { detail: `Simulated fault after processing: HTTP ${fault.status}.` },
        });
    }
  }

  private process(
    req: IncomingMessage,
    method: string,
    path: string,
    query: URLSearchParams,
    raw: string,
    form?: [string, string][] | 'invalid',
  ): SimResponse {
    const now = Date.now();
    if (path === '/github' || path.startsWith('/github/')) {
      // GitHub's auth is the Authorization header, not the LangSmith key.
      if (header(req, 'authorization') === undefined) {
        return { status: 401, body: { message: 'Requires authentication' } };
      }
      return (
        this.github.handle(method, path.slice('/github'.length)) ?? {
          status: 404,
          body: { message: 'Not Found' },
        }
      );
    }
    const key = header(req, 'x-api-key');
    // Pre-signed feedback URLs are their own authorisation: no key (one sent is refused).
    const feedback = /^\/api\/v1\/feedback\/tokens\/([^/]+)$/.exec(path);
    if (feedback) {
      const parsed = raw === '' ? undefined : parseOr(raw, INVALID_JSON);
      return this.agents.receiveFeedback({
        token: feedback[1]!,
        method,
        hadApiKey: key !== undefined || header(req, 'authorization') !== undefined,
        json: parsed === INVALID_JSON ? undefined : parsed,
      });
    }
    if (key === undefined || !this.apiKeys.includes(key)) {
      return { status: 401, body: { detail: 'Invalid API key' } };
    }
    const agent = /^\/agents\/([^/]+)(\/.*)?$/.exec(path);
    const langsmith = path.startsWith(`${LANGSMITH_PREFIX}/`);
    if (
      !agent &&
      !langsmith &&
      this.options.requireTenant &&
      header(req, 'x-tenant-id') === undefined
    ) {
      return {
        status: 403,
        body: {
          detail: 'This API key requires workspace specification: set the X-Tenant-Id header.',
        },
      };
    }
    const wait = this.limiter.check(key, now);
    if (wait !== undefined) {
      return {
        status: 429,
        headers: { 'retry-after': String(wait) },
        body: { detail: `Rate limit exceeded: retry in ${wait} s.` },
      };
    }
    const json = raw === '' ? undefined : parseOr(raw, INVALID_JSON);
    if (langsmith) {
      if (json === INVALID_JSON && form === undefined) {
        return { status: 422, body: { detail: 'The request body is not JSON.' } };
      }
      const lsPath = path.slice(LANGSMITH_PREFIX.length);
      return this.langsmithApi.handle({
        method,
        path: lsPath,
        query,
        json,
        ...(form ? { form } : {}),
      });
    }
    if (!agent) return this.controlPlane.handle({ method, path, query, json, now });

    const deploymentId = agent[1]!;
    const dep = this.store.get(deploymentId, now);
    if (!dep || this.store.deploymentStatus(dep, now) === 'AWAITING_DELETE') {
      return { status: 404, body: { detail: 'Not Found' } };
    }
    const active = this.store.activeRevision(dep, now);
    if (!active) {
      return {
        status: 503,
        body: { detail: `Deployment ${deploymentId} has no deployed revision yet.` },
      };
    }
    return this.agents.handle({
      deploymentId,
      feedbackBase: this.baseUrl,
      path: agent[2] ?? '/',
      method,
      json: json === INVALID_JSON ? undefined : json,
      now,
      createdAt: dep.createdAt,
      ...(active.agent ? { revision: active.agent } : {}),
      trace: (t) => traceAgentRun(this.langsmithApi.store, t),
    });
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === '' ? undefined : first;
}

function parseOr<T>(raw: string, fallback: T): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return fallback;
  }
}
