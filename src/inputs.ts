/**
 * Action inputs → one typed, validated `Config`, with every problem reported at once (each
 * naming its input) before any network call.
 *
 * This module is on the cold-start path of a run that fails on an input error, so it uses
 * only Node built-ins and our own small modules (not zod: loading `zod/mini` alone costs
 * about 50 ms, more than everything else here). Every input is read with a literal
 * `getInput('<name>', env)` call: `__tests__/action-yml.test.ts` finds them that way and
 * checks them against `action.yml`.
 *
 * An empty input means its default (the runner passes the `action.yml` default; local runs
 * and tests may pass nothing).
 */
import type { Config, GithubContext, InputProblem, Region, Source } from './config.js';
import { eventPayloadProblem, isPullRequestEvent, readGithubContext } from './context.js';
import { parseNameTemplate } from './prune/template.js';
import { getInput, parseBoolean, setSecret } from './runner.js';
import { describeJsonError, parseSecrets } from './secrets.js';
import { describeRefusedCommand } from './source/build-commands.js';

/** Every input of `action.yml`, in its order. */
export const INPUT_NAMES = [
  'api-key',
  'workspace-id',
  'region',
  'control-plane-url',
  'command',
  'name',
  'deployment-id',
  'source',
  'integration-id',
  'repo-url',
  'repo-ref',
  'config-path',
  'image-uri',
  'custom-url',
  'listener-id',
  'k8s-namespace',
  'deployment-type',
  'build-on-push',
  'secrets',
  'resource-spec',
  'dry-run',
  'skip-unchanged',
  'interrupt-previous',
  'install-command',
  'build-command',
  'wait',
  'timeout',
  'poll-interval',
  'health-check',
  'build-log',
  'smoke-test',
  'smoke-test-assistant',
  'rollback-on-failure',
  'rollback-to',
  'tests',
  'tests-feedback-key',
  'delete-tracing-project',
  'github-token',
  'pr-comment',
  'environment',
] as const;

export type InputName = (typeof INPUT_NAMES)[number];

export const REGION_CONTROL_PLANE_URLS: Readonly<Record<Region, string>> = {
  us: 'https://api.host.langchain.com',
  eu: 'https://eu.api.host.langchain.com',
  apac: 'https://apac.api.host.langchain.com',
  'aws-us': 'https://aws.api.host.langchain.com',
};

const CLOUD_API_HOST = 'api.host.langchain.com';

/**
 * The LangSmith UI base for a control-plane URL, by the `langgraph deploy` CLI's rule:
 * `api.host.langchain.com` → `https://smith.langchain.com`, `<prefix>.api.host.langchain.com`
 * → `https://<prefix>.smith.langchain.com`; any other (self-hosted) install → the control-plane
 * URL without its `/api-host` suffix.
 */
export function uiBaseUrlFor(controlPlaneUrl: string): string {
  let host: string;
  try {
    host = new URL(controlPlaneUrl).hostname.toLowerCase();
  } catch {
    return controlPlaneUrl.replace(/\/api-host$/, '');
  }
  if (host === CLOUD_API_HOST) return 'https://smith.langchain.com';
  if (host.endsWith(`.${CLOUD_API_HOST}`)) {
    return `https://${host.slice(0, -(CLOUD_API_HOST.length + 1))}.smith.langchain.com`;
  }
  return controlPlaneUrl.replace(/\/+$/, '').replace(/\/api-host$/, '');
}

const REGIONS = ['us', 'eu', 'apac', 'aws-us'] as const;
const BUILD_LOG_MODES = ['tail', 'stream', 'off'] as const;
const COMMANDS = ['deploy', 'delete', 'rollback', 'prune'] as const;
const SOURCES = ['github', 'external_docker', 'upload'] as const;
const DEPLOYMENT_TYPES = ['dev_free', 'dev', 'prod'] as const;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const NAME_PATTERN = /^[a-z0-9-]+$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SECONDS_PATTERN = /^(\d+(\.\d*)?|\.\d+)$/;

const NO_SECRETS_ON_FORKS =
  'GitHub does not pass secrets to workflows triggered from forks or by Dependabot ' +
  '(Dependabot has its own secrets store).';

