/**
 * Action inputs → one typed, validated `Config`, with every problem reported at once (each
 * naming its input) before any network call.
 *
 * Every input is read with a literal `getInput('<name>')` call:
 * `__tests__/action-yml.test.ts` finds them that way and checks them against `action.yml` and
 * `./spec.ts`.
 *
 * An empty input means its default from `./spec.ts` (the runner passes the `action.yml`
 * default; local runs and tests may pass nothing).
 */
import type { BaseConfig, Config, DeployConfig, InputProblem, Target } from './config.js';
import { setSecret } from '../lib/untrusted.js';
import {
  Checks,
  feedbackHostFor,
  parseNameTemplate,
  REGION_CONTROL_PLANE_URLS,
  uiBaseUrlFor,
} from './validate.js';
import { getInput as inputOf, readGithubContext } from './config.js';
import { NO_SECRETS_ON_FORKS, parseSecrets } from './secrets.js';
import { SHA256_DIGEST } from '../api/registry.js';
import { choiceDefault, defaultOf, INPUTS, type InputName, type InputSpec } from './spec.js';
import { readEvalInputs } from './eval.js';

type DeployFields = Omit<DeployConfig, keyof BaseConfig | keyof Target>;
type SourceField = 'source' | 'configPath' | 'deploymentType' | 'buildOnPush';

/** The value of an input, `''` when not set. */
type Read = (name: InputName) => string;

export type ReadConfigResult =
  { ok: true; config: Config; notes: string[] } | { ok: false; problems: InputProblem[] };

/** `mask`: masks a secret value in the log (default `setSecret`); `loadTests`: see `readInputs`. */
type Deps = {
  mask?: (value: string) => void;
  loadTests?: typeof import('./tests-file.js').loadTestsFile;
};

/**
 * Reads and checks every input. `notes` are warnings to print on success (for example
 * about `build-on-push: true`).
 */
