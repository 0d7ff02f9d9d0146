/**
 * Every input of the action, once: its name (in `action.yml` order), its default as
 * `action.yml` declares it (`undefined`: required), the values it accepts when it is a
 * choice, and the commands that use it. The description lives in `action.yml` only (it is
 * documentation, kept out of the bundle).
 *
 * This table drives `readConfig` (defaults and choices, `./read.ts`), the `action.yml` check
 * (`__tests__/action-yml.test.ts`: names, order, defaults, required) and the README tables
 * (`scripts/readme-tables.ts`). To add an input: a row here, its
 * description in `action.yml`, its reading in `./read.ts`, its field in `./config.ts`; then
 * `npm run readme`.
 *
 * Plain data, no imports but types: scripts and tests read it without loading the action.
 */
import type { Command, Source } from './config.js';

export interface InputSpec {
  /** The default `action.yml` declares; absent: `''`. */
  readonly default?: string;
  /** A required input (no default). */
  readonly required?: true;
  /** For a choice: the accepted values (lowercase; the input is matched case-insensitively). */
  readonly values?: readonly string[];
  /** For an input only some sources use: those sources (with another one, it is an error). */
  readonly sources?: readonly Source[];
}

export const INPUTS = {
  'api-key': { required: true },
  'workspace-id': {},
  region: { default: 'us', values: ['us', 'eu', 'apac', 'aws-us'] },
  'control-plane-url': {},
  command: { default: 'deploy', values: ['deploy', 'delete', 'rollback', 'prune'] },
  name: {},
  'deployment-id': {},
  source: { default: 'github', values: ['github', 'external_docker', 'upload'] },
  'integration-id': { sources: ['github'] },
  'repo-url': { sources: ['github'] },
  'repo-ref': { sources: ['github'] },
  'config-path': { default: 'langgraph.json' },
  'image-uri': { sources: ['external_docker'] },
  'custom-url': { sources: ['external_docker'] },
  'listener-id': { sources: ['external_docker'] },
  'k8s-namespace': { sources: ['external_docker'] },
  'deployment-type': {
    default: 'dev',
    // The Terraform provider's list (internal/provider/deployment_resource.go).
    values: ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'],
  },
  'build-on-push': { default: 'false' },
  secrets: {},
  'resource-spec': { sources: ['external_docker'] },
  'dry-run': { default: 'false' },
  'skip-unchanged': { default: 'true' },
  'interrupt-previous': { default: 'false' },
  'install-command': { sources: ['github', 'upload'] },
  'build-command': { sources: ['github', 'upload'] },
  wait: { default: 'true' },
  timeout: { default: '1800' },
  'poll-interval': { default: '15' },
  'health-check': { default: 'true' },
  'build-log': { default: 'tail', values: ['tail', 'stream', 'off'] },
  'smoke-test': {},
  'smoke-test-assistant': {},
  'rollback-on-failure': { default: 'false' },
  'rollback-to': {},
  tests: {},
  'tests-feedback-key': { default: 'ci' },
  'delete-tracing-project': { default: 'false' },
  'github-token': { default: '${{ github.token }}' },
  'pr-comment': { default: 'true' },
  environment: {},
} as const satisfies Record<string, InputSpec>;

export type InputName = keyof typeof INPUTS;

/**
 * The commands that read each input (`'all'`: every command). A table of its own so that the
 * bundle leaves it out: only the README and the tests read it.
 */
export const USED_BY: Readonly<Record<InputName, readonly Command[] | 'all'>> = {
  'api-key': 'all',
  'workspace-id': 'all',
  region: 'all',
  'control-plane-url': 'all',
  command: 'all',
  name: 'all',
  'deployment-id': ['deploy', 'delete', 'rollback'],
  source: ['deploy'],
  'integration-id': ['deploy'],
  'repo-url': ['deploy'],
  'repo-ref': ['deploy'],
  'config-path': ['deploy'],
  'image-uri': ['deploy'],
  'custom-url': ['deploy'],
  'listener-id': ['deploy'],
  'k8s-namespace': ['deploy'],
  'deployment-type': ['deploy'],
  'build-on-push': ['deploy'],
  secrets: ['deploy'],
  'resource-spec': ['deploy'],
  'dry-run': ['prune'],
  'skip-unchanged': ['deploy'],
  'interrupt-previous': ['deploy'],
  'install-command': ['deploy'],
  'build-command': ['deploy'],
  wait: ['deploy', 'delete', 'rollback'],
  timeout: 'all',
  'poll-interval': 'all',
  'health-check': ['deploy', 'rollback'],
  'build-log': ['deploy'],
  'smoke-test': ['deploy'],
  'smoke-test-assistant': ['deploy'],
  'rollback-on-failure': ['deploy'],
  'rollback-to': ['rollback'],
  tests: ['deploy'],
  'tests-feedback-key': ['deploy'],
  'delete-tracing-project': ['delete', 'prune'],
  'github-token': 'all',
  'pr-comment': 'all',
  environment: 'all',
};

/** Every input, in `action.yml` order. */
export const INPUT_NAMES = /* @__PURE__ */ Object.keys(INPUTS) as InputName[];

/** The default of an input as the code sees it: `''` when none is declared. */
export function defaultOf(name: InputName): string {
  const spec: InputSpec = INPUTS[name];
  return spec.default ?? '';
}

/** The default of a choice input (one of its values: `__tests__/action-yml.test.ts` checks). */
export function choiceDefault<N extends ChoiceInput>(name: N): ChoiceOf<N> {
  return defaultOf(name) as ChoiceOf<N>;
}

/** The default of a boolean input. */
export function booleanDefault(name: InputName): boolean {
  return defaultOf(name) === 'true';
}

/** The inputs that are a choice among `values`. */
export type ChoiceInput = {
  [N in InputName]: (typeof INPUTS)[N] extends { values: readonly string[] } ? N : never;
}[InputName];

/** The accepted values of a choice input, as a union type. */
export type ChoiceOf<N extends ChoiceInput> = (typeof INPUTS)[N]['values'][number];