/**
 * Inputs without a default that only some sources use: giving one with another source is an
 * error.
 */
const ONLY_FOR = {
  'integration-id': ['github'],
  'repo-url': ['github'],
  'repo-ref': ['github'],
  'image-uri': ['external_docker'],
  'custom-url': ['external_docker'],
  'listener-id': ['external_docker'],
  'k8s-namespace': ['external_docker'],
  'resource-spec': ['external_docker'],
  'install-command': ['github', 'upload'],
  'build-command': ['github', 'upload'],
} as const satisfies Partial<Record<InputName, readonly Source[]>>;

type SourceInput = keyof typeof ONLY_FOR;

export type ReadConfigResult =
  { ok: true; config: Config; notes: string[] } | { ok: false; problems: InputProblem[] };

export interface ReadConfigDeps {
  /** Masks a secret value in the log; default `setSecret`. */
  mask?: (value: string) => void;
  /** The GitHub context; default `readGithubContext(env)`. */
  github?: GithubContext;
}

/**
 * Reads and checks every input. `notes` are warnings to print on success (for example
 * about `build-on-push: true`).
 */
export function readConfig(env: NodeJS.ProcessEnv, deps: ReadConfigDeps = {}): ReadConfigResult {
  const mask = deps.mask ?? setSecret;

  // Secrets first, before anything can print them.
  const apiKey = getInput('api-key', env);
  if (apiKey) mask(apiKey);
  const githubToken = getInput('github-token', env);
  if (githubToken) mask(githubToken);
  const secretsText = getInput('secrets', env);
  const parsedSecrets = parseSecrets(secretsText);
  for (const value of parsedSecrets.sensitive) mask(value);

  const github = deps.github ?? readGithubContext(env);
  const check = new Checks();
  const payloadProblem = deps.github ? undefined : eventPayloadProblem(env);
  if (payloadProblem) check.note(payloadProblem);

  if (!apiKey) {
    check.problem(
      'api-key',
      'Input `api-key` is empty. Pass your LangSmith API key from a repository or ' +
        'organization secret, e.g. `api-key: ${{ secrets.LANGSMITH_API_KEY }}`. If that secret ' +
        `is set, this run did not receive it: ${NO_SECRETS_ON_FORKS}`,
    );
  }
  const workspaceId = getInput('workspace-id', env);
  const region = check.oneOf('region', getInput('region', env), REGIONS, 'us');
  const controlPlane = check.controlPlaneUrl(getInput('control-plane-url', env), region);
  const command = check.oneOf('command', getInput('command', env), COMMANDS, 'deploy');
  const nameInput = getInput('name', env);
  const deploymentIdInput = getInput('deployment-id', env);
  const name = command === 'prune' ? nameInput : check.name(nameInput);
  const deploymentId = check.deploymentId(deploymentIdInput);
  if (nameInput === '' && deploymentIdInput === '' && command !== 'prune') {
    check.problem(
      'name',
      command === 'delete' || command === 'rollback'
        ? `Set \`name\` or \`deployment-id\` to say which deployment to ${command === 'delete' ? 'delete' : 'roll back'}.`
        : 'Set `name` (the deployment to create or update) or `deployment-id` (an existing ' +
            'deployment to update).',
    );
  }
  const wait = check.boolean('wait', getInput('wait', env), true);
  const timeoutSeconds = check.seconds('timeout', getInput('timeout', env), 1800);
  const pollIntervalSeconds = check.seconds('poll-interval', getInput('poll-interval', env), 15);
  const prComment = check.boolean('pr-comment', getInput('pr-comment', env), true);
  const environment = getInput('environment', env);

  const config: Config = {
    command: command ?? 'deploy',
    apiKey,
    ...(workspaceId && { workspaceId }),
    region: region ?? 'us',
    controlPlaneUrl: controlPlane.url,
    uiBaseUrl: controlPlane.uiBaseUrl,
    ...(name && { name }),
    ...(deploymentId && { deploymentId }),
    wait,
    timeoutSeconds,
    pollIntervalSeconds,
    source: 'github',
    configPath: 'langgraph.json',
    deploymentType: 'dev',
    buildOnPush: false,
    skipUnchanged: true,
    interruptPrevious: true,
    healthCheck: true,
    buildLog: 'tail',
    deleteTracingProject: false,
    ...(githubToken && { githubToken }),
    prComment,
    ...(environment && { environment }),
    github,
  };

  if (command === 'delete') {
    config.deleteTracingProject = check.boolean(
      'delete-tracing-project',
      getInput('delete-tracing-project', env),
      false,
    );
  } else if (command === 'rollback') {
    const rollbackTo = check.revisionId('rollback-to', getInput('rollback-to', env));
    if (rollbackTo) config.rollbackTo = rollbackTo;
    config.healthCheck = check.boolean('health-check', getInput('health-check', env), true);
  } else if (command === 'prune') {
    readPruneInputs(env, config, check, deploymentIdInput);
  } else if (command === 'deploy') {
    readDeployInputs(env, config, check);
    config.rollbackOnFailure = check.boolean(
      'rollback-on-failure',
      getInput('rollback-on-failure', env),
      false,
    );
    if (config.rollbackOnFailure && !wait) {
      check.note(
        '`rollback-on-failure` is true but `wait` is false: nothing is checked after the update, ' +
          'so nothing can trigger a rollback.',
      );
    }
    if (getInput('rollback-to', env) !== '') {
      check.note(
        '`rollback-to` applies only to `command: rollback`; this deploy ignores it. To serve the ' +
          'previous revision again when the checks fail, set `rollback-on-failure: true`.',
      );
    }
    for (const message of parsedSecrets.problems) check.problem('secrets', message);
    if (secretsText !== '') config.secrets = parsedSecrets.secrets;
  }

  if (check.problems.length > 0) return { ok: false, problems: check.problems };
  return { ok: true, config, notes: check.notes };
}