export function readConfig(env: NodeJS.ProcessEnv, deps: Deps = {}): ReadConfigResult {
  const mask = deps.mask ?? setSecret;
  const getInput: Read = (name) => inputOf(name, env);

  // Secrets first, before anything can print them.
  const apiKey = getInput('api-key');
  const githubToken = getInput('github-token');
  const secretsText = getInput('secrets');
  const parsedSecrets = parseSecrets(secretsText);
  for (const value of [apiKey, githubToken, ...parsedSecrets.sensitive]) if (value) mask(value);

  const { github, payloadProblem } = readGithubContext(env);
  const check = new Checks();
  if (payloadProblem) check.notes.push(payloadProblem);

  if (!apiKey) {
    check.problem(
      'api-key',
      'Input `api-key` is empty. Pass your LangSmith API key from a repository or ' +
        'organization secret, e.g. `api-key: ${{ secrets.LANGSMITH_API_KEY }}`. If that secret ' +
        `is set, this run did not receive it: ${NO_SECRETS_ON_FORKS}`,
    );
  }
  const workspaceId = check.uuid('workspace-id', getInput('workspace-id'));
  const region = check.oneOf('region', getInput('region'));
  const controlPlaneUrl =
    check.httpUrl('control-plane-url', getInput('control-plane-url'), true) ??
    REGION_CONTROL_PLANE_URLS[region ?? 'us'];
  const command = check.oneOf('command', getInput('command'));
  const nameInput = getInput('name');
  const deploymentIdInput = getInput('deployment-id');
  const name = command === 'prune' ? nameInput : check.name(nameInput);
  const deploymentId = check.uuid('deployment-id', deploymentIdInput);
  if (nameInput === '' && deploymentIdInput === '' && command !== 'prune') {
    check.problem(
      'name',
      command === 'delete' || command === 'rollback'
        ? `Set \`name\` or \`deployment-id\` to say which deployment to ${command === 'delete' ? 'delete' : 'roll back'}.`
        : command === 'registry-login'
          ? 'Set `name` (the deployment whose registry the image goes to; created when there is ' +
            'none) or `deployment-id` (an existing `internal_docker` deployment).'
          : 'Set `name` (the deployment to create or update) or `deployment-id` (an existing ' +
            'deployment to update).',
    );
  }
  const wait = check.boolean('wait', getInput('wait'));
  const environment = getInput('environment');

  const base: BaseConfig = {
    command: command ?? choiceDefault('command'),
    apiKey,
    ...(workspaceId && { workspaceId }),
    region: region ?? choiceDefault('region'),
    controlPlaneUrl,
    uiBaseUrl: uiBaseUrlFor(controlPlaneUrl),
    timeoutSeconds: check.seconds('timeout', getInput('timeout')),
    pollIntervalSeconds: check.seconds('poll-interval', getInput('poll-interval')),
    ...(githubToken && { githubToken }),
    prComment: check.boolean('pr-comment', getInput('pr-comment')),
    ...(environment && { environment }),
    github,
  };
  // `prune` cannot run without the token (a problem below); the others only lose their reports.
  if (!githubToken && command !== 'prune') {
    const lost = [
      base.prComment && github.pullRequest && 'the PR comment',
      environment && `the GitHub deployment of \`environment\` "${environment}"`,
    ].filter(Boolean);
    if (lost.length > 0) {
      check.notes.push(
        `Input \`github-token\` is empty, so this run skips ${lost.join(' and ')}. Leave the ` +
          'default (`${{ github.token }}`) or pass a token to have them; `pr-comment: false` ' +
          'and an empty `environment` turn them off.',
      );
    }
  }
  // Undefined only with a problem above (neither set, or one of them invalid).
  const target: Target | undefined = name
    ? { name, ...(deploymentId && { deploymentId }) }
    : deploymentId
      ? { deploymentId }
      : undefined;

  let config: Config | undefined;
  if (command === 'rollback') {
    const rollbackTo = check.uuid('rollback-to', getInput('rollback-to'));
    const healthCheck = check.boolean('health-check', getInput('health-check'));
    const fields = { command, wait, healthCheck, ...(rollbackTo && { rollbackTo }) };
    config = target && { ...base, ...target, ...fields };
  } else if (command === 'prune') {
    config = readPruneInputs(getInput, base, check);
  } else if (command === 'deploy') {
    const fields = readDeployInputs(getInput, base, check, env, wait);
    for (const message of parsedSecrets.problems) check.problem('secrets', message);
    if (secretsText !== '') fields.secrets = parsedSecrets.secrets;
    // Unlike other inputs, empty is a choice here (no feedback); unset is the default `ci`.
    const feedbackKey =
      env['INPUT_TESTS-FEEDBACK-KEY'] === undefined
        ? defaultOf('tests-feedback-key')
        : getInput('tests-feedback-key');
    if (feedbackKey !== '' && !/^[A-Za-z0-9_.:/-]{1,100}$/.test(feedbackKey)) {
      check.problem(
        'tests-feedback-key',
        `Input \`tests-feedback-key\` is "${feedbackKey}"; a feedback key is 1 to 100 letters, ` +
          'digits, `_`, `-`, `.`, `:` or `/` (for example `ci`), or empty for no feedback.',
      );
    }
    const tests = getInput('tests');
    if (tests !== '') {
      const loaded = deps.loadTests?.(github.workspace, tests);
      for (const message of loaded?.ok === false ? loaded.problems : []) {
        check.problem('tests', message);
      }
      fields.tests = {
        file: tests,
        cases: loaded?.ok ? loaded.cases : [],
        ...(feedbackKey !== '' && {
          feedbackKey,
          feedbackHost: feedbackHostFor(base.controlPlaneUrl, base.region),
        }),
      };
    }
    config = target && { ...base, ...target, ...fields, command };
  } else if (command === 'registry-login') {
    const deploymentType =
      check.oneOf('deployment-type', getInput('deployment-type')) ??
      choiceDefault('deployment-type');
    config = target && { ...base, ...target, command, deploymentType };
  } else if (command === 'delete') {
    const raw = getInput('delete-tracing-project');
    const deleteTracingProject = check.boolean('delete-tracing-project', raw);
    config = target && { ...base, ...target, command, wait, deleteTracingProject };
  }

  if (check.problems.length > 0 || !config) return { ok: false, problems: check.problems };
  return { ok: true, config, notes: check.notes };
}

