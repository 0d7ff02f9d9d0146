/**
 * The reference's Inputs and Outputs tables (docs/reference.md, linked from the README) are what
 * scripts/readme-tables.ts generates from action.yml: a changed action.yml without regenerated
 * tables fails here.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseActionYml, readActionYml, ROOT } from '../scripts/action-yml.js';
import {
  cell,
  inputsTable,
  outputsTable,
  renderReadme,
  TABLES_FILE,
} from '../scripts/readme-tables.js';

const readme = readFileSync(join(ROOT, TABLES_FILE), 'utf8');
const action = readActionYml();

describe('docs/reference.md', () => {
  it('has the Inputs and Outputs tables generated from action.yml', async () => {
    const expected = await renderReadme(readme, action);
    if (expected !== readme) {
      throw new Error(
        `${TABLES_FILE}: the Inputs/Outputs tables differ from action.yml. ` +
          'Run `npm run readme` and commit it.',
      );
    }
  });

  it('lists every input with its default and every output', () => {
    const inputs = readme.slice(
      readme.indexOf('<!-- inputs:start -->'),
      readme.indexOf('<!-- inputs:end -->'),
    );
    for (const [name, entry] of Object.entries(action.sections['inputs'] ?? {})) {
      const row = inputs.split('\n').find((l) => l.startsWith(`| \`${name}\` `));
      expect([name, row !== undefined]).toEqual([name, true]);
      if (entry['default'] && entry['default'] !== '') expect(row).toContain(entry['default']);
    }
    const outputs = readme.slice(
      readme.indexOf('<!-- outputs:start -->'),
      readme.indexOf('<!-- outputs:end -->'),
    );
    for (const name of Object.keys(action.sections['outputs'] ?? {})) {
      expect(outputs).toContain(`| \`${name}\``);
    }
  });
});

describe('scripts/readme-tables.ts', () => {
  const small = parseActionYml(
    [
      'inputs:',
      '  api-key:',
      "    description: 'The key.'",
      '    required: true',
      '  mode:',
      "    description: 'a | b, see `x|y` and <host>'",
      '    required: false',
      "    default: 'a'",
      '  empty:',
      "    description: 'Nothing by default.'",
      '    required: false',
      "    default: ''",
      'outputs:',
      '  id:',
      "    description: 'The ID.'",
    ].join('\n'),
  );

  it('renders name, default and description, required inputs marked', () => {
    expect(inputsTable(small).split('\n')).toEqual([
      '| Input | Default | Description |',
      '|---|---|---|',
      '| `api-key` | **required** | The key. |',
      '| `mode` | `a` | a \\| b, see `x\\|y` and &lt;host&gt; |',
      "| `empty` | `''` | Nothing by default. |",
    ]);
    expect(outputsTable(small).split('\n')).toEqual([
      '| Output | Description |',
      '|---|---|',
      '| `id` | The ID. |',
    ]);
  });

  it('adds a column of the commands that use each input, from the spec', () => {
    expect(inputsTable(small, { 'api-key': 'all', mode: ['deploy', 'prune'] }).split('\n')).toEqual(
      [
        '| Input | Default | Used by | Description |',
        '|---|---|---|---|',
        '| `api-key` | **required** | all | The key. |',
        '| `mode` | `a` | `deploy`, `prune` | a \\| b, see `x\\|y` and &lt;host&gt; |',
        "| `empty` | `''` |  | Nothing by default. |",
      ],
    );
    const dryRun = readme.split('\n').find((l) => l.startsWith('| `dry-run` '));
    expect(dryRun?.split('|')[3]?.trim()).toBe('`prune`');
  });

  it('escapes pipes everywhere and HTML outside code spans', () => {
    expect(cell('a|b `<c>|d` <e>\nf')).toBe('a\\|b `<c>\\|d` &lt;e&gt; f');
  });

  it('replaces only the text between the markers', async () => {
    const text =
      'intro\n<!-- inputs:start -->\nold\n<!-- inputs:end -->\nmiddle\n<!-- outputs:start -->\n<!-- outputs:end -->\nend\n';
    const out = await renderReadme(text, small);
    expect(out.startsWith('intro\n<!-- inputs:start -->\n')).toBe(true);
    expect(out).not.toContain('\nold\n');
    expect(out).toContain('`api-key`');
    expect(out).toContain('\n<!-- inputs:end -->\nmiddle\n<!-- outputs:start -->\n');
    expect(out.endsWith('<!-- outputs:end -->\nend\n')).toBe(true);
    // Stable: running it again changes nothing.
    expect(await renderReadme(out, small)).toBe(out);
  });

  it('changes the README when action.yml changes', async () => {
    const changed = parseActionYml(
      readFileSync(join(ROOT, 'action.yml'), 'utf8').replace(
        "default: 'langgraph.json'",
        "default: 'apps/langgraph.json'",
      ),
    );
    expect(await renderReadme(readme, changed)).not.toBe(readme);
  });

  it('refuses a README without the markers', async () => {
    await expect(renderReadme('# no markers\n', small)).rejects.toThrow(/inputs:start/);
  });
});
