/**
 * action.yml, read with the `yaml` package and flattened to what the checks and the README
 * generator need: top-level scalars (name, description, author), and sections (inputs,
 * outputs, branding, runs) of entries. An entry that is a mapping (an input) becomes its
 * properties as strings; an entry that is a scalar (`using: node24` in `runs`) becomes
 * `{ '': value }`. Anything else (a list, a nested mapping) is refused with its place, so a
 * richer action.yml fails loudly instead of being misread.
 *
 * Used by __tests__/action-yml.test.ts, __tests__/readme.test.ts, scripts/readme-tables.ts and
 * scripts/run-action.ts.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { isRecord } from '../src/lib/text.js';

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

type Scalar = string | number | boolean;

function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

export function parseActionYml(text: string): ActionYml {
  const doc: unknown = parse(text);
  if (!isRecord(doc)) throw new Error('action.yml: the document is not a mapping');
  const top: Record<string, string> = {};
  const sections: Record<string, Record<string, Entry>> = {};
  for (const [key, value] of Object.entries(doc)) {
    if (isScalar(value)) {
      top[key] = String(value);
      continue;
    }
    if (!isRecord(value)) throw new Error(`action.yml: unexpected value of ${key}`);
    const section: Record<string, Entry> = (sections[key] = {});
    for (const [name, entry] of Object.entries(value)) {
      if (isScalar(entry)) {
        section[name] = { '': String(entry) };
        continue;
      }
      if (!isRecord(entry)) throw new Error(`action.yml: unexpected value of ${key}.${name}`);
      section[name] = Object.fromEntries(
        Object.entries(entry).map(([property, raw]) => {
          if (!isScalar(raw)) {
            throw new Error(`action.yml: unexpected value of ${key}.${name}.${property}`);
          }
          return [property, String(raw)];
        }),
      );
    }
  }
  return { top, sections };
}

/** The repository's action.yml, parsed. */
export function readActionYml(root: string = ROOT): ActionYml {
  return parseActionYml(readFileSync(join(root, 'action.yml'), 'utf8'));
}
