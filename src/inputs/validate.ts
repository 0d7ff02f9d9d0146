/**
 * The checks of single inputs, each naming its input in its message: `Checks` collects every
 * problem and note so that `readConfig` reports them all at once, and each check returns a
 * usable value either way. Also the control-plane URL of each region, its UI base URL and the
 * `name` template of `command: prune`.
 */
import type { GithubContext, InputProblem, Region } from './config.js';
import { PULL_REQUEST_EVENTS } from './config.js';
import { describeJsonError } from './secrets.js';
import { isRecord } from '../lib/text.js';
import { keyAllowedFor } from '../api/http/request.js';
import { defaultOf, INPUTS, type ChoiceInput, type ChoiceOf, type InputName } from './spec.js';

export const REGION_CONTROL_PLANE_URLS: Readonly<Record<Region, string>> = {
  us: 'https://api.host.langchain.com',
  eu: 'https://eu.api.host.langchain.com',
  apac: 'https://apac.api.host.langchain.com',
  'aws-us': 'https://aws.api.host.langchain.com',
};

/**
 * The LangSmith UI base for a control-plane URL, by the `langgraph deploy` CLI's rule:
 * `api.host.langchain.com` → `https://smith.langchain.com`, `<prefix>.api.host.langchain.com`
 * → `https://<prefix>.smith.langchain.com`; any other (self-hosted) install → the control-plane
 * URL without its `/api-host` suffix.
 */
export function uiBaseUrlFor(controlPlaneUrl: string): string {
  // `URL` lowercases the host of an http(s) URL.
  const host = URL.canParse(controlPlaneUrl) ? new URL(controlPlaneUrl).hostname : '';
  const cloud = /^(?:(.+)\.)?api\.host\.langchain\.com$/.exec(host);
  if (cloud) return `https://${cloud[1] ? `${cloud[1]}.` : ''}smith.langchain.com`;
  return controlPlaneUrl.replace(/\/+$/, '').replace(/\/api-host$/, '');
}

/** The platform's name rule as the `langgraph` CLI checks it: no hyphen at either end. */
const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_EXAMPLE = 'a UUID such as 3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** The inputs that hold a UUID: what each one is not, and where to find one. */
const UUID_INPUTS = {
  // Sent as `X-Tenant-Id`.
  'workspace-id':
    `is not a workspace ID (${UUID_EXAMPLE}). Copy it from Settings → Workspaces in ` +
    'LangSmith, or leave it empty for a workspace-scoped API key.',
  'deployment-id':
    `does not look like a deployment ID (${UUID_EXAMPLE}). Copy it from the deployment’s ` +
    'page in LangSmith or from the `deployment-id` output of an earlier run, or use `name` ' +
    'instead.',
  'rollback-to':
    `does not look like a revision ID (${UUID_EXAMPLE}). Copy it from the \`revision-id\` ` +
    'output of the run that deployed it, or from the Revisions tab of the deployment in ' +
    'LangSmith; leave it empty to serve the newest earlier revision that reached DEPLOYED.',
} as const;

/** Characters the platform refuses anywhere in a build or install command. */
const REFUSED: readonly [string, string][] = [
  ['"', 'a double quote (")'],
  ['`', 'a backtick (`)'],
  ['\\', 'a backslash (\\)'],
  ['\n', 'a newline'],
  ['\r', 'a carriage return'],
  ['\0', 'a NUL character'],
  ['\t', 'a tab'],
  ['|', 'a pipe (|)'],
  [';', 'a semicolon (;)'],
  ['$', 'a dollar sign ($)'],
  ['>', 'a redirection (>)'],
  ['<', 'a redirection (<)'],
];

/** A run of `&` of odd length: `cmd &` (background) is refused, `a && b` is allowed. */
const LONE_AMPERSAND = /(?<!&)&(?:&&)*(?!&)/;

export class Checks {
  readonly problems: InputProblem[] = [];
  readonly notes: string[] = [];

  /** Records a problem; `undefined`, so that a check can return it. */
  problem(input: InputName, message: string): undefined {
    this.problems.push({ input, message });
    return undefined;
  }

