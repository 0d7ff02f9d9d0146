/**
 * Pre-flight checks (the README's "What the action does", step 2): mistakes knowable before
 * any request, reported as findings (the caller annotates them) instead of a failed build or an
 * agent server that does not start. `preflightConfig` reads the checkout's LangGraph config and
 * runs one file per rule family on it (the keys' check is here); `checkImageUri` (below) is the
 * `external_docker` check, and `checkEnvReferences` (env.ts) the one that may wait for the
 * deployment's lookup.
 */
import { readdirSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { getNodeValue } from 'jsonc-parser';
import { isInside, readInsideWorkspace, refusalText } from '../lib/paths.js';
import type { DeployConfig, GithubContext } from '../inputs/config.js';
import type { Logger } from '../lib/untrusted.js';
import { Checker, child, properties, workspaceRelative } from './document.js';
import type { Finding, Node, ParsedLangGraphConfig } from './document.js';
import { checkEnv, checkEnvReferences } from './env.js';
import { checkCode } from './graphs.js';
import { checkWebhooks } from './webhooks.js';

export type { Finding, ParsedLangGraphConfig } from './document.js';
export { checkEnvReferences } from './env.js';

export interface PreflightResult {
  findings: Finding[];
  parsed?: ParsedLangGraphConfig;
  /** Set when the file is absent; the notice saying so is already in `findings`. */
  skipped?: string;
}

const INPUT = 'config-path';
const EXAMPLES = 'e.g. langgraph.json or apps/agent/langgraph.json';

/**
 * Reads and checks the LangGraph config. Pure: findings only, no logging. Without `secrets` (an
 * empty input) the variable check is left to the caller, for after the deployment's lookup.
 */
export function preflightConfig(
  config: Pick<DeployConfig, 'configPath' | 'secrets'> & {
    github: Pick<GithubContext, 'workspace'>;
  },
): PreflightResult {
  const workspace = resolve(config.github.workspace);
  const written = config.configPath;
  const absolute = resolve(workspace, written);
  const file = workspaceRelative(workspace, absolute);
  const inputError = (problem: string): PreflightResult => ({
    findings: [{ level: 'error', key: INPUT, message: `${INPUT} ${problem}` }],
  });
  const problem = isAbsolute(written)
    ? `"${written}" is an absolute path: give it relative to the repository root, ${EXAMPLES}.`
    : !isInside(workspace, absolute) || absolute === workspace
      ? `"${written}" points outside the repository: give a path inside it, relative to the repository root, ${EXAMPLES}.`
      : undefined;
  if (problem) return inputError(problem);
  // The one rule for reading from the checkout: real path inside it, not `.git`, a regular
  // file opened without blocking, at most 5 MB.
  const read = readInsideWorkspace(workspace, written, 5_000_000);
  // An empty workspace means no checkout step: the checks are just skipped.
  if (!read.ok && read.refusal === 'missing' && !holdsFiles(workspace)) {
    const skipped = `The LangGraph config checks were skipped: ${file} is not in the workspace (no checkout). Add actions/checkout before this step to check the config before deploying.`;
    return { findings: [{ level: 'notice', key: INPUT, message: skipped }], skipped };
  }
  if (!read.ok) {
    const refused: Partial<Record<typeof read.refusal, string>> = {
      // A workspace that holds files is a checkout: a config that is not in it is a wrong path
      // (or a wrong ref), and the platform would only fail on it minutes after the deployment
      // was created.
      missing: `${file} is not in the checked-out repository (${workspace}), so the platform would fail to build it, minutes after creating or updating the deployment. Fix ${INPUT} (relative to the repository root, ${EXAMPLES}), or check out the ref that holds the config.`,
      folder: `"${written}" is a folder: give the path of the config file, e.g. ${file}/langgraph.json.`,
      outside: `"${written}" is a symbolic link to a file outside the repository: the platform cannot read it. Point ${INPUT} at the real file in the repository.`,
      'too-large': `${file} is larger than 5 MB, too large for a LangGraph config: check that ${INPUT} names the langgraph.json file.`,
      unreadable: `${file} could not be read (${read.code ?? 'unknown error'}); check the file's permissions in the checkout.`,
    };
    return inputError(
      refused[read.refusal] ??
        `${file} ${refusalText(read.refusal)}: point ${INPUT} at the LangGraph config file in the repository.`,
    );
  }
  const c = new Checker(read.text, workspace, file);
  const root = c.root;
  if (!root) return { findings: c.findings };

  c.unknownKeys('', root, TOP_LEVEL_KEYS);
  checkKeys(c, root);
  checkCode(c, root);
  const configEnvNames = checkEnv(c, child(root, 'env'));
  const envReferences = checkWebhooks(c, root);
  const parsed = { file, json: getNodeValue(root), envReferences, configEnvNames };
  const names = config.secrets?.map((s) => s.name);
  if (names) c.findings.push(...checkEnvReferences(parsed, names));
  // Document order reads best in the annotations list.
  c.findings.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  return { findings: c.findings, parsed };
}

// Unknown top-level keys and keys given twice: suspicious, so warnings. The known keys: those
// of the langgraph CLI's Config (schemas.py / validate_config), plus `$schema`.
const TOP_LEVEL_KEYS = [
  '$schema',
  '_INTERNAL_docker_tag',
  'api_version',
  'auth',
  'base_image',
  'checkpointer',
  'dependencies',
  'dockerfile_lines',
  'encryption',
  'env',
  'graphs',
  'http',
  'image_distro',
  'keep_pkg_tools',
  'node_version',
  'pip_config_file',
  'pip_installer',
  'python_version',
  'store',
  'ui',
  'ui_config',
  'webhooks',
];

/** A key given twice in one object: JSON readers keep the last one, silently. */
function checkKeys(c: Checker, node: Node, path = ''): void {
  const seen = new Set<string>();
  for (const { key, keyNode, value } of properties(node)) {
    const full = path ? `${path}.${key}` : key;
    const message = `${full} is given more than once; only the last one is used. Remove the others.`;
    if (seen.has(key)) c.warning(full, keyNode, message);
    seen.add(key);
    checkKeys(c, value, full);
  }
  if (node.type === 'array') node.children?.forEach((v, i) => checkKeys(c, v, `${path}[${i}]`));
}

/** Whether the workspace exists and holds anything: a checkout. */
function holdsFiles(workspace: string): boolean {
  try {
    return readdirSync(workspace).length > 0;
  } catch {
    return false;
  }
}

/** Emits one annotation per finding; returns true when any is an error. */
export function reportFindings(logger: Logger, findings: Finding[]): boolean {
  for (const { level, message, key, file, line, column } of findings) {
    logger[level](message, {
      title: file ? `LangGraph config: ${key ?? file}` : `Pre-flight check: ${key ?? 'input'}`,
      ...(file && { file }),
      ...(line !== undefined && { startLine: line }),
      ...(column !== undefined && { startColumn: column }),
    });
  }
  return findings.some((f) => f.level === 'error');
}

/**
 * `image-uri` against the Docker reference grammar (distribution/reference):
 *
 *   reference  := name [ ":" tag ] [ "@" digest ]
 *   name       := [ domain "/" ] path-component ( "/" path-component )*
 *   domain     := host [ ":" port ]        (the first component, when it has "." or ":",
 *                                           is "localhost", or has capitals)
 *   path-component := [a-z0-9]+ ( ( "." | "_" | "__" | "-"+ ) [a-z0-9]+ )*
 *   tag        := [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}
 *   digest     := algorithm ":" hex        (sha256: 64 hex digits, sha512: 128)
 *
 * Decision: a reference with neither tag nor digest is valid but gets a warning — the
 * runtime pulls `:latest`, so what runs can change without a new revision.
 */

const IMAGE_KEY = 'image-uri';
const IMAGE_EXAMPLE =
  'ghcr.io/my-org/my-agent:1.2.0 or ghcr.io/my-org/my-agent@sha256:<64 hex digits>';
/** name [":" tag] ["@" digest]: digest from the first "@", tag from a ":" no "/" follows. */
const PARTS = /^(.*?)(?::([^:/@]*))?(?:@(.*))?$/;
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';
/** host[:port], the host a bracketed IPv6 address or dot-separated labels. */
const DOMAIN = new RegExp(`^(?:\\[[0-9A-Fa-f:.]+\\]|${LABEL}(?:\\.${LABEL})*)(?::\\d+)?$`);
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^([a-z0-9]+(?:[+._-][a-z0-9]+)*):([A-Za-z0-9=_-]+)$/;
const DIGEST_HEX: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

function problem(imageUri: string): string | undefined {
  if (imageUri.trim() === '')
    return `${IMAGE_KEY} is empty: set it to the image to deploy, e.g. ${IMAGE_EXAMPLE}.`;
  if (/\s/.test(imageUri))
    return `${IMAGE_KEY} "${imageUri}" contains whitespace: give one image reference, e.g. ${IMAGE_EXAMPLE}.`;
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(imageUri))
    return `${IMAGE_KEY} "${imageUri}" starts with a URL scheme: give the image reference without it, e.g. ${IMAGE_EXAMPLE}.`;
  const [, name = '', tag, digest] = PARTS.exec(imageUri) ?? [];
  if (digest !== undefined) {
    const [, algorithm = '', hex = ''] = DIGEST.exec(digest) ?? [];
    const length = DIGEST_HEX[algorithm]; // of the algorithms known here; the others: any
    if (!algorithm || (length !== undefined && !new RegExp(`^[a-f0-9]{${length}}$`).test(hex)))
      return `${IMAGE_KEY} "${imageUri}" has an invalid digest "${digest}": write it as <algorithm>:<hex>, e.g. sha256: followed by 64 lowercase hex digits.`;
  }
  if (tag !== undefined && !TAG.test(tag))
    return `${IMAGE_KEY} "${imageUri}" has an invalid tag "${tag}": a tag is 1 to 128 letters, digits, "_", "." or "-", not starting with "." or "-".`;
  if (name.length > 255) return `${IMAGE_KEY} "${imageUri}" has a name longer than 255 characters.`;
  const [first = '', ...rest] = name.split('/');
  const hasDomain =
    rest.length > 0 &&
    (/[.:]/.test(first) || first === 'localhost' || first !== first.toLowerCase());
  if (hasDomain && !DOMAIN.test(first))
    return `${IMAGE_KEY} "${imageUri}" has an invalid registry "${first}": write host[:port], e.g. ghcr.io or registry.example.com:5000.`;
  for (const component of hasDomain ? rest : [first, ...rest]) {
    if (PATH_COMPONENT.test(component)) continue;
    if (PATH_COMPONENT.test(component.toLowerCase()))
      return `${IMAGE_KEY} "${imageUri}": the repository name must be lowercase ("${component}" → "${component.toLowerCase()}").`;
    return `${IMAGE_KEY} "${imageUri}" has an invalid repository name part "${component}": use lowercase letters and digits, separated by ".", "_", "__" or "-" (e.g. ${IMAGE_EXAMPLE}).`;
  }
  return undefined;
}

/** Checks `image-uri` before the create/update call (pure; the caller annotates). */
export function checkImageUri(imageUri: string): Finding[] {
  const error = problem(imageUri);
  if (error) return [{ level: 'error', key: IMAGE_KEY, message: error }];
  if (/@|:[^/]*$/.test(imageUri)) return []; // a digest, or a tag (see PARTS)
  const message = `${IMAGE_KEY} "${imageUri}" has no tag or digest, so the "latest" tag is pulled and what runs can change without a new revision. Pin a version tag or a digest, e.g. ${imageUri}:1.2.0 or ${imageUri}@sha256:<digest>.`;
  return [{ level: 'warning', key: IMAGE_KEY, message }];
}