function readPruneInputs(getInput: Read, base: BaseConfig, check: Checks): Config | undefined {
  const name = getInput('name');
  const template = parseNameTemplate(name);
  if (name === '') {
    check.problem(
      'name',
      'Input `name` is empty: `command: prune` needs the name template of the previews, e.g. ' +
        '`name: my-agent-pr-{pr}` (the number of each pull request in place of `{pr}`).',
    );
  } else if (!template.ok) check.problem('name', template.message);
  if (getInput('deployment-id') !== '') {
    check.problem(
      'deployment-id',
      '`command: prune` finds its deployments by the `name` template, not by ID: remove ' +
        '`deployment-id` (use `command: delete` to remove one deployment by ID).',
    );
  }
  const { githubToken, environment } = base;
  if (!githubToken) {
    check.problem(
      'github-token',
      'Input `github-token` is empty: `command: prune` reads the state of each pull request from ' +
        'the GitHub API. Leave the default (`${{ github.token }}`) with `permissions: ' +
        'pull-requests: read`, or pass a token that can read pull requests.',
    );
  }
  if (environment !== undefined && !environment.includes('{pr}')) {
    check.problem(
      'environment',
      `Input \`environment\` is "${environment}": with \`command: prune\` it names the ` +
        'GitHub environment of each pruned preview and must hold `{pr}`, e.g. ' +
        '`environment: preview-pr-{pr}`. Leave it empty to leave GitHub deployments alone.',
    );
  }
  const dryRun = check.boolean('dry-run', getInput('dry-run'));
  const raw = getInput('delete-tracing-project');
  const deleteTracingProject = check.boolean('delete-tracing-project', raw);
  if (!githubToken || !template.ok) return undefined;
  const fields = { template: template.value, githubToken, dryRun, deleteTracingProject };
  return { ...base, command: 'prune', ...fields };
}

/**
 * `readConfig` with the inputs that name files of the checkout: the `tests` file is read and
 * validated (its validator is loaded only when `tests` is set), so its problems are input
 * errors reported with the others, before any request.
 */
export async function readInputs(env: NodeJS.ProcessEnv, deps: Deps = {}) {
  if (inputOf('tests', env) === '') return readConfig(env, deps);
  const { loadTestsFile } = await import('./tests-file.js');
  return readConfig(env, { ...deps, loadTests: loadTestsFile });
}