  /** `value`; `undefined` is a problem: the input is `raw`, and it must be `rule`. */
  private mustBe<T>(input: InputName, raw: string, value: T | undefined, rule: string) {
    if (value !== undefined) return value;
    return this.problem(input, `Input \`${input}\` is "${raw}"; it must be ${rule}.`);
  }

  /** A choice among the input's `values` in the spec; empty means its default. */
  oneOf<N extends ChoiceInput>(input: N, raw: string): ChoiceOf<N> | undefined {
    const allowed: readonly ChoiceOf<N>[] = INPUTS[input].values;
    const found = allowed.find((a) => a === (raw || defaultOf(input)).toLowerCase());
    return this.mustBe(input, raw, found, `one of ${allowed.map((a) => `\`${a}\``).join(', ')}`);
  }

  /** A boolean; empty means its default in the spec. */
  boolean(input: InputName, raw: string): boolean {
    const fallback = defaultOf(input) === 'true';
    if (raw === '') return fallback;
    const rule =
      'a boolean: true, True, TRUE, false, False or FALSE (YAML 1.2 core schema, as ' +
      '`core.getBooleanInput`)';
    const value = /^(true|True|TRUE|false|False|FALSE)$/.test(raw)
      ? raw.toLowerCase() === 'true'
      : undefined;
    return this.mustBe(input, raw, value, rule) ?? fallback;
  }

  /** A positive number of seconds; empty means its default in the spec. */
  seconds(input: InputName, raw: string): number {
    const example = `e.g. \`${defaultOf(input)}\` or \`0.5\``;
    const rule = `a positive number of seconds (decimals allowed, ${example})`;
    return this.number(input, raw, /^(\d+(\.\d*)?|\.\d+)$/.test(raw) && Number(raw) > 0, rule);
  }

  /** A whole number from 1 to `max`; empty means its default in the spec. */
  count(input: InputName, raw: string, max: number): number {
    const valid = /^\d+$/.test(raw) && Number(raw) >= 1 && Number(raw) <= max;
    return this.number(input, raw, valid, `a whole number from 1 to ${max}`);
  }

  /** `raw` as a number when `valid`; empty, or not valid (a problem): its default in the spec. */
  private number(input: InputName, raw: string, valid: boolean, rule: string): number {
    const fallback = Number(defaultOf(input));
    if (raw === '') return fallback;
    return this.mustBe(input, raw, valid ? Number(raw) : undefined, rule) ?? fallback;
  }

  name(raw: string): string | undefined {
    if (raw === '' || NAME_PATTERN.test(raw)) return raw;
    // The nearest valid name, when anything of `raw` is left.
    const nearest = raw
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '');
    return this.problem(
      'name',
      `Input \`name\` is "${raw}", which is not a valid deployment name: use only lowercase ` +
        'letters, digits and hyphens, not starting or ending with a hyphen (the platform’s ' +
        'rule), e.g. ' +
        (NAME_PATTERN.test(nearest) ? `\`${nearest}\`.` : '`my-agent` or `my-agent-pr-12`.'),
    );
  }

  /**
   * A build or install command the platform accepts, or `undefined` with a problem naming every
   * refused character found, so one run fixes them all: the platform's character rule, as the
   * `langgraph` CLI checks it (`has_disallowed_build_command_content`).
   */
  command(input: 'install-command' | 'build-command', raw: string): string | undefined {
    const found = REFUSED.filter(([char]) => raw.includes(char)).map(([, words]) => words);
    if (LONE_AMPERSAND.test(raw)) found.push('a lone & (background job; `&&` is allowed)');
    if (found.length === 0) return raw;
    return this.problem(
      input,
      `Input \`${input}\` is refused before any request: it holds ${found.join(', ')}, which ` +
        'the platform refuses in build commands (no quotes, backslashes, pipes, redirections, ' +
        'variables, `;` or background `&`; chaining with `&&` is allowed). Put complex steps in ' +
        'a script in the repository and call it, e.g. `sh ./scripts/build.sh`.',
    );
  }

  /** A UUID input (the platform's IDs are UUIDs), or `undefined` with a problem. */
  uuid(input: keyof typeof UUID_INPUTS, raw: string): string | undefined {
    if (raw === '' || UUID_PATTERN.test(raw)) return raw;
    return this.problem(input, `Input \`${input}\` is "${raw}", which ${UUID_INPUTS[input]}`);
  }

  /**
   * An `http(s)://` URL without query, fragment or trailing slash, or `undefined` (with a
   * problem when `raw` is set). Messages do not repeat the URL: it could carry credentials.
   * With `carriesApiKey`, plain http only to a loopback host (the API key's rule).
   */
  httpUrl(input: InputName, raw: string, carriesApiKey = false): string | undefined {
    if (raw === '') return undefined;
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    const why = !url
      ? 'is not a URL; give an absolute URL such as https://example.com.'
      : url.protocol !== 'https:' && url.protocol !== 'http:'
        ? `must start with https:// (it is ${url.protocol}//).`
        : carriesApiKey && !keyAllowedFor(url)
          ? `uses http:// with host ${url.hostname}: the API key would cross the network in ` +
            'clear text. Use https://; plain http:// is accepted only for localhost, ' +
            '127.0.0.1 and [::1].'
          : url.username || url.password || url.search || url.hash
            ? 'must be a plain base URL, without credentials, query (?…) or fragment (#…).'
            : undefined;
    if (url && why === undefined) return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    return this.problem(input, `Input \`${input}\` ${why}`);
  }

  /** `repo-url`, or `<server_url>/<repository>` of the workflow when it is empty. */
  repoUrl(raw: string, github: GithubContext): string | undefined {
    if (raw !== '') return this.httpUrl('repo-url', raw);
    if (github.repository) return `${github.serverUrl}/${github.repository}`;
    return this.problem(
      'repo-url',
      'Input `repo-url` is empty and GITHUB_REPOSITORY is not set, so the repository to deploy ' +
        'is unknown. Set `repo-url`, e.g. https://github.com/owner/repo.',
    );
  }

  /** `repo-ref` derived from the event (see INTERFACE.md, "`repo-ref` derivation"). */
  derivedRepoRef(github: GithubContext, env: NodeJS.ProcessEnv, repoUrl: string | undefined) {
    const pr = github.pullRequest;
    const fork = pr && pr.headRepoFullName.toLowerCase() !== pr.baseRepoFullName.toLowerCase();
    const headRef = pr?.headRef || env['GITHUB_HEAD_REF'] || '';
    let why: string;
    if (!PULL_REQUEST_EVENTS.has(github.eventName)) {
      if (github.ref.startsWith('refs/tags/')) return github.ref;
      if (github.ref.startsWith('refs/heads/')) return github.ref.slice('refs/heads/'.length);
      why =
        `Input \`repo-ref\` is empty and cannot be derived from GITHUB_REF ` +
        `"${github.ref}" (event ${github.eventName || 'unknown'}): it is neither a branch nor ` +
        'a tag. Set `repo-ref` to a branch name or to refs/tags/<tag>.';
    } else if (fork && !(repoUrl && pointsTo(repoUrl, pr.headRepoFullName))) {
      const base = pr.baseRepoFullName || github.repository;
      const head = pr.headRepoFullName || 'a fork that no longer exists';
      why =
        `Pull request #${pr.number} comes from ${head}, but LangSmith Deployment builds ` +
        `from the base repository ${base}, where its branch does not exist. To preview ` +
        'pull requests from forks, build an image in the workflow and deploy it with ' +
        '`source: external_docker`; or push the branch to the base repository; or set ' +
        '`repo-ref` to a branch of it.';
    } else {
      if (headRef) return headRef;
      why =
        `Input \`repo-ref\` is empty and the head branch of this ${github.eventName} event is ` +
        'unknown (no readable event payload, no GITHUB_HEAD_REF). Set `repo-ref` to the ' +
        'branch to deploy, e.g. `repo-ref: ${{ github.head_ref }}`.';
    }
    return this.problem('repo-ref', why);
  }

  /** Any JSON value; a problem with the position of the error otherwise. */
  json(input: InputName, raw: string): { value: unknown } | undefined {
    try {
      return { value: JSON.parse(raw) as unknown };
    } catch (error) {
      const why = describeJsonError(raw, error);
      return this.problem(input, `Input \`${input}\` is not valid JSON: ${why}.`);
    }
  }

  jsonObject(input: InputName, raw: string): Record<string, unknown> | undefined {
    // `undefined` when empty or not JSON (`JSON.parse` never returns it).
    const value = raw === '' ? undefined : this.json(input, raw)?.value;
    if (value === undefined || isRecord(value)) return value;
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return this.problem(input, `Input \`${input}\` must be a JSON object ({ … }), not ${kind}.`);
  }
}

