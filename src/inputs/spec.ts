/**
 * Every input of the action, once: its name (in `action.yml` order), its default as
 * `action.yml` declares it (`undefined`: required), the values it accepts when it is a
 * choice, and the commands that use it; its description lives in `action.yml` only (it is
 * documentation, kept out of the bundle). It drives `readConfig`, the `action.yml` check and
 * the README tables; how to add an input: the README's Architecture section.
 *
 * No imports but types: scripts and tests read it without loading the action.
 */
import type { Command, Config, Source } from './config.js';

export interface InputSpec {
  /** The default `action.yml` declares; absent: `''`. */
  readonly default?: string;
  /** A required input (no default). */
  readonly required?: true;
  /** For a choice: the accepted values (lowercase; the input is matched case-insensitively). */
  readonly values?: readonly string[];
  /** For an input only some sources use: those sources (with another one, it is an error). */
  readonly sources?: readonly Source[];
  /** For a defaulted input only some sources read: those (with another, a set value is a notice). */
  readonly usedWith?: readonly Source[];
  /** The commands that read it (for the README); absent: every command. */
  readonly use?: readonly Command[];
}

export const INPUTS = {
  'api-key': { required: true },
  'workspace-id': {},
  region: { default: 'us', values: ['us', 'eu', 'apac', 'aws-us'] },
  'control-plane-url': {},
  command: {
    default: 'deploy',
    values: ['deploy', 'delete', 'rollback', 'prune', 'registry-login'],
  },
  name: {},
  'deployment-id': { use: ['deploy', 'delete', 'rollback', 'registry-login'] },
  source: {
    default: 'github',
    values: ['github', 'external_docker', 'upload', 'internal_docker'],
    use: ['deploy'],
  },
  'integration-id': { sources: ['github'], use: ['deploy'] },
  'repo-url': { sources: ['github'], use: ['deploy'] },
  'repo-ref': { sources: ['github'], use: ['deploy'] },
  'config-path': { default: 'langgraph.json', use: ['deploy'], usedWith: ['github', 'upload'] },
  'image-uri': { sources: ['external_docker', 'internal_docker'], use: ['deploy'] },
  'custom-url': { sources: ['external_docker'], use: ['deploy'] },
  'listener-id': { sources: ['external_docker'], use: ['deploy'] },
  'k8s-namespace': { sources: ['external_docker'], use: ['deploy'] },
  'deployment-type': {
    default: 'serverless',
    // Usage-based pricing (langgraph-cli 0.4.36), then the Terraform provider's list of the
    // previous pricing (internal/provider/deployment_resource.go): README, platform facts.
    values: ['serverless', 'dedicated', 'dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'],
    use: ['deploy', 'registry-login'],
    usedWith: ['github', 'upload'],
  },
  'build-on-push': { default: 'false', use: ['deploy'], usedWith: ['github'] },
  secrets: { use: ['deploy'] },
  'resource-spec': { sources: ['external_docker'], use: ['deploy'] },
  'dry-run': { default: 'false', use: ['prune'] },
  'skip-unchanged': { default: 'true', use: ['deploy'] },
  'interrupt-previous': { default: 'false', use: ['deploy'] },
  'install-command': { sources: ['github', 'upload'], use: ['deploy'] },
  'build-command': { sources: ['github', 'upload'], use: ['deploy'] },
  wait: { default: 'true', use: ['deploy', 'delete', 'rollback'] },
  timeout: { default: '1800' },
  'poll-interval': { default: '15' },
  'health-check': { default: 'true', use: ['deploy', 'rollback'] },
  'build-log': { default: 'tail', values: ['tail', 'stream', 'off'], use: ['deploy'] },
  'smoke-test': { use: ['deploy'] },
  'smoke-test-assistant': { use: ['deploy'] },
  'rollback-on-failure': { default: 'false', use: ['deploy'] },
  'rollback-to': { use: ['rollback'] },
  tests: { use: ['deploy'] },
  'tests-feedback-key': { default: 'ci', use: ['deploy'] },
  'eval-dataset': { use: ['deploy'] },
  'eval-splits': { use: ['deploy'] },
  'eval-assistant': { use: ['deploy'] },
  'eval-max-examples': { default: '200', use: ['deploy'] },
  'eval-concurrency': { default: '4', use: ['deploy'] },
  'eval-baseline': { default: 'auto', use: ['deploy'] },
  'eval-gate': { use: ['deploy'] },
  'eval-wait': { default: '300', use: ['deploy'] },
  'langsmith-api-url': { use: ['deploy'] },
  'delete-tracing-project': { default: 'false', use: ['delete', 'prune'] },
  'github-token': { default: '${{ github.token }}' },
  'pr-comment': { default: 'true' },
  environment: {},
} as const satisfies Record<string, InputSpec>;

