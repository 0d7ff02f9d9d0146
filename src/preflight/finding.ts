/** Shared types of the pre-flight checks (see `src/preflight/index.ts` for the public entry points). */

/** One problem (or doubt) found before any request. The caller turns it into an annotation. */
export interface Finding {
  level: 'error' | 'warning' | 'notice';
  message: string;
  /** The config key concerned, e.g. `webhooks.headers.Authorization`; `image-uri` for the image. */
  key?: string;
  /** Workspace-relative path (forward slashes) of the file the finding is about. */
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based, in UTF-16 code units. */
  column?: number;
}

/** One `${{ env.VAR }}` reference of a webhook header that the agent server will resolve at start. */
export interface EnvReference {
  variable: string;
  /** e.g. `webhooks.headers.X-Key`. */
  key: string;
  line?: number;
  column?: number;
}

export interface ParsedLangGraphConfig {
  /** Workspace-relative path (forward slashes). */
  file: string;
  text: string;
  json: unknown;
  /**
   * The references the agent server will look up at start: well-formed and within
   * `webhooks.env_prefix` (the others are already reported as errors).
   */
  envReferences: EnvReference[];
  /**
   * Variables the config itself provides: the keys of `env` when it is a mapping, or the
   * names in the `.env` file `env` points to when that file is in the workspace.
   */
  configEnvNames: string[];
}