/**
 * The host (with its port, when it has one) feedback may go to for this run's settings (a
 * validated `control-plane-url`). A region's LangSmith API host is its control plane's with
 * `host` for `smith`: `eu.api.host.langchain.com` → `eu.api.smith.langchain.com`.
 */
export function feedbackHostFor(controlPlaneUrl: string, region: Region): string {
  const regional = controlPlaneUrl === REGION_CONTROL_PLANE_URLS[region];
  const { host } = new URL(controlPlaneUrl);
  return regional ? host.replace('.host.', '.smith.') : host;
}

/** Whether a repository URL names `owner/name` (case-insensitive, `.git` optional). */
function pointsTo(repoUrl: string, fullName: string): boolean {
  if (!fullName) return false;
  const path = repoUrl.replace(/\.git$/, '').toLowerCase();
  return path.endsWith(`/${fullName.toLowerCase()}`);
}

const PR_PLACEHOLDER = '{pr}';

/** PR numbers are positive integers; ten digits is far beyond any repository's count. */
const PR_NUMBER = /^[1-9][0-9]{0,9}$/;

/**
 * The `name` template of `command: prune` (e.g. `my-agent-pr-{pr}`): exactly one `{pr}`, the
 * rest under the platform's name rule. A deployment matches when its whole name is the
 * template with a pull-request number (digits, no leading zero) in place of `{pr}`, between
 * the literal `prefix` and `suffix`.
 */