export type InputName = keyof typeof INPUTS;

/** Every input's name (the control-plane client names them in its advice on a 422). */
export const INPUT_NAMES: ReadonlySet<string> = /* @__PURE__ */ new Set(Object.keys(INPUTS));

/** The commands that read each input (`'all'`: every command), for the README. */
export const USED_BY = /* @__PURE__ */ Object.fromEntries(
  Object.entries(INPUTS).map(([name, spec]: [string, InputSpec]) => [name, spec.use ?? 'all']),
) as Readonly<Record<InputName, readonly Command[] | 'all'>>;

/** The default of an input as the code sees it: `''` when none is declared. */
export function defaultOf(name: InputName): string {
  return (INPUTS[name] as InputSpec).default ?? '';
}

/** The default of a choice input (one of its values: `__tests__/action-yml.test.ts` checks). */
export function choiceDefault<N extends ChoiceInput>(name: N): ChoiceOf<N> {
  return defaultOf(name) as ChoiceOf<N>;
}

/** The inputs that are a choice among `values`, and the values of one as a union type. */
export type ChoiceInput = {
  [N in InputName]: (typeof INPUTS)[N] extends { values: readonly string[] } ? N : never;
}[InputName];
export type ChoiceOf<N extends ChoiceInput> = (typeof INPUTS)[N]['values'][number];

/** The runner's name for an input's variable: upper-cased, spaces to `_`, dashes kept. */
export const variableOf = (name: string) => `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;

/**
 * Inputs a run was given but does not read, said out loud: a misspelt input keeps its default
 * without a word otherwise (the runner's own "Unexpected input(s)" line is easy to miss).
 * - `unknownInputs`: an `INPUT_*` variable that names no input of `action.yml` (`with:
 *   deployment_type` reaches the action as `INPUT_DEPLOYMENT_TYPE`), with the closest input;
 * - `unusedInputs`: an input set to a value other than its default that the run's command or
 *   source does not read. The runner sets a variable for every declared input, holding its
 *   default when the workflow does not set it, so only a value other than that counts.
 */
export function unknownInputs(env: NodeJS.ProcessEnv): string[] {
  const known = new Set(Object.keys(INPUTS).map(variableOf));
  const unknown = Object.keys(env).filter((v) => v.startsWith('INPUT_') && !known.has(v));
  return unknown.sort().map((variable) => {
    const given = variable.slice('INPUT_'.length).toLowerCase();
    // The input whose name is the fewest single-character edits away (the first of equals).
    const [closest, distance] = Object.keys(INPUTS)
      .map((name) => [name, editDistance(given, name)] as const)
      .reduce((best, next) => (next[1] < best[1] ? next : best));
    const hint =
      distance <= Math.max(2, given.length / 3)
        ? `Did you mean \`${closest}\`?`
        : `No input is close to it (the closest is \`${closest}\`).`;
    return (
      `Input \`${given}\` is not an input of this action, so it is ignored (the runner passes ` +
      `it as ${variable}). ${hint} Input names use dashes; the inputs are listed in ` +
      'docs/reference.md.'
    );
  });
}

export function unusedInputs(env: NodeJS.ProcessEnv, config: Config): string[] {
  const source = config.command === 'deploy' ? config.source : undefined;
  return (Object.entries(INPUTS) as [InputName, InputSpec][]).flatMap(([name, spec]) => {
    const value = env[variableOf(name)]?.trim() ?? '';
    const fallback = defaultOf(name);
    // A default the runner evaluates (`${{ github.token }}`) cannot be compared.
    if (value === '' || value.toLowerCase() === fallback.toLowerCase() || fallback.includes('${{'))
      return [];
    const by =
      spec.use && !spec.use.includes(config.command)
        ? `\`command: ${config.command}\``
        : source && spec.usedWith && !spec.usedWith.includes(source)
          ? `\`source: ${source}\``
          : undefined;
    return by ? [`Input \`${name}\` is set, but ${by} does not use it: it is ignored.`] : [];
  });
}

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      next[j] = Math.min(substitution, row[j]! + 1, next[j - 1]! + 1);
    }
    row = next;
  }
  return row[b.length]!;
}
