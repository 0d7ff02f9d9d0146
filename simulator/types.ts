/**
 * Public types of the simulator: its options, the fault kinds, the request log, and the wire
 * shapes of the control-plane resources it serves (written from the published API description).
 */

import type { LangSmithOptions } from './langsmith.js';

export interface TimelineStep {
  status: string;
  /** How long the status lasts. Ignored for the last step (it never ends). */
  durationMs: number;
  /** The revision's `status_message` during this step (default: one for failures only). */
  statusMessage?: string;
}

export interface SimulatorOptions {
  /** Accepted `X-Api-Key` values; default `['sim-key']`. */
  apiKeys?: string[];
  /** When true, control-plane requests without `X-Tenant-Id` get 403. */
  requireTenant?: boolean;
  /** `tenant_id` of the deployments (a fixed uuid by default). */
  tenantId?: string;
  /** Per API key; default 1000 requests per 10 000 ms. */
  rateLimit?: { requests: number; windowMs: number };
  /** Default timeline of new revisions. */
  timeline?: TimelineStep[];
  /** How long a deleted deployment stays `AWAITING_DELETE` (default 0: gone at once). */
  deleteDelayMs?: number;
  /**
   * Default true; false → `POST /v2/deployments/{id}/revisions` answers 405 (an older
   * self-hosted control plane: clients fall back to PATCH).
   */
  revisionsEndpoint?: boolean;
  /** Default true; false → only `…/revisions/{rev}/interrupt` exists, not `…/interruption`. */
  interruptionPath?: boolean;
  /** Default true; false → the revision logs endpoints (`/v1/projects/…_logs`) answer 404. */
  logsEndpoint?: boolean;
  /** Default true: a new revision marks the older in-progress ones `SKIPPED`. */
  supersede?: boolean;
  /**
   * Default false. True: a new revision waits (`QUEUED`) until the deployment's revision in
   * progress has ended, as the platform queues them; an older one that is itself still waiting
   * becomes `SKIPPED`. `POST …/revisions/{id}/interruption` ends the one in progress at once
   * (`INTERRUPTED`), and the queued one starts.
   */
  queueBehind?: boolean;
  /**
   * Refuses the deployment types of one pricing family on create (422 on
   * `source_config.deployment_type`, naming the accepted ones), as an organization on the other
   * pricing would. Default: both families are accepted.
   */
  refuseDeploymentTypes?: 'usage-based' | 'previous';
  /** `repo_commit_sha` reported by `github` revisions (default null: not reported). */
  commitSha?: string;
  /** Agent-server behaviour of every deployment until `agent(id)` changes it. */
  agent?: Partial<AgentBehaviour>;
  /** The simulated LangSmith API at `/api/v1` (clock, evaluator and ingest delays). */
  langsmith?: LangSmithOptions;
  /** Lifetime of the signed upload URLs of `source: upload` (default 15 minutes). */
  uploadUrlTtlMs?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 0 (any free port). */
  port?: number;
}

export interface RequestLogEntry {
  method: string;
  /** Without the `/api-host` prefix and without the query. */
  path: string;
  query: Record<string, string>;
  /** 0 while the request is being answered. */
  status: number | 'reset';
  tenant?: string;
  hasApiKey: boolean;
  /** Parsed JSON body, or the raw text when it is not JSON; absent when empty. */
  body?: unknown;
  at: number;
}

export type Fault = {
  method?: string;
  /** Matches the path as logged: a string must be equal, a RegExp must match. */
  path?: string | RegExp;
  /** Default 1. */
  times?: number;
} & (
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'reset' }
  | { kind: 'commit-then-reset' }
  | { kind: 'delay'; ms: number }
  | { kind: 'malformed-json' }
  | { kind: 'commit-then-status'; status: number }
  /** Answers `status` at once and applies the request `afterMs` later (a gateway's 504). */
  | { kind: 'status-then-commit'; status: number; afterMs: number }
  /** Answers as usual, then lets a test change the answer (e.g. put hostile text in it). */
  | { kind: 'rewrite'; rewrite: (response: SimResponse) => SimResponse }
  /** Never answers; the request ends when the client goes away (or the simulator closes). */
  | { kind: 'hang' }
);

