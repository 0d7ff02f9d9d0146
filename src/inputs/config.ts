/**
 * The one typed, validated configuration a run works from. `inputs/read.ts` builds it from the
 * action inputs and the GitHub context; nothing else reads `INPUT_*` variables.
 */
import type { GithubContext } from '../github/octokit.js';
import type { ChoiceOf } from './spec.js';

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

/** The one typed configuration of a run, for its command. */
export type Config =
  DeployConfig | DeleteConfig | RollbackConfig | PruneConfig | RegistryLoginConfig;

/** One problem with one input, reported before any network call. */
export interface InputProblem {
  input: string;
  message: string;
}
