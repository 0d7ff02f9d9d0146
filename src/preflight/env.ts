/**
 * The config's own `env`, whether the variables the webhook headers read will be set, the
 * "looks like a secret" test (also used for the webhook headers), and what git ignores (the
 * rules the `upload` archive honours, and the `.env` check).
 */
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import ignore, { type Ignore } from 'ignore';
import { readInsideWorkspace, readRegularFile, refusalText } from '../lib/paths.js';
import { NAME_PATTERN } from '../inputs/secrets.js';
import type { Checker, Finding, Node, ParsedLangGraphConfig } from './document.js';
import { properties } from './document.js';

/** A .env file holds a few variables, an ignore file a few rules; a larger one is not read. */
const MAX_FILE_BYTES = 1024 * 1024;

const TOKEN_PATTERNS: RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/, // OpenAI, Anthropic…
  /\b[sr]k_(live|test)_[A-Za-z0-9]{16,}/, // Stripe
  /\bgh[pousr]_[A-Za-z0-9]{30,}/, // GitHub
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bglpat-[A-Za-z0-9_-]{16,}/, // GitLab
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack
  /\bAKIA[0-9A-Z]{16}\b/, // AWS
  /\bAIza[0-9A-Za-z_-]{30,}/, // Google
  /\blsv2_(pt|sk)_[A-Za-z0-9_]{20,}/, // LangSmith
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/, // JWT
];

/**
 * True when a literal looks like a credential: a known token format, or a long run of
 * token characters that mixes letters and digits. Never put the literal in a message.
 */
export function looksLikeSecret(literal: string): boolean {
  if (TOKEN_PATTERNS.some((re) => re.test(literal))) return true;
  // A run with three digits or more and a letter, not a URL.
  const runs = literal.match(/[A-Za-z0-9_\-+/=~.]{24,}/g) ?? [];
  return runs.some(
    (run) => !/^https?:|\/\//.test(run) && /\d.*\d.*\d/.test(run) && /[A-Za-z]/.test(run),
  );
}

/**
 * Whether git ignores `relative` (workspace-relative, forward slashes, a file), by the rules the
 * `upload` archive honours too (below): `.git/info/exclude` and the `.gitignore` files on the way
 * to it. Used to tell a `.env` that is simply not committed (the LangGraph templates name one and
 * ignore it) from a wrong path. Best effort: an unreadable ignore file counts as empty, and one
 * too large to honour whole leaves the answer at no.
 */
export function isIgnoredByGit(workspace: string, relative: string): boolean {
  const parts = relative.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) return false;
  const folder = parts.slice(0, -1).join('/');
  try {
    const matchers = inheritedMatchers(workspace, folder);
    if (!matchers) return true; // in an ignored folder
    return isIgnored(withRules(workspace, matchers, folder, '.gitignore'), parts.join('/'), false);
  } catch {
    return false;
  }
}

/** An ignore file's rules, and its folder (relative to the workspace, '' for its root). */
export type Matcher = { base: string; ig: Ignore };

/**
 * The ignore rules that hold for `folder` before its own: `.git/info/exclude`, then each
 * `.gitignore` from the workspace down to the folder's parent. `undefined` when one of those
 * rules ignores the folder itself (git never looks inside an ignored folder).
 */
export function inheritedMatchers(workspace: string, folderRel: string): Matcher[] | undefined {
  let matchers: Matcher[] = [];
  // `.git` itself is never read through the path rule; its exclude file only ever narrows
  // what is sent, so it is read directly (a regular file, bounded, not through a last link).
  const exclude = readRegularFile(join(workspace, '.git/info/exclude'), MAX_FILE_BYTES);
  if (exclude.ok) matchers.push({ base: '', ig: rules().add(exclude.text) });
  const parts = folderRel === '' ? [] : folderRel.split('/');
  for (let i = 0; i < parts.length; i++) {
    matchers = withRules(workspace, matchers, parts.slice(0, i).join('/'), '.gitignore');
    if (isIgnored(matchers, parts.slice(0, i + 1).join('/'), true)) return undefined;
  }
  return matchers;
}

/**
 * `matchers` and the rules of the ignore files `names` of the folder `dir` (workspace-relative),
 * if any. Read through the one path rule: a link, FIFO or folder of that name is no ignore
 * file. Throws when one is too large to honour whole.
 */
export function withRules(workspace: string, matchers: Matcher[], dir: string, ...names: string[]) {
  let ig: Ignore | undefined;
  for (const file of names.map((name) => joinRel(dir, name))) {
    const read = readInsideWorkspace(workspace, file, MAX_FILE_BYTES);
    if (!read.ok) {
      if (read.refusal === 'too-large') {
        throw new Error(`${file} is larger than 1 MiB, so its rules cannot all be honoured`);
      }
      continue; // absent (or not a regular file inside the checkout): nothing to honour
    }
    ig = (ig ?? rules()).add(read.text);
  }
  return ig ? [...matchers, { base: dir, ig }] : matchers;
}