export interface AgentBehaviour {
  /** The next N `GET /ok` answer 503. */
  unhealthyCount: number;
  /** false → `GET /ok` always answers 503. */
  healthy: boolean;
  /** Graph ids; one assistant per graph. */
  graphs: string[];
  /** How a streamed run ends. */
  run: 'success' | 'error' | 'interrupt';
  /** Message of the `error` event. */
  errorMessage: string;
  /**
   * How long each run takes: a streamed run between its `metadata` and its result, a
   * `POST /runs/wait` before it answers. Default 0.
   */
  runDelayMs?: number;
  /** `POST /runs/wait` does not trace into `langsmith_tracer`'s project (an older server). */
  ignoreTracer?: boolean;
  /**
   * The share (0–1) of stateless runs whose `output` is wrong (`echo: <input> (wrong)`), chosen
   * by a hash of the input, so the same examples are wrong on every run: a regression.
   */
  wrongAnswerRate?: number;
  /** The state a stateless run answers for its input (default: the input with `output`). */
  answer?: (input: Record<string, unknown>) => Record<string, unknown>;
}

/**
 * How the agent server behaves while one revision is the live one; unset fields follow the
 * deployment's `AgentBehaviour`. A redeployed revision inherits the one it replays (same code).
 */
export type RevisionAgent = Partial<
  Pick<AgentBehaviour, 'healthy' | 'run' | 'errorMessage' | 'wrongAnswerRate' | 'answer'>
>;

export interface SeedDeployment {
  name: string;
  /** `internal_docker`: a deployment `langgraph deploy` made from a locally built image. */
  source?: 'github' | 'external_docker' | 'internal_docker' | 'internal_source';
  repoUrl?: string;
  /** Deployment status, e.g. `AWAITING_DELETE` (default `READY`). */
  status?: string;
  /** Oldest first. Default: one `DEPLOYED` revision; `[]` for none. */
  revisions?: { status: string; createdAt?: string; updatedAt?: string }[];
  secrets?: Secret[];
  customUrl?: string;
  id?: string;
}

/** A GitHub integration of the workspace (`GET /v1/integrations/github/install`). */
export interface SimGithubIntegration {
  id: string;
  /** The GitHub account it is installed on. */
  name: string;
  /** The repositories it may build, as `owner/name`. */
  repos: string[];
}

export interface Secret {
  name: string;
  value: string;
}

export interface SourceConfig {
  integration_id: string | null;
  repo_url: string | null;
  deployment_type: string | null;
  build_on_push: boolean | null;
  custom_url: string | null;
  resource_spec: Record<string, unknown> | null;
  listener_id: string | null;
  listener_config: { k8s_namespace: string | null } | null;
  install_command: string | null;
  build_command: string | null;
}

export interface SourceRevisionConfig {
  repo_ref: string | null;
  langgraph_config_path: string | null;
  image_uri: string | null;
  source_tarball_path: string | null;
  repo_commit_sha: string | null;
}

export interface Deployment {
  id: string;
  name: string;
  source: string;
  source_config: SourceConfig;
  source_revision_config: SourceRevisionConfig;
  secrets: Secret[];
  secret_references: null;
  tenant_id: string;
  created_at: string;
  updated_at: string;
  status: string;
  latest_revision_id: string | null;
  active_revision_id: string | null;
  image_version: string | null;
  /** The agent server's URL as LangSmith Cloud fills it (github deployments here). */
  url: string | null;
}

export interface Revision {
  id: string;
  created_at: string;
  updated_at: string;
  status: string;
  source: string;
  source_revision_config: SourceRevisionConfig;
  /** Why the revision is in its status (failures, interruptions), else null. */
  status_message: string | null;
}

/** What a route handler answers; the server writes it (or a fault replaces it). */
export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  /** Serialised as JSON unless `raw` is set. */
  body?: unknown;
  raw?: string;
  /** Server-sent events, written one chunk at a time. */
  sse?: string[];
  /** Pause after the first event (a run's `metadata`), as a graph that takes time would. */
  sseDelayMs?: number;
  /** Pause before a JSON answer (a `POST /runs/wait` whose graph takes time). */
  delayMs?: number;
  /** Called once the answer was written in full (not when the client went away first). */
  onSent?: () => void;
  /** An agent run: counted by `sim.agentRuns()` (streams always are). */
  agentRun?: boolean;
}