/** The inputs only `command: deploy` uses; `delete` ignores them. */
function readDeployInputs(
  getInput: Read,
  base: BaseConfig,
  check: Checks,
  env: NodeJS.ProcessEnv,
  wait: boolean,
): DeployFields {
  const source = check.oneOf('source', getInput('source'));
  // The fields of the source: their defaults, then what its inputs say.
  const config: Partial<DeployFields> & Pick<DeployFields, SourceField> = {
    source: source ?? choiceDefault('source'),
    configPath: defaultOf('config-path'),
    deploymentType: choiceDefault('deployment-type'),
    buildOnPush: defaultOf('build-on-push') === 'true',
  };

  // Inputs that only some sources use (`sources` in the spec): with another source, an error.
  if (source) {
    for (const [input, { sources }] of Object.entries(INPUTS) as [InputName, InputSpec][]) {
      if (!sources || getInput(input) === '' || sources.includes(source)) continue;
      const which = sources.map((s) => `\`source: ${s}\``).join(' or ');
      check.problem(
        input,
        `Input \`${input}\` applies only to ${which}, and this run deploys with ` +
          `\`source: ${source}\`. Remove \`${input}\`, or set ${which}.`,
      );
    }
  }

  if (source === 'github' || source === 'upload') {
    const installCommand = check.command('install-command', getInput('install-command'));
    if (installCommand) config.installCommand = installCommand;
    const buildCommand = check.command('build-command', getInput('build-command'));
    if (buildCommand) config.buildCommand = buildCommand;
    config.configPath = getInput('config-path') || defaultOf('config-path');
    config.deploymentType =
      check.oneOf('deployment-type', getInput('deployment-type')) ??
      choiceDefault('deployment-type');
  }
  const imageUri = getInput('image-uri');
  if (source === 'github') {
    const integrationId = getInput('integration-id');
    if (integrationId) config.integrationId = integrationId;
    const repoUrl = check.repoUrl(getInput('repo-url'), base.github);
    if (repoUrl) config.repoUrl = repoUrl;
    const repoRef = getInput('repo-ref') || check.derivedRepoRef(base.github, env, repoUrl);
    if (repoRef) config.repoRef = repoRef;
    config.buildOnPush = check.boolean('build-on-push', getInput('build-on-push'));
    if (config.buildOnPush && repoRef?.startsWith('refs/tags/')) {
      check.problem(
        'build-on-push',
        `Input \`build-on-push\` is true, but the ref to deploy is the tag ${repoRef}: a tag ` +
          'never moves, so the platform refuses to build it on push. Set `build-on-push: false` ' +
          '(this action deploys the tag itself), or deploy a branch.',
      );
    } else if (config.buildOnPush) {
      check.notes.push(
        `\`build-on-push\` is true: every push to ${repoRef ?? 'the branch'} then builds twice, ` +
          'once from the platform’s GitHub hook and once from this action. Set ' +
          '`build-on-push: false` to let this workflow alone decide what is deployed.',
      );
    }
  } else if (source === 'internal_docker') {
    const digest = /@(.*)$/.exec(imageUri)?.[1];
    if (!imageUri || (digest !== undefined && !SHA256_DIGEST.test(digest))) {
      check.problem(
        'image-uri',
        `Input \`image-uri\` is "${imageUri}": \`source: internal_docker\` needs the ` +
          'image pushed to the registry of `command: registry-login`, by digest (`sha256:` and ' +
          '64 lowercase hex digits) or by tag, e.g. ' +
          '`${{ steps.login.outputs.image }}@${{ steps.build.outputs.digest }}`.',
      );
    } else config.imageUri = imageUri;
  } else if (source === 'external_docker') {
    if (!imageUri) {
      check.problem(
        'image-uri',
        'Input `image-uri` is required with `source: external_docker`: give the image to ' +
          'deploy, e.g. `registry.example.com/my-agent:${{ github.sha }}`.',
      );
    } else config.imageUri = imageUri;
    const customUrl = check.httpUrl('custom-url', getInput('custom-url'));
    if (customUrl) config.customUrl = customUrl;
    const listenerId = getInput('listener-id');
    const k8sNamespace = getInput('k8s-namespace');
    if (listenerId) config.listenerId = listenerId;
    if (k8sNamespace && !listenerId) {
      check.problem(
        'k8s-namespace',
        'Input `k8s-namespace` needs `listener-id`: the namespace is one of the listener’s. ' +
          'Set `listener-id` as well (the IDs are listed by GET /v2/listeners), or remove ' +
          '`k8s-namespace`.',
      );
    } else if (k8sNamespace) config.k8sNamespace = k8sNamespace;
    const resourceSpec = check.jsonObject('resource-spec', getInput('resource-spec'));
    if (resourceSpec) config.resourceSpec = resourceSpec;
  }

  const smokeTest = getInput('smoke-test');
  const smokeTestAssistant = getInput('smoke-test-assistant');
  const fields: DeployFields = {
    ...config,
    wait,
    skipUnchanged: check.boolean('skip-unchanged', getInput('skip-unchanged')),
    interruptPrevious: check.boolean('interrupt-previous', getInput('interrupt-previous')),
    healthCheck: check.boolean('health-check', getInput('health-check')),
    buildLog: check.oneOf('build-log', getInput('build-log')) ?? choiceDefault('build-log'),
    ...(smokeTest !== '' && { smokeTest: check.json('smoke-test', smokeTest)?.value }),
    ...(smokeTestAssistant && { smokeTestAssistant }),
    rollbackOnFailure: check.boolean('rollback-on-failure', getInput('rollback-on-failure')),
  };
  const evaluation = readEvalInputs(getInput, check, base, wait);
  if (evaluation) fields.evaluation = evaluation;
  if (smokeTestAssistant && smokeTest === '') {
    check.notes.push('`smoke-test-assistant` is set but `smoke-test` is empty: no smoke run.');
  }
  if (fields.rollbackOnFailure && !wait) {
    check.notes.push(
      '`rollback-on-failure` is true but `wait` is false: nothing is checked after the update, ' +
        'so nothing can trigger a rollback.',
    );
  }
  // An input the command does not read (`rollback-to` here) is a notice: `./spec.ts`.
  return fields;
}