/** `command: prune`: `name` is a template with `{pr}`; it needs a token to read PR states. */
function readPruneInputs(
  env: NodeJS.ProcessEnv,
  config: Config,
  check: Checks,
  deploymentIdInput: string,
): void {
  const template = parseNameTemplate(config.name ?? '');
  if (config.name === undefined) {
    check.problem(
      'name',
      'Input `name` is empty: `command: prune` needs the name template of the previews, e.g. ' +
        '`name: my-agent-pr-{pr}` (the number of each pull request in place of `{pr}`).',
    );
  } else if (!template.ok) check.problem('name', template.message);
  if (deploymentIdInput !== '') {
    check.problem(
      'deployment-id',
      '`command: prune` finds its deployments by the `name` template, not by ID: remove ' +
        '`deployment-id` (use `command: delete` to remove one deployment by ID).',
    );
  }
  if (!config.githubToken) {
    check.problem(
      'github-token',
      'Input `github-token` is empty: `command: prune` reads the state of each pull request from ' +
        'the GitHub API. Leave the default (`${{ github.token }}`) with `permissions: ' +
        'pull-requests: read`, or pass a token that can read pull requests.',
    );
  }
  if (config.environment !== undefined && !config.environment.includes('{pr}')) {
    check.problem(
      'environment',
      `Input \`environment\` is "${config.environment}": with \`command: prune\` it names the ` +
        'GitHub environment of each pruned preview and must hold `{pr}`, e.g. ' +
        '`environment: preview-pr-{pr}`. Leave it empty to leave GitHub deployments alone.',
    );
  }
  config.dryRun = check.boolean('dry-run', getInput('dry-run', env), false);
  config.deleteTracingProject = check.boolean(
    'delete-tracing-project',
    getInput('delete-tracing-project', env),
    false,
  );
}

/**
 * `readConfig`, then the inputs that name files of the checkout: the `tests` file is read and
 * validated here (its validator is loaded only when `tests` is set), so its problems are input
 * errors reported with the others, before any request.
 */
