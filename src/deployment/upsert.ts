/**
 * Create or update ("upsert") a deployment: POST when the lookup found none, else a new
 * revision (POST …/revisions) after checking it is the same kind. `source: upload` goes
 * through its own path (`upload/upload.ts`), which uses the same calls. Every write is made
 * safe against a lost answer: the run always learns which revision its own call created, and a
 * name never ends up with two deployments.
 */
import type {
  Deployment,
  DeploymentCreateRequest,
  DeploymentPatchRequest,
  Revision,
  RevisionCreateRequest,
} from '../api/schemas.js';
import type { DeployConfig } from '../inputs/config.js';
import { ActionError, ApiError } from '../lib/errors.js';
import { OutcomeUnknownError } from '../api/http/request.js';
import { inert, type Logger } from '../lib/untrusted.js';
import { canonicalJson } from '../lib/text.js';
import type { SourceArchive } from './upload/archive.js';
import type { TargetContext } from './target.js';
import { withRevision, writeOnce, type SentSource } from './lost-answer.js';
import { withOrigin } from './origin.js';

/** `sourceArchive`: with `source: upload`, the archive built before the lookup. */
export type UpsertContext = TargetContext & {
  config: DeployConfig;
  sourceArchive?: SourceArchive;
  /** `source: upload`: called right after the create, before the upload (the IDs go out). */
  onCreated?: (deployment: Deployment, created: boolean) => void;
};

export interface UpsertResult {
  deployment: Deployment;
  /** The revision this run's own create or update produced. */
  revisionId: string;
  created: boolean;
  /** The revision as its create call answered it (so the wait needs no first read). */
  revision?: Revision;
}

/** How many times a create or update whose outcome was unknown is attempted again. */
const MAX_UNKNOWN_OUTCOMES = 3;

export async function upsert(ctx: UpsertContext, found?: Deployment): Promise<UpsertResult> {
  if (!found) {
    checkCreatable(ctx.config);
    const config = await withIntegration(ctx, ctx.config);
    const made = await createDeployment({ ...ctx, config }, createRequest(config));
    if (made.created) return withRevision(ctx, made.deployment, 'create');
    found = made.deployment;
  }
  checkSameKind(ctx.config, found);
  const body = revisionRequest(mergeResourceSpec(ctx.config, found, ctx.logger));
  if (body.secrets) body.secrets = withOrigin(ctx.config, body.secrets, found);
  // The PATCH of older installs names the image source, as the `langgraph deploy` CLI does.
  const image = ctx.config.source === 'internal_docker';
  const patch = image ? { ...body, revision_source: 'internal_docker' as const } : body;
  return requestRevision(ctx, found, body, patch, false);
}

/**
 * Stops before an update that would deploy something other than the inputs describe. One
 * change of source is allowed: `source: upload` onto a deployment that `langgraph deploy` made
 * from a local image (`internal_docker`), as the CLI itself does (a notice says so).
 */
export function checkSameKind(config: Pick<DeployConfig, 'source' | 'repoUrl'>, found: Deployment) {
  if (config.source === 'upload' && found.source === 'internal_docker') return;
  // The platform's name of the source: `upload` is its `internal_source`.
  const wire = config.source === 'upload' ? 'internal_source' : config.source;
  if (found.source !== wire) {
    throw new ActionError(
      `Deployment '${inert(found.name)}' (${inert(found.id)}) has source '${inert(found.source)}', but the inputs say ` +
        `'${config.source}' (input \`source\`, sent as '${wire}'). Updating it ` +
        'would deploy something else; use another `name`, or fix `source`.',
      'Deployment of another kind',
    );
  }
  if (config.source === 'github' && config.repoUrl) {
    const theirs = found.source_config.repo_url ?? '';
    if (normalizeRepoUrl(theirs) !== normalizeRepoUrl(config.repoUrl)) {
      throw new ActionError(
        `Deployment '${inert(found.name)}' (${inert(found.id)}) deploys ${theirs || '(no repository)'}, but the inputs ` +
          `say ${config.repoUrl} (input \`repo-url\`). Updating it would deploy another repository; ` +
          'use another `name`, or fix `repo-url`.',
        'Deployment of another repository',
      );
    }
  }
}

