/**
 * The request bodies of a create and an update, from the inputs, and the checks on what the
 * lookup found (same kind, same repository) or did not (what a create needs).
 */
import type {
  Deployment,
  DeploymentCreateRequest,
  RevisionCreateRequest,
  SourceConfigRequest,
} from '../api/schemas.js';
import type { Config } from '../inputs/config.js';
import { ActionError } from '../lib/errors.js';
import { inert } from '../lib/untrusted.js';

/**
 * Stops before an update that would deploy something other than the inputs describe. One
 * change of source is allowed: `source: upload` onto a deployment that `langgraph deploy` made
 * from a local image (`internal_docker`), as the CLI itself does (a notice says so).
 */
export function checkSameKind(config: Config, found: Deployment): void {
  if (config.source === 'upload' && found.source === 'internal_docker') return;
  if (found.source !== wireSource(config)) {
    throw new ActionError(
      `Deployment '${inert(found.name)}' (${inert(found.id)}) has source '${inert(found.source)}', but the inputs say ` +
        `'${config.source}' (input \`source\`, sent as '${wireSource(config)}'). Updating it ` +
        'would deploy something else; ' +
        'use another `name`, or fix `source`.',
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

/** The platform's name of the source: `upload` is its `internal_source`. */
export function wireSource(config: Config): string {
  return config.source === 'upload' ? 'internal_source' : config.source;
}

export function normalizeRepoUrl(url: string): string {
  return url
    .trim()
    .toLowerCase()
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

/** Checks that depend on the lookup: what a create needs. */
/** The inputs of a create: the name is known (`checkCreatable` proves it). */
export type CreatableConfig = Config & { name: string };

export function checkCreatable(config: Config): asserts config is CreatableConfig {
  if (config.source === 'github' && !config.integrationId) {
    throw new ActionError(
      `No deployment named '${config.name}' exists, so this run creates it, and creating a ` +
        '`github` deployment needs input `integration-id` (the GitHub integration ID, from ' +
        'LangSmith > Deployments > the GitHub integration, or GET /v1/integrations/github/install).',
      'Invalid input: integration-id',
    );
  }
  if (!config.name) {
    throw new ActionError(
      'Input `name` is required to create a deployment.',
      'Invalid input: name',
    );
  }
}

/** `install-command` / `build-command` as `source_config` fields (`github` and `upload`). */
export function buildCommandFields(
  config: Config,
): Pick<SourceConfigRequest, 'install_command' | 'build_command'> {
  return {
    ...(config.installCommand ? { install_command: config.installCommand } : {}),
    ...(config.buildCommand ? { build_command: config.buildCommand } : {}),
  };
}

export function createRequest(config: CreatableConfig): DeploymentCreateRequest {
  const secrets = config.secrets ?? [];
  if (config.source === 'github') {
    return {
      name: config.name,
      source: 'github',
      source_config: {
        integration_id: config.integrationId,
        repo_url: config.repoUrl,
        deployment_type: config.deploymentType,
        build_on_push: config.buildOnPush,
        ...buildCommandFields(config),
      },
      source_revision_config: {
        repo_ref: config.repoRef,
        langgraph_config_path: config.configPath,
      },
      secrets,
    };
  }
  return {
    name: config.name,
    source: 'external_docker',
    source_config: {
      ...(config.resourceSpec ? { resource_spec: config.resourceSpec } : {}),
      ...(config.customUrl ? { custom_url: config.customUrl } : {}),
      ...(config.listenerId ? { listener_id: config.listenerId } : {}),
      ...(config.k8sNamespace ? { listener_config: { k8s_namespace: config.k8sNamespace } } : {}),
    },
    source_revision_config: { image_uri: config.imageUri },
    secrets,
  };
}

/**
 * A new revision (`POST …/revisions`, or the PATCH of older installs: the same fields): only
 * what may change after creation; `secrets` only when the input is set.
 */
export function revisionRequest(config: Config): RevisionCreateRequest {
  const body: RevisionCreateRequest =
    config.source === 'github'
      ? {
          source_revision_config: {
            repo_ref: config.repoRef,
            langgraph_config_path: config.configPath,
          },
          ...(config.installCommand || config.buildCommand
            ? { source_config: buildCommandFields(config) }
            : {}),
        }
      : {
          source_revision_config: { image_uri: config.imageUri },
          ...(config.resourceSpec || config.customUrl
            ? {
                source_config: {
                  ...(config.resourceSpec ? { resource_spec: config.resourceSpec } : {}),
                  ...(config.customUrl ? { custom_url: config.customUrl } : {}),
                },
              }
            : {}),
        };
  if (config.secrets !== undefined) body.secrets = config.secrets;
  return body;
}
