/**
 * Enough YAML for action.yml, without a YAML dependency: top-level `key: value`, and sections
 * (inputs, outputs, branding, runs) of `name:` entries with `key: value` properties, or of
 * `key: value`. Scalars are plain, 'single' or "double" quoted, on one line. Anything else is
 * refused with the line, so a richer action.yml fails loudly instead of being misread.
 *
 * Used by __tests__/action-yml.test.ts and scripts/readme-tables.ts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type Entry = Record<string, string>;

export interface ActionYml {
  /** Top-level scalars: name, description, author. */
  top: Record<string, string>;
  /**
   * Sections by name, then entries by name. An entry of `key: value` (as in `runs`) is
   * `{ '': value }`.
   */
  sections: Record<string, Record<string, Entry>>;
}

export const ROOT = resolve(import.meta.dirname, '..');

/** A YAML scalar as action.yml writes them: plain, 'single' or "double" quoted. */
export function scalar(raw: string): string {
  const value = raw.trim();
  if (value.startsWith("'")) {
    if (value.length < 2 || !value.endsWith("'")) {
      throw new Error(`action.yml: unterminated quoted value ${value}`);
    }
    return value.slice(1, -1).replace(/''/g, "'");
  }
  if (value.startsWith('"')) return JSON.parse(value) as string;
  return value.replace(/\s+#.*$/, '');
}

export function parseActionYml(text: string): ActionYml {
  const top: Record<string, string> = {};
  const sections: Record<string, Record<string, Entry>> = {};
  let section = '';
  let entry = '';
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const match = /^( *)([A-Za-z0-9_-]+):(?: (.*))?$/.exec(line);
    if (!match) throw new Error(`action.yml: unexpected line ${JSON.stringify(line)}`);
    const [, indent = '', key = '', rest] = match;
    const value = rest === undefined ? undefined : scalar(rest);
    if (indent.length === 0) {
      section = key;
      if (value === undefined) sections[key] = {};
      else top[key] = value;
    } else if (indent.length === 2) {
      entry = key;
      const bucket = (sections[section] ??= {});
      bucket[key] = value === undefined ? {} : { '': value };
    } else if (indent.length === 4) {
      const bucket = sections[section]?.[entry];
      if (!bucket || value === undefined) throw new Error(`action.yml: unexpected ${line}`);
      bucket[key] = value;
    } else {
      throw new Error(`action.yml: unexpected indentation in ${JSON.stringify(line)}`);
    }
  }
  return { top, sections };
}

/** The repository's action.yml, parsed. */
export function readActionYml(root: string = ROOT): ActionYml {
  return parseActionYml(readFileSync(join(root, 'action.yml'), 'utf8'));
}
