/** The config's own `env`, and whether the variables the webhook headers read will be set. */
import { parseEnv } from 'node:util';
import { readInsideWorkspace, refusalText } from '../lib/paths.js';
import type { Checker, Node } from './document.js';
import { properties, typeName } from './document.js';
import type { ConfigLocation } from './files.js';
import { relativeToHint, resolveConfigPath } from './files.js';
import type { Finding, ParsedLangGraphConfig } from './finding.js';
import { isIgnoredByGit } from './gitignored.js';
import { looksLikeSecret } from './values.js';

const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Names defined by a `.env` file, read as Node reads one (`util.parseEnv`: `export `, comments,
 * quoted values over several lines); values never kept. A line inside a quoted value is part
 * of that value, not a variable.
 */
function dotenvNames(text: string): string[] {
  return Object.keys(parseEnv(text)).filter((name) => VARIABLE.test(name));
}

/** Checks `env`; returns the variable names it gives the deployment. */
export function checkEnv(c: Checker, loc: ConfigLocation, env: Node | undefined): string[] {
  if (!env || env.type === 'null') return [];
  if (env.type === 'object') {
    const names: string[] = [];
    for (const { key: name, keyNode, value } of properties(env)) {
      const key = `env.${name}`;
      names.push(name);
      if (!VARIABLE.test(name)) {
        c.warning(
          key,
          keyNode,
          `${key}: "${name}" is not a valid environment variable name (letters, digits and _, not starting with a digit).`,
        );
      }
      if (value.type !== 'string') {
        c.warning(
          key,
          value,
          `${key} is ${typeName(value)}: environment values are strings; write it in quotes.`,
        );
      } else if (looksLikeSecret(String(value.value))) {
        c.warning(
          key,
          value,
          `${key} looks like a secret committed to the repository. Remove it from ${loc.file} and pass it in the action's secrets input instead (then rotate it: it is in the git history).`,
        );
      }
    }
    return names;
  }
  if (env.type !== 'string') {
    c.error(
      'env',
      env,
      `env is ${typeName(env)}: it must be an object of variable names to values, or the path of a .env file.`,
    );
    return [];
  }
  const written = String(env.value);
  const resolved = resolveConfigPath(loc, written);
  // The LangGraph templates write `"env": ".env"` and ignore that file in git: in CI it is
  // absent by design (the variables come from the secrets input), so that is no finding.
  if (
    resolved.ok &&
    resolved.kind === 'missing' &&
    isIgnoredByGit(loc.workspace, resolved.relative)
  ) {
    return [];
  }
  if (!resolved.ok || resolved.kind !== 'file') {
    const where = resolved.ok
      ? `looked for ${resolved.relative}`
      : `it is ${resolved.problem === 'absolute' ? 'an absolute path' : 'outside the repository'}`;
    c.warning(
      'env',
      env,
      `env points to ${written}, which is not a file of the repository (${where}; ${relativeToHint(loc)}), so none of its variables will be set from it. .env files are usually not committed: give the variables the deployment needs in the action's secrets input.`,
    );
    return [];
  }
  // Through the one path rule: a link out of the checkout, a FIFO or a device is not read
  // (a FIFO would block the run past `timeout` and cancellation).
  const read = readInsideWorkspace(loc.workspace, resolved.relative, MAX_ENV_FILE_BYTES);
  if (!read.ok) {
    c.warning(
      'env',
      env,
      `env points to ${written}, which is not a file of the repository (${resolved.relative} ${refusalText(read.refusal, read.code)}), so none of its variables will be set from it. Give the variables the deployment needs in the action's secrets input.`,
    );
    return [];
  }
  return dotenvNames(read.text);
}

/** A .env file holds a few variables; a larger one is not read. */
const MAX_ENV_FILE_BYTES = 1024 * 1024;

export interface EnvReferenceOptions {
  /**
   * Where `availableNames` come from: `secrets` (the action's secrets input, the default) or
   * `deployment` (the secrets of the deployment found by the lookup, kept by an update whose
   * secrets input is empty). Only the advice changes.
   */
  source?: 'secrets' | 'deployment';
}

/**
 * The variable check: every `${{ env.VAR }}` reference must name a variable of the
 * deployment's environment (`availableNames`, plus the config's own `env`). One error per
 * reference that is missing.
 */
export function checkEnvReferences(
  parsed: ParsedLangGraphConfig,
  availableNames: string[],
  options: EnvReferenceOptions = {},
): Finding[] {
  const available = new Set([...availableNames, ...parsed.configEnvNames]);
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const ref of parsed.envReferences) {
    if (available.has(ref.variable) || seen.has(`${ref.key}\n${ref.variable}`)) continue;
    seen.add(`${ref.key}\n${ref.variable}`);
    const near = [...available].find((n) => n.toLowerCase() === ref.variable.toLowerCase());
    const caseHint = near ? ` (${near} is set, but names are case-sensitive)` : '';
    const message =
      options.source === 'deployment'
        ? `${ref.key} references env.${ref.variable}, which is not among the secrets of the deployment${caseHint}, and this update keeps them because the action's secrets input is empty: set the secrets input with ${ref.variable} and every other variable the deployment needs (a non-empty input replaces them all) — the agent server will not start without it.`
        : `${ref.key} references env.${ref.variable}, which is not in the deployment's environment${caseHint}: add ${ref.variable} to the action's secrets input — the agent server will not start without it.`;
    const finding: Finding = { level: 'error', message, key: ref.key, file: parsed.file };
    if (ref.line !== undefined) finding.line = ref.line;
    if (ref.column !== undefined) finding.column = ref.column;
    findings.push(finding);
  }
  return findings;
}