/** A repository URL without case, trailing slashes and `.git`, to compare two. */
export function normalizeRepoUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/(\.git)?\/*$/, '');
}

/** The inputs of a create: the name is known (`checkCreatable` proves it). */
export type CreatableConfig = DeployConfig & { name: string };

export function checkCreatable(config: DeployConfig): asserts config is CreatableConfig {
  if (!config.name) {
    throw new ActionError(
      'Input `name` is required to create a deployment.',
      'Invalid input: name',
    );
  }
}

/**
 * `integration-id` left empty on a create with `source: github` (INTERFACE v1.3): the
 * workspace's GitHub integration whose repositories hold this repository (owner and name,
 * any case), found with `GET /v1/integrations/github/install` and `…/{id}/repos`.
 */
export async function withIntegration(ctx: UpsertContext, config: CreatableConfig) {
  const { client, logger } = ctx;
  if (config.source !== 'github' || config.integrationId) return config;
  const repository = normalizeRepoUrl(config.repoUrl ?? '')
    .split('/')
    .slice(-2)
    .join('/');
  const holding = [];
  for (const integration of await client.listGithubIntegrations()) {
    const repos = await client.listGithubRepos(integration.id);
    if (repos.some((r) => `${r.owner}/${r.name}`.toLowerCase() === repository)) {
      holding.push(integration);
    }
  }
  const named = holding.map((i) => `${inert(i.id, 100)} (${inert(i.name, 100)})`).join(', ');
  if (holding.length === 1) {
    logger.notice(
      `Input \`integration-id\` is empty: creating '${config.name}' through GitHub integration ` +
        `${named.replace(' (', ' (account ')}, whose repositories include ${repository}.`,
      { title: 'GitHub integration found' },
    );
    return { ...config, integrationId: holding[0]!.id };
  }
  throw new ActionError(
    holding.length === 0
      ? `No GitHub integration of this workspace may build ${repository}, so deployment ` +
          `'${config.name}' cannot be created: install LangSmith's GitHub app on ${repository}: ` +
          'in LangSmith, Deployments → + New Deployment → Import from GitHub (Add new account), ' +
          'and grant it this repository; then re-run. Or set input `integration-id`.'
      : `${holding.length} GitHub integrations of this workspace may build ${repository}: ` +
          `${named}. Set input \`integration-id\` to the one to create '${config.name}' with.`,
    holding.length === 0
      ? 'No GitHub integration for this repository'
      : 'Invalid input: integration-id',
  );
}

/** `install-command` / `build-command` as `source_config` fields (`github` and `upload`). */
export function buildCommandFields(config: DeployConfig) {
  return {
    ...(config.installCommand ? { install_command: config.installCommand } : {}),
    ...(config.buildCommand ? { build_command: config.buildCommand } : {}),
  };
}

export function createRequest(config: CreatableConfig): DeploymentCreateRequest {
  const github = config.source === 'github';
  const { source_config: changes, source_revision_config } = revisionRequest(config);
  const { integrationId, repoUrl, deploymentType, buildOnPush, listenerId, k8sNamespace } = config;
  return {
    name: config.name,
    source: github ? 'github' : 'external_docker',
    source_config: github
      ? {
          integration_id: integrationId,
          repo_url: repoUrl,
          deployment_type: deploymentType,
          build_on_push: buildOnPush,
          ...changes,
        }
      : {
          ...changes,
          ...(listenerId ? { listener_id: listenerId } : {}),
          ...(k8sNamespace ? { listener_config: { k8s_namespace: k8sNamespace } } : {}),
        },
    source_revision_config,
    secrets: withOrigin(config, config.secrets ?? []),
  };
}

/**
 * A new revision (`POST …/revisions`, or the PATCH of older installs: the same fields): only
 * what may change after creation; `secrets` only when the input is set. A create sends more.
 */
