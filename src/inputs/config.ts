/**
 * The one typed, validated configuration a run works from. `inputs/read.ts` builds it from the
 * action inputs and the GitHub context (both read here); nothing else reads `INPUT_*` variables.
 */
import { readFileSync } from 'node:fs';
import type { GithubContext } from '../github/octokit.js';
import { isRecord } from '../lib/text.js';
import { type ChoiceOf, variableOf } from './spec.js';

export type { GithubContext };

// Not `ChoiceOf` like the others: the spec's own types use these two.
export type Command = 'deploy' | 'delete' | 'rollback' | 'prune' | 'registry-login';
export type Source = 'github' | 'external_docker' | 'upload' | 'internal_docker';
export type Region = ChoiceOf<'region'>;

export interface SecretEntry {
  name: string;
  value: string;
}

/** What every command reads. */
export interface BaseConfig {
  command: Command;
  apiKey: string;
  workspaceId?: string;
  region: Region;
  /** Base URL of the control plane, without trailing slash (e.g. `https://api.host.langchain.com`). */
  controlPlaneUrl: string;
  /** The LangSmith UI base, e.g. `https://smith.langchain.com`. */
  uiBaseUrl: string;
  timeoutSeconds: number;
  /** Seconds: the longest gap between two status checks. */
  pollIntervalSeconds: number;
  githubToken?: string;
  prComment: boolean;
  environment?: string;
  github: GithubContext;
}

/** The one deployment `deploy`, `delete` and `rollback` act on: by name, by ID, or both. */
export type Target =
  { name: string; deploymentId?: string } | { name?: string; deploymentId: string };

export type DeployConfig = Target & {
  command: 'deploy';
  wait: boolean;
  source: Source;
  // Each for the sources its input row in `spec.ts` names.
  integrationId?: string;
  repoUrl?: string;
  repoRef?: string;
  configPath: string;
  imageUri?: string;
  customUrl?: string;
  listenerId?: string;
  k8sNamespace?: string;
  deploymentType: ChoiceOf<'deployment-type'>;
  buildOnPush: boolean;
  /** `undefined` when the `secrets` input is empty (an update then keeps the environment). */
  secrets?: SecretEntry[];
  resourceSpec?: Record<string, unknown>;
  skipUnchanged: boolean;
  interruptPrevious: boolean;
  /** `source_config.install_command` / `build_command` (`github` and `upload`). */
  installCommand?: string;
  buildCommand?: string;
  healthCheck: boolean;
  /** `build-log`: the log tail on failure (`tail`), also live while building (`stream`), or none. */
  buildLog: ChoiceOf<'build-log'>;
  /** Parsed JSON run input for the smoke test, when set. */
  smokeTest?: unknown;
  smokeTestAssistant?: string;
  /** The validated conversation tests file (`tests`), when set. */
  tests?: {
    file: string;
    cases: import('./tests-file.js').TestCase[];
    /** `tests-feedback-key`; absent when empty (no feedback). */
    feedbackKey?: string;
    /** The only host verdicts are sent to (`verify/conversation-tests.ts`). */
    feedbackHost?: string;
  };
  rollbackOnFailure: boolean;
  /** `eval-dataset` and the other `eval-*` inputs, when an evaluation is asked for. */
  evaluation?: import('./eval.js').EvalConfig;
} & BaseConfig;

export type DeleteConfig = Target & {
  command: 'delete';
  wait: boolean;
  deleteTracingProject: boolean;
} & BaseConfig;

export type RollbackConfig = Target & {
  command: 'rollback';
  wait: boolean;
  healthCheck: boolean;
  /** The revision to serve again (default: the newest earlier DEPLOYED). */
  rollbackTo?: string;
} & BaseConfig;

/** Finds or creates the `internal_docker` deployment and logs the runner's docker in. */
export type RegistryLoginConfig = Target & {
  command: 'registry-login';
  deploymentType: ChoiceOf<'deployment-type'>;
} & BaseConfig;

/** `template`: the previews' names (input `name`, with `{pr}`); the token reads the PRs' states. */
export type PruneConfig = {
  command: 'prune';
  template: import('./validate.js').NameTemplate;
  githubToken: string;
  deleteTracingProject: boolean;
  dryRun: boolean;
} & BaseConfig;

