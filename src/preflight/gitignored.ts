/**
 * Whether git ignores a path of the checkout, from `.git/info/exclude` and the `.gitignore`
 * files on the way to it (the repository root's, then each folder's, each relative to its
 * folder; later rules win, `!` re-includes). Used to tell a `.env` that is simply not committed
 * (the LangGraph templates name one and ignore it) from a wrong path. Best effort: an
 * unreadable file counts as empty.
 *
 * The pre-flight checks load only Node built-ins and jsonc-parser (they must fail fast), so
 * the gitignore patterns are matched here rather than with a library: `*`, `?`, `**`,
 * `[...]`, a leading or inner `/` (anchored to the file's folder), a trailing `/` (folders
 * only), `!` and `\` escapes.
 */
import { join } from 'node:path';
import { readInsideWorkspace, readRegularFile } from '../lib/paths.js';

interface Rule {
  negated: boolean;
  directoryOnly: boolean;
  regex: RegExp;
}

/** Ignore files are small; a larger one (or a link, FIFO, device) counts as empty. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** A `.gitignore` of the checkout, read through the one path rule (`lib/paths.ts`). */
function read(workspace: string, relative: string): string {
  const file = readInsideWorkspace(workspace, relative, MAX_IGNORE_FILE_BYTES);
  return file.ok ? file.text : '';
}

/** `.git/info/exclude`: inside `.git`, so read directly, a regular file only, bounded. */
function readExclude(workspace: string): string {
  const file = readRegularFile(join(workspace, '.git', 'info', 'exclude'), MAX_IGNORE_FILE_BYTES);
  return file.ok ? file.text : '';
}

/** One glob (already without `!`, the anchoring `/` and the trailing `/`) as a RegExp body. */
function globToRegex(glob: string): string {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) {
      out += escapeRegex(glob[++i]!);
    } else if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        const atStart = i === 0 || glob[i - 1] === '/';
        i += slashAfter ? 2 : 1;
        out += atStart && slashAfter ? '(?:.*/)?' : '.*';
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) out += '\\[';
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        out += `[${body}]`;
        i = end;
      }
    } else {
      out += escapeRegex(c);
    }
  }
  return out;
}

function escapeRegex(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}

export function parseGitignore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negated = false;
    if (line.startsWith('!')) {
      negated = true;
      line = line.slice(1);
    }
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.replace(/\/+$/, '');
    const anchored = line.includes('/');
    line = line.replace(/^\//, '');
    if (line === '') continue;
    const body = globToRegex(line);
    rules.push({
      negated,
      directoryOnly,
      regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`),
    });
  }
  return rules;
}

/** The last rule that matches decides; undefined when none does. */
function verdict(rules: Rule[], path: string, isDirectory: boolean): boolean | undefined {
  let result: boolean | undefined;
  for (const rule of rules) {
    if (rule.directoryOnly && !isDirectory) continue;
    if (rule.regex.test(path)) result = !rule.negated;
  }
  return result;
}

/** `relative`: workspace-relative with forward slashes, e.g. `apps/agent/.env` (a file). */
export function isIgnoredByGit(workspace: string, relative: string): boolean {
  const parts = relative.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.includes('..')) return false;
  const sources: { folder: string[]; rules: Rule[] }[] = [
    { folder: [], rules: parseGitignore(readExclude(workspace)) },
  ];
  for (let depth = 0; depth < parts.length; depth++) {
    const folder = parts.slice(0, depth);
    sources.push({
      folder,
      rules: parseGitignore(read(workspace, [...folder, '.gitignore'].join('/'))),
    });
  }
  // Git does not look inside an ignored folder: an ignored ancestor ignores the file.
  for (let end = 1; end <= parts.length; end++) {
    const isDirectory = end < parts.length;
    let ignored = false;
    for (const { folder, rules } of sources) {
      if (folder.length >= end) continue;
      const path = parts.slice(folder.length, end).join('/');
      const v = verdict(rules, path, isDirectory);
      if (v !== undefined) ignored = v;
    }
    if (ignored) return true;
  }
  return false;
}