export function revisionRequest(config: DeployConfig): RevisionCreateRequest {
  const github = config.source === 'github';
  const body: RevisionCreateRequest = {
    source_revision_config: github
      ? { repo_ref: config.repoRef, langgraph_config_path: config.configPath }
      : { image_uri: config.imageUri },
  };
  const changes = github
    ? buildCommandFields(config)
    : {
        ...(config.resourceSpec ? { resource_spec: config.resourceSpec } : {}),
        ...(config.customUrl ? { custom_url: config.customUrl } : {}),
      };
  if (Object.keys(changes).length > 0) body.source_config = changes;
  if (config.secrets !== undefined) body.secrets = config.secrets;
  return body;
}

/**
 * `resource-spec` on update: the platform replaces `source_config.resource_spec` whole, so the
 * keys given are merged over the live ones (as LangChain's Terraform provider does before each
 * revision), and the log says which keys change.
 */
export function mergeResourceSpec(config: DeployConfig, found: Deployment, logger: Logger) {
  const given = config.resourceSpec;
  const live = found.source_config.resource_spec;
  if (!given || !live) return config;
  const same = (key: string) => canonicalJson(given[key]) === canonicalJson(live[key]);
  const changed = Object.keys(given).filter((key) => !same(key));
  const kept = Object.keys(live).filter((key) => !Object.hasOwn(given, key));
  logger.info(
    inert(
      `resource-spec: merged with the live resource spec of '${found.name}': ` +
        `changes ${changed.join(', ') || 'no key'}` +
        (kept.length > 0 ? `; keeps ${kept.join(', ')}` : '') +
        ' (the platform replaces the whole object, so the keys not given are sent as they are live).',
      2000,
    ),
  );
  return { ...config, resourceSpec: { ...live, ...given } };
}

/**
 * A create the platform refused, explained: `error` with the advice that fits it (what it means
 * for this run and what to do), or `error` itself. The error's status and the server's detail
 * stay in the message.
 */
export function explainRefusal(error: unknown, name: string, deploymentType: string): unknown {
  if (!(error instanceof ApiError)) return error;
  return tracingProjectConflict(error, name) ?? typeRefused(error, deploymentType) ?? error;
}

/**
 * The type refused (a 400 or 422 that names it): the organization sells the other pricing's
 * types, so the error names them and the input.
 */
function typeRefused(error: ApiError, type: string): ActionError | undefined {
  if (![400, 422].includes(error.status ?? 0) || !/deployment[_ ]type/i.test(error.message)) {
    return undefined;
  }
  // The `deployment-type`s of usage-based pricing (since 1 October 2026); the rest are older.
  const usage = ['serverless', 'dedicated'].includes(type);
  return new ActionError(
    `${error.message}\nThe platform refused \`deployment-type: ${type}\`, a type of ` +
      (usage
        ? 'usage-based pricing. An organization still on the previous pricing (and a ' +
          'self-hosted install) creates the older types: set `deployment-type: dev` (or ' +
          '`prod`, `dev_free`, `dev_zero`, `dev_free_zero`).'
        : 'the previous pricing. An organization on usage-based pricing (since 1 October ' +
          '2026) creates `serverless` or `dedicated`: set `deployment-type: serverless` (the ' +
          'default) or `dedicated`.'),
    'Deployment type refused',
  );
}

/**
 * A create refused (HTTP 409: "There already exists a project in LangSmith named: <name>"): a
 * deployment of that name was deleted without `delete-tracing-project` (a reopened pull
 * request, typically), and its tracing project name is taken. The error gives the remedies.
 */
function tracingProjectConflict(error: ApiError, name: string): ActionError | undefined {
  if (error.status !== 409 || !/already exists a project in LangSmith named/i.test(error.message)) {
    return undefined;
  }
  const shown = inert(name, 100);
  return new ActionError(
    `Creating deployment '${shown}' was refused (HTTP 409): a LangSmith tracing project named ` +
      `'${shown}' already exists, and no deployment of that name does. A deployment of that name ` +
      'was deleted earlier without `delete-tracing-project: true` (for example when its pull ' +
      'request was closed, and the pull request has now been reopened), and its tracing project ' +
      `was kept. Remedies: delete the tracing project '${shown}' in LangSmith (Tracing projects; ` +
      'its traces go with it) and re-run this job; or, so that it does not happen again, give ' +
      'the cleanup job `delete-tracing-project: true`; or deploy under another `name`.',
    'Tracing project of that name exists',
  );
}