export type NameTemplate = Extract<ReturnType<typeof parseNameTemplate>, { ok: true }>['value'];

/** The template, or the problem with it (a message naming the `name` input). */
export function parseNameTemplate(raw: string) {
  const count = raw.split(PR_PLACEHOLDER).length - 1;
  const [prefix = '', suffix = ''] = raw.split(PR_PLACEHOLDER);
  const example = 'e.g. `name: my-agent-pr-{pr}`';
  const message =
    count === 0
      ? `Input \`name\` is "${raw}", which has no \`{pr}\`: \`command: prune\` needs a template ` +
        `that says where the pull-request number goes in the preview names, ${example} (the ` +
        'same pattern as the `name` of the preview workflow, with `{pr}` for the number).'
      : count > 1
        ? `Input \`name\` is "${raw}", which holds \`{pr}\` ${count} times: give it exactly once, ` +
          `${example}.`
        : !/^[a-z0-9-]*$/.test(prefix + suffix)
          ? `Input \`name\` is "${raw}": apart from \`{pr}\`, a name template may hold only ` +
            `lowercase letters, digits and hyphens (the platform's name rule), ${example}.`
          : undefined;
  if (message !== undefined) return { ok: false as const, message };
  return { ok: true as const, value: { template: raw, prefix, suffix } };
}

/**
 * The pull-request number when `name` is the template with a number in place of `{pr}`,
 * else `undefined` (`my-agent-pr-12` → 12; `my-agent-pr-12-old`, `my-agent-pr-x`,
 * `my-agent-pr-012` → undefined).
 */
export function matchTemplate(template: NameTemplate, name: string): number | undefined {
  const { prefix, suffix } = template;
  if (!name.startsWith(prefix) || !name.endsWith(suffix)) return undefined;
  // Empty when prefix and suffix overlap in `name`.
  const digits = name.slice(prefix.length, name.length - suffix.length);
  return PR_NUMBER.test(digits) ? Number(digits) : undefined;
}

/** The template with `pr` in place of `{pr}` (every occurrence). */
export function fillTemplate(template: string, pr: number): string {
  return template.split(PR_PLACEHOLDER).join(String(pr));
}

/**
 * What to pass as `name_contains` when listing: the literal prefix (the suffix when the template
 * starts with `{pr}`), or `undefined` for `{pr}` alone (then every deployment is listed).
 */
export function listFilter(template: NameTemplate): string | undefined {
  return template.prefix || template.suffix || undefined;
}
