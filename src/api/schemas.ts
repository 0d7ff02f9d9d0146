/**
 * Shapes of the control-plane API (LangSmith Deployment, `/v2`), written from its published
 * OpenAPI description. Responses are validated loosely: extra fields are kept, required ones
 * must be there, and enums the action only reports (statuses) are plain strings so that a
 * value the platform adds later does not break a deploy. One `zod` flavour in the whole action
 * (the classic API): the tests file is checked with it too, so `zod/mini` would only add a copy.
 */
import * as z from 'zod';

const nullableString = z.string().nullish();

const SecretSchema = z.looseObject({ name: z.string(), value: z.string() });

const SourceConfigSchema = z.looseObject({
  integration_id: nullableString,
  repo_url: nullableString,
  deployment_type: nullableString,
  build_on_push: z.boolean().nullish(),
  custom_url: nullableString,
  resource_spec: z.record(z.string(), z.unknown()).nullish(),
  listener_id: nullableString,
  listener_config: z.looseObject({ k8s_namespace: nullableString }).nullish(),
});

const SourceRevisionConfigSchema = z.looseObject({
  repo_ref: nullableString,
  langgraph_config_path: nullableString,
  image_uri: nullableString,
  repo_commit_sha: nullableString,
});

export const DeploymentSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  source: z.string(),
  source_config: SourceConfigSchema,
  source_revision_config: SourceRevisionConfigSchema,
  secrets: z.array(SecretSchema),
  tenant_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.string(),
  latest_revision_id: z.string().nullable(),
  active_revision_id: z.string().nullish(),
  /** The agent server's URL as LangSmith Cloud fills it (`source_config.custom_url` wins). */
  url: nullableString,
});
export type Deployment = z.infer<typeof DeploymentSchema>;

/** A page of a list: its items, and the offset the next page starts at. */
const listOf = <T extends z.ZodType>(item: T) =>
  z.looseObject({ resources: z.array(item), offset: z.number() });

export const DeploymentsListSchema = listOf(DeploymentSchema);
export type DeploymentsList = z.infer<typeof DeploymentsListSchema>;

export const RevisionSchema = z.looseObject({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.string(),
  source: z.string(),
  source_revision_config: SourceRevisionConfigSchema,
  /** Why the revision is in its status, when the platform says (untrusted text). */
  status_message: nullableString,
});
export type Revision = z.infer<typeof RevisionSchema>;

export const RevisionsListSchema = listOf(RevisionSchema);
export type RevisionsList = z.infer<typeof RevisionsListSchema>;

/**
 * `POST /v1/projects/{deployment_id}/revisions/{rev}/build_logs` (and `deploy_logs`): not in the
 * spec snapshot; the shape is the one the platform's `langgraph deploy` CLI reads
 * (`{logs: [{id, timestamp, level, message}], next_offset}`, timestamp epoch ms or a string).
 * Entries are kept loose and rendered tolerantly.
 */
export const RevisionLogsSchema = z.looseObject({
  logs: z.array(z.unknown()),
  next_offset: z.union([z.string(), z.number()]).nullish(),
});
export type RevisionLogs = z.infer<typeof RevisionLogsSchema>;

/**
 * `GET /v1/integrations/github/install` and `GET /v1/integrations/github/{id}/repos`: the
 * workspace's GitHub integrations (`name`: the GitHub account) and the repositories each may
 * build; only the fields the action reads.
 */
export const GithubIntegrationsSchema = z.array(
  z.looseObject({ id: z.string(), name: z.string() }),
);
export const GithubRepositoriesSchema = z.array(
  z.looseObject({ owner: z.string(), name: z.string() }),
);

/** 422 bodies (FastAPI's validation errors). */
export const HTTPValidationErrorSchema = z.looseObject({
  detail: z.array(
    z.looseObject({
      loc: z.array(z.union([z.string(), z.number()])),
      msg: z.string(),
      type: z.string(),
    }),
  ),
});
/** `POST /v2/deployments/{id}/upload-url`: a signed URL and the object path to build from. */
export const UploadTargetSchema = z.looseObject({
  upload_url: z.string().min(1),
  object_path: z.string().min(1),
});

/**
 * `POST /v2/deployments/{id}/push-token` (`internal_docker` only): a short-lived registry
 * token (user `oauth2accesstoken`) and where the deployment's images go, e.g.
 * `<host>/<path>` (the CLI's `request_push_token`; a scheme is tolerated and dropped).
 */
export const PushTokenSchema = z.looseObject({
  token: z.string().check(z.minLength(1)),
  // It starts with a host (`docker login` would take `-…` as a flag, and no host as Docker Hub).
  registry_url: z.string().check(z.regex(/^(?!([a-z][a-z0-9+.-]*:\/\/)?([^a-z0-9[]|$))/i)),
});

// Requests (built by the action; typed, not validated at run time).

/** The fields a request shares with the answer's shape: each optional, never null. */
type Sent<T> = { [K in keyof T as string extends K ? never : K]?: NonNullable<T[K]> };

/**
 * `POST /v2/deployments/{id}/revisions` (the API reference's "Create Deployment Revision"):
 * always makes a new revision and answers with it. `source_config` only with what changes;
 * `secrets` only when the run sends secrets (a sent list replaces the environment). The other
 * requests carry the same fields.
 */
export interface RevisionCreateRequest {
  source_config?: SourceConfigRequest;
  // Request-only fields stay out of the answers' schemas: an answer is never refused for them.
  source_revision_config: Sent<z.infer<typeof SourceRevisionConfigSchema>> & {
    source_tarball_path?: string;
  };
  secrets?: { name: string; value: string }[];
}

export type SourceConfigRequest = Sent<z.infer<typeof SourceConfigSchema>> & {
  install_command?: string;
  build_command?: string;
};

export type DeploymentCreateRequest = Required<RevisionCreateRequest> & {
  name: string;
  source: 'github' | 'external_docker' | 'internal_source' | 'internal_docker';
};

export type DeploymentPatchRequest = Partial<RevisionCreateRequest> & {
  revision_source?: 'internal_source' | 'internal_docker';
};
