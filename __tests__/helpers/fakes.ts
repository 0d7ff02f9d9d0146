/**
 * Shared fakes for unit and integration tests (test-only code lives here, not in src/): a
 * clock whose sleep takes no time, a logger that records, a GitHub context, the environment
 * the runner gives a step.
 */
import type { ControlPlane } from '../../src/api/client.js';
import type { Deployment } from '../../src/api/schemas.js';
import type { GithubContext } from '../../src/inputs/config.js';
import type { AnnotationProperties } from '@actions/core';
import type { Logger } from '../../src/lib/untrusted.js';
import type { Clock } from '../../src/lib/time.js';

/** A clock for tests: `sleep` advances time instantly and records each wait. */
export class FakeClock implements Clock {
  current: number;
  readonly sleeps: number[] = [];
  constructor(start = 1_700_000_000_000) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.current += Math.max(0, ms);
  }
}

/** A logger that records every line, in order, for assertions on what was said. */
export type LogLevel = 'info' | 'debug' | 'notice' | 'warning' | 'error';

export interface LogEntry {
  level: LogLevel;
  message: string;
  properties?: AnnotationProperties;
}
export type LogLine = LogEntry;

/** A `Logger` that keeps every line; `text()` is the log as `level: message` lines. */
export function recordingLogger(): Logger & {
  /** Every line (also as `lines`). */
  entries: LogEntry[];
  lines: LogEntry[];
  warnings(): LogEntry[];
  text(): string;
  messages(level: LogLevel): string[];
} {
  const entries: LogEntry[] = [];
  const add = (level: LogLevel) => (message: string, properties?: AnnotationProperties) => {
    entries.push(properties ? { level, message, properties } : { level, message });
  };
  return {
    entries,
    lines: entries,
    warnings: () => entries.filter((e) => e.level === 'warning'),
    text: () => entries.map((l) => `${l.level}: ${l.message}`).join('\n'),
    messages: (level) => entries.filter((l) => l.level === level).map((l) => l.message),
    info: add('info'),
    debug: add('debug'),
    notice: add('notice'),
    warning: add('warning'),
    error: add('error'),
  };
}

export const HEAD_SHA = 'b'.repeat(40);
export const PUSH_SHA = 'a'.repeat(40);

export function githubContext(apiUrl: string, options: { pr?: boolean } = {}): GithubContext {
  const pr = options.pr ?? true;
  return {
    eventName: pr ? 'pull_request' : 'push',
    ref: pr ? 'refs/pull/7/merge' : 'refs/heads/main',
    sha: PUSH_SHA,
    repository: 'octo/app',
    serverUrl: 'https://github.com',
    apiUrl,
    runId: '42',
    runAttempt: '1',
    workspace: '/tmp',
    ...(pr
      ? {
          pullRequest: {
            number: 7,
            headRef: 'feature',
            headSha: HEAD_SHA,
            headRepoFullName: 'octo/app',
            baseRepoFullName: 'octo/app',
          },
        }
      : {}),
  };
}

/** A control plane whose every call fails the test ("not used"): spread it, then override. */
export function unusedPlane(): ControlPlane {
  const notUsed = (): never => {
    throw new Error('not used');
  };
  return {
    listDeployments: notUsed,
    findDeploymentByName: notUsed,
    getDeployment: notUsed,
    createDeployment: notUsed,
    patchDeployment: notUsed,
    deleteDeployment: notUsed,
    listRevisions: notUsed,
    getRevision: notUsed,
    getRevisionLogs: notUsed,
    createRevision: notUsed,
    interruptRevision: notUsed,
    requestUploadUrl: notUsed,
    requestPushToken: notUsed,
    listGithubIntegrations: notUsed,
    listGithubRepos: notUsed,
  };
}

/** A `github` deployment as the control plane answers it, with `overrides`. */
export function deploymentFixture(overrides: Partial<Deployment> = {}): Deployment {
  return {
    id: 'dep-1',
    name: 'my-agent',
    source: 'github',
    source_config: {},
    source_revision_config: {},
    secrets: [],
    tenant_id: 't',
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    status: 'READY',
    latest_revision_id: 'rev-2',
    active_revision_id: 'rev-1',
    ...overrides,
  };
}

/**
 * The environment of a step on a push to main with these inputs, as the runner passes them
 * (`INPUT_<NAME>`, the dash kept); `vars` adds or replaces variables.
 */
export function actionEnv(
  inputs: Record<string, string>,
  vars: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    GITHUB_EVENT_NAME: 'push',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_SHA: 'c0ffee',
    GITHUB_REPOSITORY: 'acme/agent',
    GITHUB_SERVER_URL: 'https://github.com',
    ...vars,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  return env;
}

/**
 * Captures what would go to stdout (everything `@actions/core` prints goes
 * through `process.stdout.write`). Returns a function that restores it.
 */
export function captureOutputForTests(sink: (text: string) => void): () => void {
  const previous = Object.getOwnPropertyDescriptor(process.stdout, 'write');
  process.stdout.write = ((chunk: string | Uint8Array) => {
    sink(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  return () => {
    if (previous) Object.defineProperty(process.stdout, 'write', previous);
    else delete (process.stdout as { write?: unknown }).write;
  };
}
