/**
 * The simulated control plane's data: deployments, their revisions, and how both look on the
 * wire at a given moment.
 */
import { randomUUID } from 'node:crypto';
import {
  currentStatus,
  DEFAULT_STATUS_MESSAGES,
  effectiveStart,
  isTerminal,
  statusHistory,
  type RevisionRecord,
  type StatusChange,
} from './timeline.js';
import type {
  Deployment,
  Revision,
  Secret,
  SourceConfig,
  SourceRevisionConfig,
  TimelineStep,
} from './types.js';

export interface DeploymentRecord {
  id: string;
  name: string;
  source: string;
  sourceConfig: SourceConfig;
  secrets: Secret[];
  tenantId: string;
  createdAt: number;
  updatedAt: number;
  /** Status stored for the deployment itself (`READY` unless seeded otherwise). */
  status: string;
  /** Set by DELETE when the deployment lingers in `AWAITING_DELETE`. */
  deleteAt?: number;
  /**
   * Seeded as being deleted: its `deleteAt` is set this long after the first control-plane
   * request, so that how long the action takes to start does not decide what it sees.
   */
  deleteDelayFromFirstRequest?: number;
  /** Oldest first. */
  revisions: RevisionRecord[];
  /** Top-level `url` (LangSmith Cloud fills it for the deployments it builds). */
  url?: string;
}

export function emptySourceConfig(): SourceConfig {
  return {
    integration_id: null,
    repo_url: null,
    deployment_type: null,
    build_on_push: null,
    custom_url: null,
    resource_spec: null,
    listener_id: null,
    listener_config: null,
    install_command: null,
    build_command: null,
  };
}

export function emptyRevisionConfig(): SourceRevisionConfig {
  return {
    repo_ref: null,
    langgraph_config_path: null,
    image_uri: null,
    source_tarball_path: null,
    repo_commit_sha: null,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

export class Store {
  /** Creation order. */
  private records: DeploymentRecord[] = [];
  /**
   * Names of the LangSmith tracing projects: each deployment gets one of its name, and a
   * delete without `delete_tracing_project` leaves it behind.
   */
  readonly tracingProjects = new Set<string>();

  constructor(
    private readonly supersede: () => boolean,
    /** See `SimulatorOptions.queueBehind`. */
    private readonly queueBehind: () => boolean = () => false,
  ) {}

  clear(): void {
    this.records = [];
    this.tracingProjects.clear();
  }

  /** Starts the delete clock of deployments seeded as being deleted (see `DeploymentRecord`). */
  startDeleteClocks(now: number): void {
    for (const d of this.records) {
      if (d.deleteDelayFromFirstRequest === undefined) continue;
      d.deleteAt = now + d.deleteDelayFromFirstRequest;
      delete d.deleteDelayFromFirstRequest;
    }
  }

  /** Drops deployments whose delete delay has passed. */
  sweep(now: number): void {
    this.records = this.records.filter((d) => d.deleteAt === undefined || d.deleteAt > now);
  }

  all(now: number): DeploymentRecord[] {
    this.sweep(now);
    return [...this.records];
  }

  get(id: string, now: number): DeploymentRecord | undefined {
    this.sweep(now);
    return this.records.find((d) => d.id === id);
  }

  byName(name: string, now: number): DeploymentRecord | undefined {
    this.sweep(now);
    return this.records.find((d) => d.name === name);
  }

  add(record: DeploymentRecord): void {
    this.records.push(record);
    this.tracingProjects.add(record.name);
  }

  remove(id: string): void {
    this.records = this.records.filter((d) => d.id !== id);
  }

  /**
   * Adds a revision that starts its timeline now; older unfinished ones become `SKIPPED`. With
   * `queueBehind`, it waits behind the one in progress instead, and only older ones still
   * waiting become `SKIPPED`.
   */
  addRevision(
    dep: DeploymentRecord,
    config: SourceRevisionConfig,
    steps: TimelineStep[],
    now: number,
  ): RevisionRecord {
    let blockedBy: RevisionRecord | undefined;
    if (this.queueBehind()) {
      for (const older of dep.revisions) {
        if (isTerminal(currentStatus(older, now).status)) continue;
        if (effectiveStart(older) > now) older.skippedAt = now;
        else blockedBy = older;
      }
    } else if (this.supersede()) {
      for (const older of dep.revisions) {
        if (!isTerminal(currentStatus(older, now).status)) older.skippedAt = now;
      }
    }
    const rev: RevisionRecord = {
      id: randomUUID(),
      source: dep.source,
      createdAt: now,
      startAt: now,
      steps,
      config: { ...config },
      ...(blockedBy ? { blockedBy } : {}),
    };
    dep.revisions.push(rev);
    dep.updatedAt = now;
    return rev;
  }

  /**
   * `POST …/interruption`: a revision in progress (waiting or running) becomes `INTERRUPTED`
   * now, so one queued behind it starts. False when it had already ended.
   */
  interrupt(rev: RevisionRecord, now: number): boolean {
    if (isTerminal(currentStatus(rev, now).status)) return false;
    rev.interruptedAt = now;
    return true;
  }

  /** The revision that most recently reached `DEPLOYED`. */
  activeRevision(dep: DeploymentRecord, now: number): RevisionRecord | undefined {
    let best: { rev: RevisionRecord; at: number } | undefined;
    for (const rev of dep.revisions) {
      const cur = currentStatus(rev, now);
      if (cur.status === 'DEPLOYED' && (!best || cur.at >= best.at)) best = { rev, at: cur.at };
    }
    return best?.rev;
  }

  deploymentStatus(dep: DeploymentRecord, now: number): string {
    return dep.deleteAt !== undefined && dep.deleteAt > now ? 'AWAITING_DELETE' : dep.status;
  }

  toWire(dep: DeploymentRecord, now: number): Deployment {
    const latest = dep.revisions[dep.revisions.length - 1];
    return {
      id: dep.id,
      name: dep.name,
      source: dep.source,
      source_config: structuredClone(dep.sourceConfig),
      source_revision_config: latest ? { ...latest.config } : emptyRevisionConfig(),
      secrets: dep.secrets.map((s) => ({ name: s.name, value: s.value })),
      secret_references: null,
      tenant_id: dep.tenantId,
      created_at: iso(dep.createdAt),
      updated_at: iso(dep.updatedAt),
      status: this.deploymentStatus(dep, now),
      latest_revision_id: latest?.id ?? null,
      active_revision_id: this.activeRevision(dep, now)?.id ?? null,
      image_version: null,
      url: dep.url ?? null,
    };
  }

  revisionToWire(rev: RevisionRecord, now: number): Revision {
    const cur: StatusChange = currentStatus(rev, now);
    return {
      id: rev.id,
      created_at: iso(rev.createdAt),
      updated_at: iso(Math.max(cur.at, rev.createdAt)),
      status: cur.status,
      source: rev.source,
      source_revision_config: { ...rev.config },
      status_message: cur.message ?? DEFAULT_STATUS_MESSAGES[cur.status] ?? null,
    };
  }

  /** Newest first. */
  revisionsNewestFirst(dep: DeploymentRecord): RevisionRecord[] {
    return [...dep.revisions].reverse();
  }

  history(rev: RevisionRecord, now: number): StatusChange[] {
    return statusHistory(rev, now);
  }
}
