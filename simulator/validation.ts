/**
 * Request-body checks of POST and PATCH /v2/deployments, answered the way the platform (FastAPI
 * and pydantic) answers: every field error at once in a 422 `HTTPValidationError`, rules that
 * involve several fields as 400 `{detail}`.
 */
import { emptyRevisionConfig, emptySourceConfig, type DeploymentRecord } from './state.js';
import type { Secret, SimResponse, SourceConfig, SourceRevisionConfig } from './types.js';

export type Loc = (string | number)[];
export interface Issue {
  loc: Loc;
  msg: string;
  type: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const NAME_RULE = /^[a-z0-9-]+$/;
const SOURCES = ['github', 'external_docker', 'internal_source', 'internal_docker'];
/**
 * Deployment types by pricing: usage-based (since 1 October 2026; langgraph-cli 0.4.36), and the
 * previous one (the Terraform provider's list, internal/provider/deployment_resource.go).
 */
export const TYPE_FAMILIES = {
  'usage-based': ['serverless', 'dedicated'],
  previous: ['dev_free', 'dev', 'prod', 'dev_zero', 'dev_free_zero'],
} as const;
const DEPLOYMENT_TYPES = Object.values(TYPE_FAMILIES).flat();

/** Fields that belong to one source only (anything else set for them is refused). */
const GITHUB_ONLY_CONFIG = [
  'integration_id',
  'repo_url',
  'deployment_type',
  'build_on_push',
  'install_command',
  'build_command',
] as const;
const DOCKER_ONLY_CONFIG = [
  'custom_url',
  'resource_spec',
  'listener_id',
  'listener_config',
] as const;
const GITHUB_ONLY_REVISION = ['repo_ref', 'langgraph_config_path'] as const;
const DOCKER_ONLY_REVISION = ['image_uri'] as const;
/** `internal_source` (the CLI's remote build): only these of the GitHub fields apply. */
const NOT_FOR_UPLOAD_CONFIG = [
  'integration_id',
  'repo_url',
  'build_on_push',
  ...DOCKER_ONLY_CONFIG,
] as const;
const NOT_FOR_UPLOAD_REVISION = ['repo_ref', 'image_uri'] as const;
/** `internal_docker` (an image pushed to the platform's registry): only the image and the type. */
const NOT_FOR_IMAGE_CONFIG = [
  ...NOT_FOR_UPLOAD_CONFIG,
  'install_command',
  'build_command',
] as const;
const NOT_FOR_IMAGE_REVISION = [...GITHUB_ONLY_REVISION, 'source_tarball_path'] as const;
/** Cannot be changed by PATCH (per the spec's field descriptions). */
const IMMUTABLE_CONFIG = ['integration_id', 'repo_url', 'deployment_type', 'listener_id'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function validationError(issues: Issue[]): SimResponse {
  return { status: 422, body: { detail: issues } };
}

export function badRequest(detail: string): SimResponse {
  return { status: 400, body: { detail } };
}

/** Collects pydantic-style issues while reading a JSON body. */
class Reader {
  readonly issues: Issue[] = [];

  issue(loc: Loc, msg: string, type: string): undefined {
    this.issues.push({ loc, msg, type });
    return undefined;
  }

  /** `undefined` when absent (reported if required) or invalid; `null` when null. */
  object(v: unknown, loc: Loc, required = false): Record<string, unknown> | null | undefined {
    if (v === undefined) return required ? this.issue(loc, 'Field required', 'missing') : undefined;
    if (v === null && !required) return null;
    if (!isObject(v)) {
      return this.issue(
        loc,
        'Input should be a valid dictionary or object to extract fields from',
        'model_attributes_type',
      );
    }
    return v;
  }

  string(v: unknown, loc: Loc, required = false): string | null | undefined {
    if (v === undefined || (v === null && required)) {
      return required ? this.issue(loc, 'Field required', 'missing') : undefined;
    }
    if (v === null) return null;
    if (typeof v !== 'string')
      return this.issue(loc, 'Input should be a valid string', 'string_type');
    return v;
  }

  uuid(v: unknown, loc: Loc, required = false): string | null | undefined {
    const s = this.string(v, loc, required);
    if (typeof s === 'string' && !UUID.test(s)) {
      return this.issue(loc, `Input should be a valid UUID, got '${s}'`, 'uuid_parsing');
    }
    return s;
  }

  boolean(v: unknown, loc: Loc): boolean | null | undefined {
    if (v === undefined || v === null) return v;
    if (typeof v !== 'boolean')
      return this.issue(loc, 'Input should be a valid boolean', 'bool_type');
    return v;
  }

  oneOf(v: unknown, loc: Loc, allowed: string[], required = false): string | null | undefined {
    const s = this.string(v, loc, required);
    if (typeof s === 'string' && !allowed.includes(s)) {
      const list = allowed.map((a) => `'${a}'`);
      const text = list.length > 1 ? `${list.slice(0, -1).join(', ')} or ${list.at(-1)}` : list[0];
      return this.issue(loc, `Input should be ${text}`, 'enum');
    }
    return s;
  }

  secrets(v: unknown, loc: Loc, required: boolean): Secret[] | null | undefined {
    if (v === undefined) return required ? this.issue(loc, 'Field required', 'missing') : undefined;
    if (v === null && !required) return null;
    if (!Array.isArray(v)) return this.issue(loc, 'Input should be a valid list', 'list_type');
    const secrets: Secret[] = [];
    const before = this.issues.length;
    v.forEach((item, i) => {
      const o = this.object(item, [...loc, i], true);
      if (!o) return;
      const name = this.string(o.name, [...loc, i, 'name'], true);
      const value = this.string(o.value, [...loc, i, 'value'], true);
      if (typeof name === 'string' && typeof value === 'string') secrets.push({ name, value });
    });
    if (this.issues.length > before) return undefined;
    const seen = new Set<string>();
    for (const [i, s] of secrets.entries()) {
      if (seen.has(s.name)) {
        this.issue(
          [...loc, i, 'name'],
          `Value error, duplicate secret name '${s.name}'`,
          'value_error',
        );
      }
      seen.add(s.name);
    }
    return secrets;
  }

  /** Reads `source_config` fields that are present; returns only those. */
  sourceConfig(o: Record<string, unknown>, loc: Loc): Partial<SourceConfig> {
    const out: Partial<SourceConfig> = {};
    const set = <K extends keyof SourceConfig>(key: K, value: SourceConfig[K] | undefined) => {
      if (value !== undefined) out[key] = value;
    };
    set('integration_id', this.uuid(o.integration_id, [...loc, 'integration_id']));
    set('repo_url', this.string(o.repo_url, [...loc, 'repo_url']));
    set(
      'deployment_type',
      this.oneOf(o.deployment_type, [...loc, 'deployment_type'], DEPLOYMENT_TYPES),
    );
    set('build_on_push', this.boolean(o.build_on_push, [...loc, 'build_on_push']));
    set('custom_url', this.string(o.custom_url, [...loc, 'custom_url']));
    set('resource_spec', this.object(o.resource_spec, [...loc, 'resource_spec']));
    set('listener_id', this.uuid(o.listener_id, [...loc, 'listener_id']));
    const lc = this.object(o.listener_config, [...loc, 'listener_config']);
    if (lc) {
      const ns = this.string(lc.k8s_namespace, [...loc, 'listener_config', 'k8s_namespace']);
      out.listener_config = { k8s_namespace: ns ?? null };
    } else if (lc === null) out.listener_config = null;
    set('install_command', this.string(o.install_command, [...loc, 'install_command']));
    set('build_command', this.string(o.build_command, [...loc, 'build_command']));
    return out;
  }

  revisionConfig(o: Record<string, unknown>, loc: Loc): Partial<SourceRevisionConfig> {
    const out: Partial<SourceRevisionConfig> = {};
    for (const key of ['repo_ref', 'langgraph_config_path', 'image_uri', 'source_tarball_path']) {
      const value = this.string(o[key], [...loc, key]);
      if (value !== undefined) out[key as keyof SourceRevisionConfig] = value;
    }
    return out;
  }

  /** Refuses non-null fields that do not apply to `source`. */
  notApplicable(
    fields: Record<string, unknown>,
    keys: readonly string[],
    loc: Loc,
    source: string,
  ) {
    for (const key of keys) {
      if (fields[key] !== undefined && fields[key] !== null) {
        this.issue(
          [...loc, key],
          `Value error, ${key} is not applicable for source '${source}'`,
          'value_error',
        );
      }
    }
  }
}

export interface CreateInput {
  name: string;
  source: string;
  sourceConfig: SourceConfig;
  revisionConfig: SourceRevisionConfig;
  secrets: Secret[];
}

export function validateCreate(body: unknown): { input: CreateInput } | { error: SimResponse } {
  const r = new Reader();
  const root = r.object(body, ['body'], true);
  if (!root) return { error: validationError(r.issues) };
  const name = r.string(root.name, ['body', 'name'], true);
  if (typeof name === 'string' && !NAME_RULE.test(name)) {
    r.issue(
      ['body', 'name'],
      'Value error, name must contain only lowercase letters, digits and hyphens',
      'value_error',
    );
  }
  const source = r.oneOf(root.source, ['body', 'source'], SOURCES, true);
  const sc = r.object(root.source_config, ['body', 'source_config'], true);
  const src = r.object(root.source_revision_config, ['body', 'source_revision_config'], true);
  const secrets = r.secrets(root.secrets, ['body', 'secrets'], true);
  const config = sc ? r.sourceConfig(sc, ['body', 'source_config']) : {};
  const revision = src ? r.revisionConfig(src, ['body', 'source_revision_config']) : {};

  const scLoc = ['body', 'source_config'];
  const srcLoc = ['body', 'source_revision_config'];
  if (source === 'github' && sc && src) {
    if (config.integration_id == null && sc.integration_id == null) {
      r.issue([...scLoc, 'integration_id'], 'Field required', 'missing');
    }
    if (config.repo_url == null && sc.repo_url == null) {
      r.issue([...scLoc, 'repo_url'], 'Field required', 'missing');
    }
    if (revision.repo_ref == null && src.repo_ref == null) {
      r.issue([...srcLoc, 'repo_ref'], 'Field required', 'missing');
    }
    if (revision.langgraph_config_path == null && src.langgraph_config_path == null) {
      r.issue([...srcLoc, 'langgraph_config_path'], 'Field required', 'missing');
    }
    r.notApplicable(sc, DOCKER_ONLY_CONFIG, scLoc, source);
    r.notApplicable(src, [...DOCKER_ONLY_REVISION, 'source_tarball_path'], srcLoc, source);
  } else if (source === 'external_docker' && sc && src) {
    if (revision.image_uri == null && src.image_uri == null) {
      r.issue([...srcLoc, 'image_uri'], 'Field required', 'missing');
    }
    r.notApplicable(sc, GITHUB_ONLY_CONFIG, scLoc, source);
    r.notApplicable(src, [...GITHUB_ONLY_REVISION, 'source_tarball_path'], srcLoc, source);
  } else if (source === 'internal_docker' && sc && src) {
    r.notApplicable(sc, NOT_FOR_IMAGE_CONFIG, scLoc, source);
    r.notApplicable(src, NOT_FOR_IMAGE_REVISION, srcLoc, source);
  } else if (source === 'internal_source' && sc && src) {
    r.notApplicable(sc, NOT_FOR_UPLOAD_CONFIG, scLoc, source);
    r.notApplicable(src, [...NOT_FOR_UPLOAD_REVISION, 'source_tarball_path'], srcLoc, source);
  }
  if (r.issues.length > 0) return { error: validationError(r.issues) };

  const revisionConfig = { ...emptyRevisionConfig(), ...revision };
  const sourceConfig = { ...emptySourceConfig(), ...config };
  if (sourceConfig.build_on_push === true && revisionConfig.repo_ref?.startsWith('refs/tags/')) {
    return {
      error: badRequest(
        'source_config.build_on_push cannot be enabled when source_revision_config.repo_ref ' +
          'specifies a tag (starts with refs/tags/): tags are immutable.',
      ),
    };
  }
  return {
    input: { name: name!, source: source!, sourceConfig, revisionConfig, secrets: secrets! },
  };
}

export interface PatchInput {
  config: Partial<SourceConfig>;
  revision: Partial<SourceRevisionConfig>;
  secrets?: Secret[];
  /** True when the patch starts a new revision. */
  newRevision: boolean;
  /** `internal_source` when a PATCH turns a `langgraph deploy` image deployment into a remote build. */
  sourceChange?: 'internal_source';
}

/**
 * PATCH /v2/deployments/{id}, or (`asRevision`) POST /v2/deployments/{id}/revisions, whose
 * body has the same fields but no `revision_source` (it cannot change the source) and which
 * always makes a revision.
 */
export function validatePatch(
  body: unknown,
  dep: DeploymentRecord,
  latest: SourceRevisionConfig,
  asRevision = false,
): { input: PatchInput } | { error: SimResponse } {
  const r = new Reader();
  const root = r.object(body, ['body'], true);
  if (!root) return { error: validationError(r.issues) };
  if (asRevision && root.revision_source !== undefined) {
    r.issues.push({
      loc: ['body', 'revision_source'],
      msg: 'Extra inputs are not permitted',
      type: 'extra_forbidden',
    });
  }
  r.oneOf(
    root.revision_source,
    ['body', 'revision_source'],
    ['github', 'internal_docker', 'internal_source'],
  );
  const sc = r.object(root.source_config, ['body', 'source_config']);
  const src = r.object(root.source_revision_config, ['body', 'source_revision_config']);
  const secrets = r.secrets(root.secrets, ['body', 'secrets'], false);
  const config = sc ? r.sourceConfig(sc, ['body', 'source_config']) : {};
  const revision = src ? r.revisionConfig(src, ['body', 'source_revision_config']) : {};
  if (r.issues.length > 0) return { error: validationError(r.issues) };

  for (const key of IMMUTABLE_CONFIG) {
    if (config[key] != null) {
      return {
        error: badRequest(`source_config.${key} cannot be changed once the deployment is created.`),
      };
    }
  }
  if (config.listener_config?.k8s_namespace != null) {
    return {
      error: badRequest(
        'source_config.listener_config.k8s_namespace cannot be changed once the deployment is created.',
      ),
    };
  }
  const github = dep.source === 'github';
  // The CLI's remote build may take over a deployment it made from a local image.
  const sourceChange =
    !asRevision && dep.source === 'internal_docker' && root.revision_source === 'internal_source';
  const upload = dep.source === 'internal_source' || sourceChange;
  const image = dep.source === 'internal_docker' && !sourceChange;
  const foreignConfig: readonly (keyof SourceConfig)[] = upload
    ? NOT_FOR_UPLOAD_CONFIG
    : image
      ? NOT_FOR_IMAGE_CONFIG
      : github
        ? DOCKER_ONLY_CONFIG
        : GITHUB_ONLY_CONFIG;
  const foreignRevision: readonly (keyof SourceRevisionConfig)[] = upload
    ? NOT_FOR_UPLOAD_REVISION
    : image
      ? NOT_FOR_IMAGE_REVISION
      : [...(github ? DOCKER_ONLY_REVISION : GITHUB_ONLY_REVISION), 'source_tarball_path'];
  if (upload) {
    if (!asRevision && root.revision_source !== 'internal_source') {
      return {
        error: badRequest("revision_source must be 'internal_source' for this deployment."),
      };
    }
    if (revision.source_tarball_path == null) {
      return {
        error: validationError([
          {
            loc: ['body', 'source_revision_config', 'source_tarball_path'],
            msg: 'Field required',
            type: 'missing',
          },
        ]),
      };
    }
  }
  for (const key of foreignConfig) {
    if (key !== 'listener_config' && config[key] != null) {
      return {
        error: badRequest(`source_config.${key} is not applicable for source '${dep.source}'.`),
      };
    }
  }
  for (const key of foreignRevision) {
    if (revision[key] != null) {
      return {
        error: badRequest(
          `source_revision_config.${key} is not applicable for source '${dep.source}'.`,
        ),
      };
    }
  }
  const ref = revision.repo_ref ?? latest.repo_ref;
  const buildOnPush = config.build_on_push ?? dep.sourceConfig.build_on_push;
  if (buildOnPush === true && ref?.startsWith('refs/tags/')) {
    return {
      error: badRequest(
        'source_config.build_on_push cannot be enabled when source_revision_config.repo_ref ' +
          'specifies a tag (starts with refs/tags/): tags are immutable.',
      ),
    };
  }
  const newRevision =
    asRevision ||
    revision.repo_ref != null ||
    revision.langgraph_config_path != null ||
    revision.image_uri != null ||
    revision.source_tarball_path != null ||
    config.resource_spec != null ||
    (secrets !== undefined && secrets !== null);
  return {
    input: {
      config: stripNulls(config),
      revision: stripNulls(revision),
      secrets: secrets ?? undefined,
      newRevision,
      ...(sourceChange ? { sourceChange: 'internal_source' as const } : {}),
    },
  };
}

function stripNulls<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as Partial<T>;
}