export async function readInputs(
  env: NodeJS.ProcessEnv,
  deps: ReadConfigDeps = {},
): Promise<ReadConfigResult> {
  const read = readConfig(env, deps);
  const tests = getInput('tests', env);
  // Unlike other inputs, empty is a choice here (no feedback); unset is the default `ci`.
  const feedbackKey =
    env['INPUT_TESTS-FEEDBACK-KEY'] === undefined ? 'ci' : getInput('tests-feedback-key', env);
  const command = (getInput('command', env) || 'deploy').toLowerCase();
  if (command !== 'deploy') return read;
  const problems: InputProblem[] = read.ok ? [] : [...read.problems];
  if (feedbackKey !== '' && !FEEDBACK_KEY_PATTERN.test(feedbackKey)) {
    problems.push({
      input: 'tests-feedback-key',
      message:
        `Input \`tests-feedback-key\` is "${feedbackKey}"; a feedback key is 1 to 100 letters, ` +
        'digits, `_`, `-`, `.`, `:` or `/` (for example `ci`), or empty for no feedback.',
    });
  }
  if (tests === '') {
    if (problems.length > 0) return { ok: false, problems };
    return read;
  }
  const workspace = read.ok
    ? read.config.github.workspace
    : (deps.github?.workspace ?? (env['GITHUB_WORKSPACE'] || process.cwd()));
  const { loadTestsFile } = await import('./verify/tests-file.js');
  const loaded = loadTestsFile(workspace, tests);
  if (!loaded.ok) {
    for (const message of loaded.problems) problems.push({ input: 'tests', message });
  }
  if (problems.length > 0 || !read.ok || !loaded.ok) return { ok: false, problems };
  read.config.tests = {
    file: tests,
    cases: loaded.suite.cases,
    ...(feedbackKey !== '' ? { feedbackKey } : {}),
  };
  return read;
}

const FEEDBACK_KEY_PATTERN = /^[A-Za-z0-9_.:/-]{1,100}$/;