export type Config =
  DeployConfig | DeleteConfig | RollbackConfig | PruneConfig | RegistryLoginConfig;

/** One problem with one input, reported before any network call. */
export interface InputProblem {
  input: string;
  message: string;
}

/** An input as `core.getInput` reads it: its variable in `env` (tests pass their own), trimmed. */
export function getInput(name: string, env: NodeJS.ProcessEnv): string {
  return (env[variableOf(name)] ?? '').trim();
}

/**
 * Events whose payload carries `pull_request` (with `head` and `base`). The contract names
 * `pull_request` and `pull_request_target`; the review events carry the same object, and
 * their `GITHUB_REF` (`refs/pull/N/merge`) is no branch, so the PR is the only way to know it.
 */
export const PULL_REQUEST_EVENTS: ReadonlySet<string> = new Set([
  'pull_request',
  'pull_request_target',
  'pull_request_review',
  'pull_request_review_comment',
]);

/**
 * The workflow's GitHub context, read from the runner's `GITHUB_*` variables and the event
 * payload file before any input check; and on a pull-request event whose payload gives no pull
 * request (file not set, missing, unreadable, empty, not JSON, or without a PR number) why: the
 * fork check and the PR comment cannot run without it, so this is worth a warning.
 */
export function readGithubContext(env: NodeJS.ProcessEnv) {
  const github: GithubContext = {
    eventName: env['GITHUB_EVENT_NAME'] ?? '',
    ref: env['GITHUB_REF'] ?? '',
    sha: env['GITHUB_SHA'] ?? '',
    repository: env['GITHUB_REPOSITORY'] ?? '',
    serverUrl: (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, ''),
    apiUrl: (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, ''),
    runId: env['GITHUB_RUN_ID'] ?? '',
    runAttempt: env['GITHUB_RUN_ATTEMPT'] ?? '',
    workspace: env['GITHUB_WORKSPACE'] || process.cwd(),
  };
  if (!PULL_REQUEST_EVENTS.has(github.eventName)) return { github };
  const found = readPullRequest(env['GITHUB_EVENT_PATH'] ?? '');
  if (typeof found !== 'string') return { github: { ...github, pullRequest: found } };
  const payloadProblem =
    `This is a ${github.eventName} event, but ${found}: the fork check and the ` +
    'pull-request comment cannot run. On GitHub the runner writes this file; when running the ' +
    'action elsewhere (act, a local runner), point GITHUB_EVENT_PATH at the event payload.';
  return { github, payloadProblem };
}

/** The pull request of the event payload at `path`, or why there is none. */
function readPullRequest(path: string): NonNullable<GithubContext['pullRequest']> | string {
  if (path === '') return 'GITHUB_EVENT_PATH is not set';
  let payload: unknown;
  try {
    const raw = readFileSync(path, 'utf8');
    if (raw.trim() === '') return 'the file in GITHUB_EVENT_PATH is empty';
    payload = JSON.parse(raw);
  } catch (error) {
    if (error instanceof SyntaxError) return 'the file in GITHUB_EVENT_PATH is not JSON';
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return `the file in GITHUB_EVENT_PATH cannot be read (${code})`;
  }
  const pr = at(payload, 'pull_request');
  const number = at(pr, 'number') ?? at(payload, 'number');
  if (typeof number !== 'number') return 'the payload in GITHUB_EVENT_PATH names no pull request';
  return {
    number,
    headRef: text(at(pr, 'head', 'ref')),
    headSha: text(at(pr, 'head', 'sha')),
    // `head.repo` is null when the fork has been deleted.
    headRepoFullName: text(at(pr, 'head', 'repo', 'full_name')),
    baseRepoFullName: text(at(pr, 'base', 'repo', 'full_name')),
  };
}

/** The value at `path` in `value`; `undefined` from the first step that is not an object. */
function at(value: unknown, ...path: string[]): unknown {
  return path.reduce((v, key) => (isRecord(v) ? v[key] : undefined), value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
