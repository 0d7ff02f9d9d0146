/**
 * Pre-flight checks (the README's "What the action does", step 2): mistakes knowable before
 * any request, reported as findings (the caller annotates them) instead of a failed build or an
 * agent server that does not start. `preflightConfig` reads the checkout's LangGraph config and
 * runs one file per rule family on it; `checkImageUri` (image.ts) is the `external_docker`
 * check, and `checkEnvReferences` (env.ts) the one that may wait for the deployment's lookup.
 */
import { readdirSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { getNodeValue } from 'jsonc-parser';
import { isInside, readInsideWorkspace, refusalText } from '../lib/paths.js';
import type { DeployConfig, GithubContext } from '../inputs/config.js';
import type { Logger } from '../lib/untrusted.js';
import { Checker, child, workspaceRelative } from './document.js';
import type { Finding, ParsedLangGraphConfig } from './document.js';
import { checkEnv, checkEnvReferences } from './env.js';
import { checkCode } from './graphs.js';
import { checkKeys } from './keys.js';
import { checkWebhooks } from './webhooks.js';

export type { Finding, ParsedLangGraphConfig } from './document.js';
export { checkEnvReferences } from './env.js';
export { checkImageUri } from './image.js';

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
  const problem =
    written.trim() === ''
      ? 'is empty: give the path of the LangGraph config in the repository, e.g. langgraph.json.'
      : isAbsolute(written)
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