/** The inputs only `command: deploy` uses; `delete` ignores them. */
function readDeployInputs(env: NodeJS.ProcessEnv, config: Config, check: Checks): void {
  const source = check.oneOf('source', getInput('source', env), SOURCES, 'github');
  const given: Record<SourceInput, string> = {
    'integration-id': getInput('integration-id', env),
    'repo-url': getInput('repo-url', env),
    'repo-ref': getInput('repo-ref', env),
    'image-uri': getInput('image-uri', env),
    'custom-url': getInput('custom-url', env),
    'listener-id': getInput('listener-id', env),
    'k8s-namespace': getInput('k8s-namespace', env),
    'resource-spec': getInput('resource-spec', env),
    'install-command': getInput('install-command', env),
    'build-command': getInput('build-command', env),
  };

  if (source) {
    config.source = source;
    for (const [input, sources] of Object.entries(ONLY_FOR) as [SourceInput, readonly Source[]][]) {
      if (given[input] === '' || sources.includes(source)) continue;
      const which = sources.map((s) => `\`source: ${s}\``).join(' or ');
      check.problem(
        input,
        `Input \`${input}\` applies only to ${which}, and this run deploys with ` +
          `\`source: ${source}\`. Remove \`${input}\`, or set ${which}.`,
      );
    }
  }

  if (source === 'github' || source === 'upload') {
    for (const input of ['install-command', 'build-command'] as const) {
      const value = given[input];
      if (value === '') continue;
      const refused = describeRefusedCommand(value);
      if (refused)
        check.problem(input, `Input \`${input}\` is refused before any request: ${refused}.`);
      else if (input === 'install-command') config.installCommand = value;
      else config.buildCommand = value;
    }
  }

  if (source === 'upload') {
    config.configPath = getInput('config-path', env) || 'langgraph.json';
    config.deploymentType =
      check.oneOf('deployment-type', getInput('deployment-type', env), DEPLOYMENT_TYPES, 'dev') ??
      'dev';
  } else if (source === 'github') {
    if (given['integration-id']) config.integrationId = given['integration-id'];
    const repoUrl = check.repoUrl(given['repo-url'], config.github);
    if (repoUrl) config.repoUrl = repoUrl;
    const repoRef = given['repo-ref'] || check.derivedRepoRef(config.github, env, repoUrl);
    if (repoRef) config.repoRef = repoRef;
    config.configPath = getInput('config-path', env) || 'langgraph.json';
    config.deploymentType =
      check.oneOf('deployment-type', getInput('deployment-type', env), DEPLOYMENT_TYPES, 'dev') ??
      'dev';
    config.buildOnPush = check.boolean('build-on-push', getInput('build-on-push', env), false);
    if (config.buildOnPush && repoRef?.startsWith('refs/tags/')) {
      check.problem(
        'build-on-push',
        `Input \`build-on-push\` is true, but the ref to deploy is the tag ${repoRef}: a tag ` +
          'never moves, so the platform refuses to build it on push. Set `build-on-push: false` ' +
          '(this action deploys the tag itself), or deploy a branch.',
      );
    } else if (config.buildOnPush) {
      check.note(
        `\`build-on-push\` is true: every push to ${repoRef ?? 'the branch'} then builds twice, ` +
          'once from the platform’s GitHub hook and once from this action. Set ' +
          '`build-on-push: false` to let this workflow alone decide what is deployed.',
      );
    }
  } else if (source === 'external_docker') {
    if (given['image-uri']) config.imageUri = given['image-uri'];
    else {
      check.problem(
        'image-uri',
        'Input `image-uri` is required with `source: external_docker`: give the image to ' +
          'deploy, e.g. `registry.example.com/my-agent:${{ github.sha }}`.',
      );
    }
    const customUrl = check.httpUrl('custom-url', given['custom-url']);
    if (customUrl) config.customUrl = customUrl;
    if (given['listener-id']) config.listenerId = given['listener-id'];
    if (given['k8s-namespace']) {
      if (given['listener-id']) config.k8sNamespace = given['k8s-namespace'];
      else {
        check.problem(
          'k8s-namespace',
          'Input `k8s-namespace` needs `listener-id`: the namespace is one of the listener’s. ' +
            'Set `listener-id` as well (the IDs are listed by GET /v2/listeners), or remove ' +
            '`k8s-namespace`.',
        );
      }
    }
    const resourceSpec = check.jsonObject('resource-spec', given['resource-spec']);
    if (resourceSpec) config.resourceSpec = resourceSpec;
  }

  config.skipUnchanged = check.boolean('skip-unchanged', getInput('skip-unchanged', env), true);
  config.interruptPrevious = check.boolean(
    'interrupt-previous',
    getInput('interrupt-previous', env),
    true,
  );
  config.healthCheck = check.boolean('health-check', getInput('health-check', env), true);
  config.buildLog =
    check.oneOf('build-log', getInput('build-log', env), BUILD_LOG_MODES, 'tail') ?? 'tail';
  const smokeTest = getInput('smoke-test', env);
  if (smokeTest !== '') {
    const parsed = check.json('smoke-test', smokeTest);
    if (parsed.ok) config.smokeTest = parsed.value;
  }
  const smokeTestAssistant = getInput('smoke-test-assistant', env);
  if (smokeTestAssistant) {
    config.smokeTestAssistant = smokeTestAssistant;
    if (smokeTest === '') {
      check.note('`smoke-test-assistant` is set but `smoke-test` is empty: no smoke run.');
    }
  }
}

/** Collects problems and notes; each check returns a usable value either way. */
class Checks {
  readonly problems: InputProblem[] = [];
  readonly notes: string[] = [];

  problem(input: InputName, message: string): void {
    this.problems.push({ input, message });
  }

  note(message: string): void {
    this.notes.push(message);
  }