/** Paths tested are built from folder entries: the library need not check they are relative. */
const rules = () => ignore({ allowRelativePaths: true });

export function joinRel(a: string, b: string): string {
  return a === '' ? b : b === '' ? a : `${a}/${b}`;
}

/**
 * Whether `rel` (workspace-relative) is excluded. The deepest ignore file with a verdict
 * decides, so a nested `!pattern` can bring back what a parent folder excluded.
 */
export function isIgnored(matchers: Matcher[], rel: string, isDir: boolean): boolean {
  for (let i = matchers.length - 1; i >= 0; i--) {
    const { base, ig } = matchers[i]!;
    const local = base ? rel.slice(base.length + 1) : rel;
    const verdict = ig.test(isDir ? `${local}/` : local);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

/** Checks `env`; returns the variable names it gives the deployment. */
export function checkEnv(c: Checker, env: Node | undefined): string[] {
  if (!env || env.type === 'null') return [];
  if (env.type === 'object') {
    return properties(env).map(({ key: name, keyNode, value }) => {
      const key = `env.${name}`;
      const badName = `${key}: "${name}" is not a valid environment variable name (letters, digits and _, not starting with a digit).`;
      const secret = `${key} looks like a secret committed to the repository. Remove it from ${c.file} and pass it in the action's secrets input instead (then rotate it: it is in the git history).`;
      if (!NAME_PATTERN.test(name)) c.warning(key, keyNode, badName);
      if (value.type !== 'string')
        c.mistyped(key, value, 'environment values are strings; write it in quotes.', 'warning');
      else if (looksLikeSecret(String(value.value))) c.warning(key, value, secret);
      return name;
    });
  }
  const must = 'it must be an object of variable names to values, or the path of a .env file.';
  if (env.type !== 'string') {
    c.mistyped('env', env, must);
    return [];
  }
  const written = String(env.value);
  const { kind, relative } = c.resolve(written);
  let why = `it is ${kind === 'absolute' ? 'an absolute path' : 'outside the repository'}`;
  if (kind !== 'absolute' && kind !== 'outside') {
    // The LangGraph templates write `"env": ".env"` and ignore that file in git: in CI it is
    // absent by design (the variables come from the secrets input), so that is no finding.
    if (kind === 'missing' && isIgnoredByGit(c.workspace, relative)) return [];
    // Through the one path rule: a link out of the checkout, a FIFO or a device is not read
    // (a FIFO would block the run past `timeout` and cancellation).
    const read = readInsideWorkspace(c.workspace, relative, MAX_FILE_BYTES);
    // Read as Node reads a .env file (`export `, comments, quoted values over several lines: a
    // line inside a quoted value is part of it, not a variable); values never kept.
    if (read.ok) return Object.keys(parseEnv(read.text)).filter((name) => NAME_PATTERN.test(name));
    why = `${relative} ${refusalText(read.refusal, read.code)}`;
  }
  const message = `env points to ${written}, which is not a file of the repository (${why}; ${c.relativeToHint}), so none of its variables will be set from it. .env files are usually not committed: give the variables the deployment needs in the action's secrets input.`;
  c.warning('env', env, message);
  return [];
}

/**
 * The variable check: every `${{ env.VAR }}` reference must name a variable of the
 * deployment's environment (`availableNames`, plus the config's own `env`). One error per
 * reference that is missing. `source` says where the names come from, for the advice only: the
 * action's secrets input (the default), or the secrets of the `deployment` found by the lookup,
 * which an update whose secrets input is empty keeps.
 */
export function checkEnvReferences(
  parsed: ParsedLangGraphConfig,
  availableNames: string[],
  options: { source?: 'secrets' | 'deployment' } = {},
): Finding[] {
  const available = new Set([...availableNames, ...parsed.configEnvNames]);
  const seen = new Set<string>();
  return parsed.envReferences.flatMap(({ variable, key, line, column }): Finding[] => {
    if (available.has(variable) || seen.has(`${key}\n${variable}`)) return [];
    seen.add(`${key}\n${variable}`);
    const near = [...available].find((n) => n.toLowerCase() === variable.toLowerCase());
    const caseHint = near ? ` (${near} is set, but names are case-sensitive)` : '';
    const message =
      options.source === 'deployment'
        ? `${key} references env.${variable}, which is not among the secrets of the deployment${caseHint}, and this update keeps them because the action's secrets input is empty: set the secrets input with ${variable} and every other variable the deployment needs (a non-empty input replaces them all) — the agent server will not start without it.`
        : `${key} references env.${variable}, which is not in the deployment's environment${caseHint}: add ${variable} to the action's secrets input — the agent server will not start without it.`;
    return [{ level: 'error', message, key, file: parsed.file, line, column }];
  });
}
