/**
 * Shared helpers of the deploy/delete end-to-end tests: they run the bundle (`runAction`) against
 * the control-plane simulator and look at exit code, outputs, annotations, summary and the
 * simulator's request log.
 */
import { expect } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RequestLogEntry, Simulator, TimelineStep } from '../../simulator/index.js';
import type { RunOptions, RunResult } from '../../scripts/run-action.js';

/** A GitHub integration ID (the simulator wants a UUID). */
export const INTEGRATION_ID = '5c1a4b2e-8f3d-4e6a-9b7c-0d1e2f3a4b5c';
/** What `repo-url` derives to under `runAction` (GITHUB_SERVER_URL/GITHUB_REPOSITORY). */
export const REPO_URL = 'https://github.com/acme/agent';

/** A few tens of ms per status: a whole run takes well under a second. */
export const SHORT_TIMELINE: TimelineStep[] = [
  { status: 'QUEUED', durationMs: 30 },
  { status: 'BUILDING', durationMs: 30 },
  { status: 'DEPLOYING', durationMs: 30 },
  { status: 'DEPLOYED', durationMs: 0 },
];

let counter = 0;
/** A deployment name no other test of the file uses (lowercase, digits, hyphens). */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 7)}`;
}

/** Inputs every run needs: key, simulator URL, fast polling, a bounded timeout. */
export function baseInputs(sim: Simulator, extra: Record<string, string> = {}) {
  return {
    'api-key': sim.apiKey,
    'control-plane-url': sim.url,
    'poll-interval': '0.2',
    timeout: '20',
    ...extra,
  };
}

/** The requests the simulator logged from now on (`since()`), to assert "zero requests" etc. */
export function mark(sim: Simulator): { since(): RequestLogEntry[] } {
  const start = sim.requests.length;
  return { since: () => sim.requests.slice(start) };
}

export function byRoute(
  requests: RequestLogEntry[],
  method: string,
  path: string | RegExp,
): RequestLogEntry[] {
  return requests.filter(
    (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );
}

export const REVISION_PATH = /^\/v2\/deployments\/[^/]+\/revisions\/[^/]+$/;
/** The platform CLI's log endpoints: `POST /v1/projects/{id}/revisions/{rev}/build_logs|deploy_logs`. */
export const LOGS_PATH = /^\/v1\/projects\/[^/]+\/revisions\/[^/]+\/(build|deploy)_logs$/;
export const DEPLOYMENT_PATH = /^\/v2\/deployments\/[^/]+$/;
/** `POST /v2/deployments/{id}/revisions`: how an update asks for its new revision (v1.2). */
export const REVISIONS_PATH = /^\/v2\/deployments\/[^/]+\/revisions$/;
export const HEALTH_PATH = /^\/agents\/[^/]+\/ok$/;

export function errors(result: RunResult) {
  return result.annotations.filter((a) => a.kind === 'error');
}

export function warnings(result: RunResult) {
  return result.annotations.filter((a) => a.kind === 'warning');
}

/** Asserts the exit code; on a mismatch the failure shows the run's log. */
export function expectExit(result: RunResult, code: number): void {
  if (result.code !== code) {
    throw new Error(
      `Expected exit code ${code}, got ${result.code}. The action's log:\n` +
        `${result.stdout}\n${result.stderr}`,
    );
  }
}

/**
 * Calls `fn` with the action's stdout as it arrives (runAction's signal hook, which never fires
 * because `when` answers false): lets a test act once the action has logged something.
 */
export function onStdout(fn: (stdout: string) => void): RunOptions['signal'] {
  return {
    name: 'SIGINT',
    when: (stdout) => {
      fn(stdout);
      return false;
    },
  };
}

/** The ID of the deployment of that name in the simulator (undefined when there is none). */
export function idOf(sim: Simulator, name: string): string | undefined {
  return sim.deployments().find((d) => d.name === name)?.id;
}

export function uiUrlOf(sim: Simulator, id: string, tenant: string): string {
  return `${sim.url}/o/${tenant}/host/deployments/${id}`;
}

/**
 * Temporary workspaces for runs: `make(files)` writes `files` (path → content) into a new
 * folder, a checkout (with a `.git` folder) unless `git: false`; `removeAll()` in `afterAll`.
 */
export function tempWorkspaces(prefix: string): {
  make(files: Record<string, string>, options?: { git?: boolean }): string;
  removeAll(): void;
} {
  const roots: string[] = [];
  return {
    make(files, options = {}) {
      const root = mkdtempSync(join(tmpdir(), `${prefix}-`));
      roots.push(root);
      if (options.git ?? true) mkdirSync(join(root, '.git'));
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      return root;
    },
    removeAll() {
      for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Head commit of the pull request of `PR_EVENT`. */
export const HEAD_SHA = '9f8e7d6c5b4a39281706f5e4d3c2b1a098765432';
/** A `pull_request` (synchronize) event for PR #7 of acme/agent, from a branch of that repository. */
export const PR_EVENT = {
  name: 'pull_request',
  payload: {
    action: 'synchronize',
    number: 7,
    pull_request: {
      number: 7,
      head: { sha: HEAD_SHA, ref: 'feature/preview', repo: { full_name: 'acme/agent' } },
      base: { sha: '0'.repeat(40), ref: 'main', repo: { full_name: 'acme/agent' } },
    },
  },
};

/**
 * The `secrets` a run that sends the input sends: the given entries, then `skip-unchanged`'s
 * keyed record of the run's settings (an HMAC, never a value), and on a create the origin record.
 */
export function sentSecrets(
  given: { name: string; value: string }[],
  options: { created?: boolean } = {},
): unknown[] {
  return [
    ...given,
    {
      name: 'LANGGRAPH_DEPLOY_ACTION_DIGEST',
      value: expect.stringMatching(/^v1:[A-Za-z0-9_-]{43}$/),
    },
    ...(options.created ? [ORIGIN_ENTRY] : []),
  ];
}

/** The origin record a create writes (and an update that sends secrets carries over). */
export const ORIGIN_ENTRY = {
  name: 'LANGGRAPH_DEPLOY_ACTION_ORIGIN',
  value: expect.stringMatching(/^v1:[A-Za-z0-9_-]{43}$/),
};
