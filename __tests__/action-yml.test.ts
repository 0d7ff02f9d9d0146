/**
 * action.yml against the input spec (`src/inputs/spec.ts`: names, order, defaults, required),
 * the spec against the contract (the input/output tables of the interface, copied here
 * because the contract file is not part of the repository: every contract input kept, with its
 * default), and both against the code (every `getInput('<name>')` in src/ is declared, and
 * every declared input is read).
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultOf, INPUTS, type InputName, type InputSpec } from '../src/inputs/spec.js';
import { parseActionYml, type Entry } from '../scripts/action-yml.js';
import { CONTRACT_INPUTS, CONTRACT_OUTPUTS } from './helpers/contract.js';

const root = join(import.meta.dirname ?? process.cwd(), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? sourceFiles(join(dir, d.name))
      : d.name.endsWith('.ts')
        ? [join(dir, d.name)]
        : [],
  );
}

function inputsReadByCode(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(root, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/getInput\(\s*['"]([a-z0-9-]+)['"]/g)) {
      names.add(m[1] as string);
    }
  }
  return names;
}

const action = parseActionYml(readFileSync(join(root, 'action.yml'), 'utf8'));
const inputs = action.sections['inputs'] ?? {};
const outputs = action.sections['outputs'] ?? {};

describe('action.yml', () => {
  it('runs dist/index.js on node24', () => {
    expect(action.sections['runs']?.['using']?.['']).toBe('node24');
    expect(action.sections['runs']?.['main']?.['']).toBe('dist/index.js');
  });

  it('has a name, description, author and branding', () => {
    expect(action.top['name']).toMatch(/LangGraph|LangSmith/);
    expect(action.top['description']?.length).toBeGreaterThan(20);
    expect(action.top['author']).toBeTruthy();
    expect(action.sections['branding']?.['icon']?.['']).toBe('upload-cloud');
    expect(action.sections['branding']?.['color']?.['']).toBe('purple');
  });

  it('declares exactly the inputs of the spec, in its order, with its defaults', () => {
    expect(Object.keys(inputs)).toEqual(Object.keys(INPUTS));
    for (const name of Object.keys(INPUTS) as InputName[]) {
      const spec: InputSpec = INPUTS[name];
      const input = inputs[name] as Entry;
      const expected = spec.required ? undefined : defaultOf(name);
      expect([name, input['default']]).toEqual([name, expected]);
      expect([name, input['required']]).toEqual([name, spec.required ? 'true' : 'false']);
    }
  });

  it('keeps every input of the contract, with its default', () => {
    for (const [name, expected] of Object.entries(CONTRACT_INPUTS)) {
      const spec: InputSpec | undefined = (INPUTS as Record<string, InputSpec>)[name];
      expect([name, spec === undefined]).toEqual([name, false]);
      const actual = spec?.required ? undefined : defaultOf(name as keyof typeof INPUTS);
      expect([name, actual]).toEqual([name, expected]);
    }
  });

  it('gives every choice input a default among its values', () => {
    for (const name of Object.keys(INPUTS) as InputName[]) {
      const spec: InputSpec = INPUTS[name];
      if (spec.values) expect([name, spec.values.includes(defaultOf(name))]).toEqual([name, true]);
    }
  });

  it('describes every input and output', () => {
    for (const [name, entry] of [...Object.entries(inputs), ...Object.entries(outputs)]) {
      expect([name, (entry['description'] ?? '').length > 10]).toEqual([name, true]);
    }
  });

  it('does not call an input that source upload reads "source github" only', () => {
    // The inputs src/deployment/upload/upload.ts sends for `source: upload`.
    for (const name of ['config-path', 'deployment-type']) {
      const description = inputs[name]?.['description'] ?? '';
      expect([name, description]).not.toEqual([name, expect.stringContaining('(source github)')]);
      expect([name, description]).toEqual([name, expect.stringContaining('upload')]);
    }
  });

  it('says that repo-url and repo-ref are derived when empty', () => {
    expect(inputs['repo-url']?.['description']).toMatch(/derived/i);
    expect(inputs['repo-ref']?.['description']).toMatch(/derived/i);
  });

  it('declares exactly the outputs of the contract', () => {
    expect(Object.keys(outputs).sort()).toEqual([...CONTRACT_OUTPUTS].sort());
  });

  it('declares every input the code reads, and the code reads every declared input', () => {
    const read = inputsReadByCode();
    expect([...read].sort()).toEqual(Object.keys(inputs).sort());
    expect(Object.keys(INPUTS).sort()).toEqual(Object.keys(inputs).sort());
  });
});

describe('the action.yml reader (scripts/action-yml.ts)', () => {
  it('reads quoted, plain and block scalars', () => {
    const parsed = parseActionYml(
      "name: plain value # comment\ninputs:\n  a:\n    description: \"it's\"\n    default: 'x''y'\n" +
        '    required: false\n  b:\n    description: >-\n      folded\n      text\nruns:\n  using: node24\n',
    );
    expect(parsed.top['name']).toBe('plain value');
    expect(parsed.sections['inputs']?.['a']).toEqual({
      description: "it's",
      default: "x'y",
      required: 'false',
    });
    expect(parsed.sections['inputs']?.['b']).toEqual({ description: 'folded text' });
    expect(parsed.sections['runs']?.['using']).toEqual({ '': 'node24' });
  });

  it('refuses what it does not understand', () => {
    expect(() => parseActionYml('inputs:\n  a:\n    - list')).toThrow(
      /unexpected value of inputs.a/,
    );
    expect(() => parseActionYml('inputs:\n  a:\n    x:\n      y: z')).toThrow(/inputs.a.x/);
    expect(() => parseActionYml("name: 'unterminated")).toThrow();
  });
});
