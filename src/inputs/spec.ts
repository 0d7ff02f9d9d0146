/**
 * Every input of the action, once: its name (in `action.yml` order), its default as
 * `action.yml` declares it (`undefined`: required), the values it accepts when it is a
 * choice, and the commands that use it. The description lives in `action.yml` only (it is
 * documentation, kept out of the bundle).
 *
 * This table drives `readConfig` (defaults and choices, `./read.ts`), the `action.yml` check
 * (`__tests__/action-yml.test.ts`: names, order, defaults, required) and the README tables
 * (`scripts/readme-tables.ts`: order, defaults, "used by"). To add an input: a row here, its
 * description in `action.yml`, its reading in `./read.ts`, its field in `../config.ts`; then
 * `npm run readme`.
 *
 * On the cold path: plain data, no imports but types.
 */
import type { Command, Source } from '../config.js';

export interface InputSpec {
  /** The default `action.yml` declares; absent: `''`. */
  readonly default?: string;
  /** A required input (no default). */
  readonly required?: true;
  /** The commands that read it; absent: every command. */
  readonly usedBy?: readonly Command[];
  /** For a choice: the accepted values (lowercase; the input is matched case-insensitively). */
  readonly values?: readonly string[];
  /** For an input only some sources use: those sources (with another one, it is an error). */
  readonly sources?: readonly Source[];
}

const DEPLOY = ['deploy'] as const satisfies readonly Command[];

export const INPUTS = {
  'api-key': { required: true },
  'workspace-id': {},
  region: { default: 'us', values: ['us', 'eu', 'apac', 'aws-us'] },
  'control-plane-url': {},
  command: { default: 'deploy', values: ['deploy', 'delete', 'rollback', 'prune'] },
  name: {},
  'deployment-id': { usedBy: ['deploy', 'delete', 'rollback'] },
  source: { default: 'github', usedBy: DEPLOY, values: ['github', 'external_docker', 'upload'] },
  'integration-id': { usedBy: DEPLOY, sources: ['github'] },
  'repo-url': { usedBy: DEPLOY, sources: ['github'] },
  'repo-ref': { usedBy: DEPLOY, sources: ['github'] },
  'config-path': { default: 'langgraph.json', usedBy: DEPLOY },
  'image-uri': { usedBy: DEPLOY, sources: ['external_docker'] },
  'custom-url': { usedBy: DEPLOY, sources: ['external_docker'] },
  'listener-id': { usedBy: DEPLOY, sources: ['external_docker'] },
  'k8s-namespace': { usedBy: DEPLOY, sources: ['external_docker'] },
  'deployment-type': { default: 'dev', usedBy: DEPLOY, values: ['dev_free', 'dev', 'prod'] },
  'build-on-push': { default: 'false', usedBy: DEPLOY },
  secrets: { usedBy: DEPLOY },
  'resource-spec': { usedBy: DEPLOY, sources: ['external_docker'] },
  'dry-run': { default: 'false', usedBy: ['prune'] },
  'skip-unchanged': { default: 'true', usedBy: DEPLOY },
  'interrupt-previous': { default: 'true', usedBy: DEPLOY },
  'install-command': { usedBy: DEPLOY, sources: ['github', 'upload'] },
  'build-command': { usedBy: DEPLOY, sources: ['github', 'upload'] },
  wait: { default: 'true', usedBy: ['deploy', 'delete', 'rollback'] },
  timeout: { default: '1800' },
  'poll-interval': { default: '15', usedBy: ['deploy', 'delete', 'rollback'] },
  'health-check': { default: 'true', usedBy: ['deploy', 'rollback'] },
  'build-log': { default: 'tail', usedBy: DEPLOY, values: ['tail', 'stream', 'off'] },
  'smoke-test': { usedBy: DEPLOY },
  'smoke-test-assistant': { usedBy: DEPLOY },
  'rollback-on-failure': { default: 'false', usedBy: DEPLOY },
  'rollback-to': { usedBy: ['rollback'] },
  tests: { usedBy: DEPLOY },
  'tests-feedback-key': { default: 'ci', usedBy: DEPLOY },
  'delete-tracing-project': { default: 'false', usedBy: ['delete', 'prune'] },
  'github-token': { default: '${{ github.token }}' },
  'pr-comment': { default: 'true', usedBy: ['deploy', 'delete', 'rollback'] },
  environment: {},
} as const satisfies Record<string, InputSpec>;

export type InputName = keyof typeof INPUTS;

/** Every input, in `action.yml` order. */
export const INPUT_NAMES = Object.keys(INPUTS) as InputName[];

/** The default of an input as the code sees it: `''` when none is declared. */
export function defaultOf(name: InputName): string {
  const spec: InputSpec = INPUTS[name];
  return spec.default ?? '';
}

/** The inputs that are a choice among `values`. */
export type ChoiceInput = {
  [N in InputName]: (typeof INPUTS)[N] extends { values: readonly string[] } ? N : never;
}[InputName];

/** The accepted values of a choice input, as a union type. */
export type ChoiceOf<N extends ChoiceInput> = (typeof INPUTS)[N]['values'][number];
