/**
 * Writes the Inputs and Outputs tables of the reference (docs/reference.md; the README links
 * it) from action.yml (name, default,
 * description) and the input spec (`src/inputs/spec.ts`: the commands that use each input;
 * action.yml's names and defaults are checked against the spec by action-yml.test.ts), between the markers `<!-- inputs:start -->` / `<!-- inputs:end -->` and
 * `<!-- outputs:start -->` / `<!-- outputs:end -->`. Everything outside the markers is kept.
 *
 *   npm run readme                             # rewrite docs/reference.md when the tables changed
 *   npm run readme -- --check                  # exit 1 when docs/reference.md is out of date
 *
 * __tests__/readme.test.ts fails when docs/reference.md differs from what this script writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { USED_BY } from '../src/inputs/spec.js';
import { readActionYml, ROOT, type ActionYml } from './action-yml.js';

export const MARKERS = {
  inputs: { start: '<!-- inputs:start -->', end: '<!-- inputs:end -->' },
  outputs: { start: '<!-- outputs:start -->', end: '<!-- outputs:end -->' },
} as const;

/** A note on top of each table, so that nobody edits it by hand. */
const GENERATED = '<!-- Generated from action.yml and src/inputs/spec.ts by `npm run readme`. -->';

/** The file that holds the tables, relative to the repository root. */
export const TABLES_FILE = join('docs', 'reference.md');

/**
 * Text for a table cell: `|` escaped (also inside code spans, as GFM tables require), and
 * outside code spans `<` `>` as entities (so `<tag>` is shown, not taken for HTML).
 */
export function cell(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .split(/(`[^`]*`)/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    )
    .join('')
    .replace(/\|/g, '\\|')
    .trim();
}

/** A value as a code span (longer fences when it holds backticks). */
function code(value: string): string {
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') || value === '' ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

function defaultOf(entry: Record<string, string>): string {
  if (entry['required'] === 'true' && entry['default'] === undefined) return '**required**';
  const value = entry['default'];
  if (value === undefined) return '';
  return value === '' ? "`''`" : cell(code(value));
}

/** Which commands use an input, for its row: `all`, or the commands as code spans. */
export type UsedBy = Readonly<Record<string, readonly string[] | 'all'>>;

function commandsOf(usedBy: UsedBy, name: string): string {
  const commands = usedBy[name];
  if (commands === undefined) return '';
  return commands === 'all' ? 'all' : commands.map(code).join(', ');
}

/** The inputs table; with `usedBy`, a column of the commands that use each input. */
export function inputsTable(action: ActionYml, usedBy?: UsedBy): string {
  const rows = Object.entries(action.sections['inputs'] ?? {}).map(([name, entry]) =>
    usedBy
      ? `| ${cell(code(name))} | ${defaultOf(entry)} | ${commandsOf(usedBy, name)} | ${cell(entry['description'] ?? '')} |`
      : `| ${cell(code(name))} | ${defaultOf(entry)} | ${cell(entry['description'] ?? '')} |`,
  );
  const head = usedBy
    ? ['| Input | Default | Used by | Description |', '|---|---|---|---|']
    : ['| Input | Default | Description |', '|---|---|---|'];
  return [...head, ...rows].join('\n');
}

export function outputsTable(action: ActionYml): string {
  const rows = Object.entries(action.sections['outputs'] ?? {}).map(
    ([name, entry]) => `| ${cell(code(name))} | ${cell(entry['description'] ?? '')} |`,
  );
  return ['| Output | Description |', '|---|---|', ...rows].join('\n');
}

/**
 * A table as Prettier writes it (columns padded), so that `npm run format` and this script
 * agree on README.md.
 */
async function prettierTable(table: string, root: string): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(join(root, TABLES_FILE))) ?? {};
  return (await prettier.format(table, { ...options, parser: 'markdown' })).trim();
}

/** `readme` (the text of `TABLES_FILE`) with the text between each pair of markers replaced. */
export async function renderReadme(
  readme: string,
  action: ActionYml,
  root: string = ROOT,
  usedBy: UsedBy = USED_BY,
): Promise<string> {
  let text = readme;
  for (const [kind, table] of [
    ['inputs', await prettierTable(inputsTable(action, usedBy), root)],
    ['outputs', await prettierTable(outputsTable(action), root)],
  ] as const) {
    const { start, end } = MARKERS[kind];
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from || text.indexOf(start, from + 1) >= 0) {
      throw new Error(
        `${TABLES_FILE} needs exactly one ${start} followed by ${end}: the ${kind} table goes between them.`,
      );
    }
    text = `${text.slice(0, from + start.length)}\n${GENERATED}\n\n${table}\n\n${text.slice(to)}`;
  }
  return text;
}

/** Rewrites `TABLES_FILE`; returns whether it changed. With `check`, only compares. */
export async function updateReadme(root: string = ROOT, check = false): Promise<boolean> {
  const path = join(root, TABLES_FILE);
  const before = readFileSync(path, 'utf8');
  const after = await renderReadme(before, readActionYml(root), root);
  if (after === before) return false;
  if (!check) writeFileSync(path, after);
  return true;
}

const isMain =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const check = process.argv.includes('--check');
  const changed = await updateReadme(ROOT, check);
  if (check && changed) {
    console.error(
      `${TABLES_FILE}: the Inputs/Outputs tables differ from action.yml. Run \`npm run readme\`.`,
    );
    process.exitCode = 1;
  } else {
    console.log(`${TABLES_FILE}: tables ${changed ? 'updated' : 'up to date'}.`);
  }
}