/**
 * POST /v2/deployments, never leaving two deployments of one name: a create whose answer was
 * lost looks the name up and adopts what it finds (`created: true`); a 400/409 whose name now
 * exists (a concurrent run) gives that deployment back with `created: false`, to update.
 */
export async function createDeployment(
  ctx: TargetContext & { config: Pick<DeployConfig, 'name' | 'source' | 'repoUrl'> },
  body: DeploymentCreateRequest,
): Promise<{ deployment: Deployment; created: boolean }> {
  const { client, config, logger } = ctx;
  for (let attempt = 1; ; attempt++) {
    try {
      logger.info(`Creating deployment '${config.name}' (source ${config.source}).`);
      return { deployment: await client.createDeployment(body), created: true };
    } catch (error) {
      // A lost answer: the platform may have created it anyway, so look before creating
      // again. A 400/409: perhaps a concurrent run created it first, and this run updates it.
      const lost = error instanceof OutcomeUnknownError;
      const refused = error instanceof ApiError && (error.status === 400 || error.status === 409);
      const type = body.source_config.deployment_type ?? '';
      const explained = () => explainRefusal(error, body.name, type);
      if (!lost && !refused) throw explained();
      if (lost) {
        logger.warning(
          `The create request for '${config.name}' got no usable answer (${error.message}); ` +
            'checking whether the deployment was created anyway.',
        );
      }
      const existing = await client.findDeploymentByName(body.name);
      if (existing) {
        // Someone else's deployment of another source or repository is not ours to adopt.
        checkSameKind(config, existing);
        logger.info(
          lost
            ? `Deployment '${inert(existing.name)}' (${inert(existing.id)}) exists: adopting it.`
            : `Deployment '${inert(existing.name)}' was created by someone else in the meantime; updating it instead.`,
        );
        return { deployment: existing, created: lost };
      }
      if (refused) throw explained();
      if (attempt >= MAX_UNKNOWN_OUTCOMES) throw error;
    }
  }
}

/**
 * A new revision of `found`: POST /v2/deployments/{id}/revisions with `body` (the answer is the
 * revision); without `body`, or on an install without that endpoint (404/405: then with a
 * notice), PATCH /v2/deployments/{id} with `patch` and the revision it made.
 */
export async function requestRevision(
  ctx: UpsertContext,
  found: Deployment,
  body: RevisionCreateRequest | undefined,
  patch: DeploymentPatchRequest,
  created: boolean,
): Promise<UpsertResult> {
  const { client, logger } = ctx;
  const name = `'${inert(found.name)}' (${inert(found.id)})`;
  const first = `Requesting the first revision of the new deployment ${name}.`;
  const send = <T>(what: string, line: string, call: () => Promise<T>, source: SentSource) =>
    writeOnce(ctx, found, what, MAX_UNKNOWN_OUTCOMES, source, () => {
      logger.info(created ? first : line);
      return call();
    });
  if (body) {
    const post = () => client.createRevision(found.id, body);
    const line = `Requesting a new revision of ${name}.`;
    const sent = await send('new revision', line, post, body.source_revision_config);
    if (!('answer' in sent)) return { ...sent, created };
    if (typeof sent.answer === 'object') {
      return { deployment: found, revisionId: sent.answer.id, revision: sent.answer, created };
    }
    logger.notice(
      `The control plane does not offer POST /v2/deployments/{id}/revisions (HTTP ${sent.answer}); ` +
        'updating the deployment with PATCH instead, as older installs expect.',
      { title: 'Revision requested with PATCH' },
    );
  }
  const update = () => client.patchDeployment(found.id, patch);
  const line = `Updating deployment ${name}.`;
  const sent = await send('update', line, update, patch.source_revision_config);
  if (!('answer' in sent)) return { ...sent, created };
  return withRevision(ctx, sent.answer, created ? 'create' : 'update', found.latest_revision_id);
}