  oneOf<T extends string>(
    input: InputName,
    raw: string,
    allowed: readonly T[],
    fallback: T,
  ): T | undefined {
    const value = (raw || fallback).toLowerCase();
    const found = allowed.find((a) => a === value);
    if (found === undefined) {
      this.problem(
        input,
        `Input \`${input}\` is "${raw}"; it must be one of ${allowed.map((a) => `\`${a}\``).join(', ')}.`,
      );
    }
    return found;
  }

  boolean(input: InputName, raw: string, fallback: boolean): boolean {
    if (raw === '') return fallback;
    const value = parseBoolean(raw);
    if (value !== undefined) return value;
    this.problem(
      input,
      `Input \`${input}\` is "${raw}"; it must be a boolean: true, True, TRUE, false, False ` +
        'or FALSE (YAML 1.2 core schema, as `core.getBooleanInput`).',
    );
    return fallback;
  }

  seconds(input: InputName, raw: string, fallback: number): number {
    if (raw === '') return fallback;
    if (SECONDS_PATTERN.test(raw) && Number(raw) > 0) return Number(raw);
    this.problem(
      input,
      `Input \`${input}\` is "${raw}"; it must be a positive number of seconds (decimals ` +
        `allowed, e.g. \`${fallback}\` or \`0.5\`).`,
    );
    return fallback;
  }

  name(raw: string): string {
    if (raw === '' || NAME_PATTERN.test(raw)) return raw;
    this.problem(
      'name',
      `Input \`name\` is "${raw}", which is not a valid deployment name: use only lowercase ` +
        'letters, digits and hyphens (the platform’s rule), e.g. `my-agent` or `my-agent-pr-12`.',
    );
    return '';
  }

  deploymentId(raw: string): string {
    if (raw === '' || UUID_PATTERN.test(raw)) return raw;
    this.problem(
      'deployment-id',
      `Input \`deployment-id\` is "${raw}", which does not look like a deployment ID (a UUID ` +
        'such as 3fa85f64-5717-4562-b3fc-2c963f66afa6). Copy it from the deployment’s page in ' +
        'LangSmith or from the `deployment-id` output of an earlier run, or use `name` instead.',
    );
    return '';
  }

  /** A revision ID (a UUID, as the platform's revision IDs are), or '' with a problem. */
  revisionId(input: InputName, raw: string): string {
    if (raw === '' || UUID_PATTERN.test(raw)) return raw;
    this.problem(
      input,
      `Input \`${input}\` is "${raw}", which does not look like a revision ID (a UUID such as ` +
        '3fa85f64-5717-4562-b3fc-2c963f66afa6). Copy it from the `revision-id` output of the run ' +
        'that deployed it, or from the Revisions tab of the deployment in LangSmith; leave it ' +
        'empty to serve the newest earlier revision that reached DEPLOYED.',
    );
    return '';
  }

  /** The control-plane base URL and the UI base URL; a bad `control-plane-url` is a problem. */
  controlPlaneUrl(raw: string, region: Region | undefined): { url: string; uiBaseUrl: string } {
    const r = region ?? 'us';
    const regionUrl = REGION_CONTROL_PLANE_URLS[r];
    const byRegion = { url: regionUrl, uiBaseUrl: uiBaseUrlFor(regionUrl) };
    if (raw === '') return byRegion;
    const url = this.httpUrl('control-plane-url', raw, { loopbackOnlyForHttp: true });
    if (!url) return byRegion;
    return { url, uiBaseUrl: uiBaseUrlFor(url) };
  }

  /**
   * An `http(s)://` URL without query, fragment or trailing slash, or `undefined` (with a
   * problem when `raw` is set). Messages do not repeat the URL: it could carry credentials.
   */
  httpUrl(
    input: InputName,
    raw: string,
    options: { loopbackOnlyForHttp?: boolean } = {},
  ): string | undefined {
    if (raw === '') return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      this.problem(
        input,
        `Input \`${input}\` is not a URL; give an absolute URL such as https://example.com.`,
      );
      return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      this.problem(input, `Input \`${input}\` must start with https:// (it is ${url.protocol}//).`);
      return undefined;
    }
    if (
      options.loopbackOnlyForHttp &&
      url.protocol === 'http:' &&
      !LOOPBACK_HOSTS.has(url.hostname)
    ) {
      this.problem(
        input,
        `Input \`${input}\` uses http:// with host ${url.hostname}: the API key would cross the ` +
          'network in clear text. Use https://; plain http:// is accepted only for localhost, ' +
          '127.0.0.1 and [::1].',
      );
      return undefined;
    }
    if (url.username || url.password || url.search || url.hash) {
      this.problem(
        input,
        `Input \`${input}\` must be a plain base URL, without credentials, query (?…) or ` +
          'fragment (#…).',
      );
      return undefined;
    }
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  }

  /** `repo-url`, or `<server_url>/<repository>` of the workflow when it is empty. */
  repoUrl(raw: string, github: GithubContext): string | undefined {
    if (raw !== '') return this.httpUrl('repo-url', raw);
    if (github.repository) return `${github.serverUrl}/${github.repository}`;
    this.problem(
      'repo-url',
      'Input `repo-url` is empty and GITHUB_REPOSITORY is not set, so the repository to deploy ' +
        'is unknown. Set `repo-url`, e.g. https://github.com/owner/repo.',
    );
    return undefined;
  }

  /** `repo-ref` derived from the event (see INTERFACE.md, "`repo-ref` derivation"). */
  derivedRepoRef(
    github: GithubContext,
    env: NodeJS.ProcessEnv,
    repoUrl: string | undefined,
  ): string | undefined {
    if (isPullRequestEvent(github.eventName)) {
      const pr = github.pullRequest;
      if (pr && isFork(pr) && !(repoUrl && pointsTo(repoUrl, pr.headRepoFullName))) {
        const base = pr.baseRepoFullName || github.repository;
        const head = pr.headRepoFullName || 'a fork that no longer exists';
        this.problem(
          'repo-ref',
          `Pull request #${pr.number} comes from ${head}, but LangSmith Deployment builds ` +
            `from the base repository ${base}, where its branch does not exist. To preview ` +
            'pull requests from forks, build an image in the workflow and deploy it with ' +
            '`source: external_docker`; or push the branch to the base repository; or set ' +
            '`repo-ref` to a branch of it.',
        );
        return undefined;
      }
      const headRef = pr?.headRef || env['GITHUB_HEAD_REF'] || '';
      if (headRef) return headRef;
      this.problem(
        'repo-ref',
        `Input \`repo-ref\` is empty and the head branch of this ${github.eventName} event is ` +
          'unknown (no readable event payload, no GITHUB_HEAD_REF). Set `repo-ref` to the ' +
          'branch to deploy, e.g. `repo-ref: ${{ github.head_ref }}`.',
      );
      return undefined;
    }
    if (github.ref.startsWith('refs/tags/')) return github.ref;
    if (github.ref.startsWith('refs/heads/')) return github.ref.slice('refs/heads/'.length);
    this.problem(
      'repo-ref',
      `Input \`repo-ref\` is empty and cannot be derived from GITHUB_REF ` +
        `"${github.ref}" (event ${github.eventName || 'unknown'}): it is neither a branch nor ` +
        'a tag. Set `repo-ref` to a branch name or to refs/tags/<tag>.',
    );
    return undefined;
  }

  /** Any JSON value; a problem with the position of the error otherwise. */
  json(input: InputName, raw: string): { ok: true; value: unknown } | { ok: false } {
    try {
      return { ok: true, value: JSON.parse(raw) as unknown };
    } catch (error) {
      this.problem(
        input,
        `Input \`${input}\` is not valid JSON: ${describeJsonError(raw, error)}.`,
      );
      return { ok: false };
    }
  }

  jsonObject(input: InputName, raw: string): Record<string, unknown> | undefined {
    if (raw === '') return undefined;
    const parsed = this.json(input, raw);
    if (!parsed.ok) return undefined;
    const value = parsed.value;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
    this.problem(
      input,
      `Input \`${input}\` must be a JSON object ({ … }), not ${
        value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`
      }.`,
    );
    return undefined;
  }
}

function isFork(pr: NonNullable<GithubContext['pullRequest']>): boolean {
  return pr.headRepoFullName.toLowerCase() !== pr.baseRepoFullName.toLowerCase();
}

/** Whether a repository URL names `owner/name` (case-insensitive, `.git` optional). */
function pointsTo(repoUrl: string, fullName: string): boolean {
  if (!fullName) return false;
  const path = repoUrl.replace(/\.git$/, '').toLowerCase();
  return path.endsWith(`/${fullName.toLowerCase()}`);
}
