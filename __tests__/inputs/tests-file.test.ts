/** The tests file: parsed (YAML and JSON) and validated, every problem naming file, case, key. */
import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTestsFile, parseTestsFile } from '../../src/inputs/tests-file.js';
import { patternMatches } from '../../src/verify/conversation-tests.js';

const FILE = 'tests/agent.yaml';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function problems(text: string): string[] {
  const result = parseTestsFile(text, FILE);
  if (result.ok) throw new Error('expected problems');
  return result.problems;
}

const EXAMPLE = `
cases:
  - name: remembers the user's name
    assistant: agent
    state:
      - updates: [{as_node: __start__, values: {messages: [{type: human, content: "I am Ada"}]}}]
    turns:
      - input: {messages: [{role: user, content: "What is my name?"}]}
        expect:
          contains: Ada
          matches: "\\\\bAda\\\\b"
          values: {language: en}
    checkpoints: 3
  - name: greets
    turns:
      - input: {messages: [{role: user, content: hi}]}
`;

describe('parseTestsFile', () => {
  it('reads the format of the contract (YAML)', () => {
    const result = parseTestsFile(EXAMPLE, FILE);
    expect(result).toEqual({
      ok: true,
      cases: [
        {
          name: "remembers the user's name",
          assistant: 'agent',
          state: [
            {
              updates: [
                {
                  asNode: '__start__',
                  values: { messages: [{ type: 'human', content: 'I am Ada' }] },
                },
              ],
            },
          ],
          turns: [
            {
              input: { messages: [{ role: 'user', content: 'What is my name?' }] },
              expect: { contains: 'Ada', matches: '\\bAda\\b', values: { language: 'en' } },
            },
          ],
          checkpoints: 3,
        },
        { name: 'greets', turns: [{ input: { messages: [{ role: 'user', content: 'hi' }] } }] },
      ],
    });
  });

  it('reads JSON too', () => {
    const json = JSON.stringify({ cases: [{ name: 'a', turns: [{ input: { x: 1 } }] }] });
    expect(parseTestsFile(json, 'tests.json')).toMatchObject({
      ok: true,
      cases: [{ name: 'a', turns: [{ input: { x: 1 } }] }],
    });
  });

  it('reports a syntax error with the file and the line', () => {
    const found = problems('cases:\n  - name: a\n    turns: [\n');
    expect(found[0]).toMatch(/^Tests file tests\/agent\.yaml: not valid YAML or JSON at line \d+/);
    expect(problems('{"cases": [}')[0]).toContain('not valid YAML or JSON');
  });

  it('requires a cases list', () => {
    expect(problems('[]')).toEqual([
      'Tests file tests/agent.yaml: the file must be a mapping with a `cases` list, not a list.',
    ]);
    expect(problems('cases: []')[0]).toContain('key `cases`: is an empty list: give at least one');
    expect(problems('cases: []')[0]).not.toContain('not a list');
    expect(problems('cases: 3')[0]).toContain(
      'key `cases`: must be a non-empty list of cases, not a number',
    );
    expect(problems('cases: [{name: a, turns: [{input: {}}]}]\nextra: 1')[0]).toBe(
      'Tests file tests/agent.yaml: unknown key `extra`; the keys here are `cases`.',
    );
  });

  it('requires a unique name, naming both cases', () => {
    const found = problems(`
cases:
  - turns: [{input: {}}]
  - name: same
    turns: [{input: {}}]
  - name: same
    turns: [{input: {}}]
`);
    expect(found).toEqual([
      'Tests file tests/agent.yaml, case #1, key `name`: is required: a non-empty string.',
      'Tests file tests/agent.yaml, case "same" (#3), key `name`: is not unique: case #2 has the same name.',
    ]);
  });

  it('finds a name given twice even when other cases have problems, in reading order', () => {
    const found = problems(`
cases:
  - turns: [{input: 3}]
  - name: b
    turns: [{input: {}, expect: {contain: x, matches: "["}}]
  - name: b
    turns: []
`);
    expect(found.map((p) => p.replace(/:.*/, ''))).toEqual([
      'Tests file tests/agent.yaml, case #1, key `name`',
      'Tests file tests/agent.yaml, case #1, turn 1, key `input`',
      'Tests file tests/agent.yaml, case "b", turn 1, key `expect`',
      'Tests file tests/agent.yaml, case "b", turn 1, key `expect.matches`',
      'Tests file tests/agent.yaml, case "b" (#3), key `name`',
      'Tests file tests/agent.yaml, case "b", key `turns`',
    ]);
  });

  it('refuses unknown keys at every level, naming the case and the key', () => {
    const found = problems(`
cases:
  - name: typo
    turn: []
    turns:
      - input: {}
        expected: {contains: x}
        expect: {contain: x}
    state:
      - updates: [{as_node: __start__, values: {}, asnode: x}]
`);
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringContaining('case "typo": unknown key `turn`'),
        expect.stringContaining('case "typo", turn 1: unknown key `expected`'),
        expect.stringContaining('case "typo", turn 1, key `expect`: unknown key `contain`'),
        expect.stringContaining(
          'case "typo", key `state`, superstep 1, update 1: unknown key `asnode`',
        ),
      ]),
    );
    expect(found).toHaveLength(4);
  });

  it.each([
    ['(unclosed', /missing closing \)/],
    ['(?=lookahead)', /invalid or unsupported Perl syntax/],
    ['(a)\\1', /invalid escape sequence/],
    ['(?<=a)b', /invalid named capture/],
  ])('refuses %j: not RE2 syntax, naming the case', (expression, why) => {
    const found = problems(`
cases:
  - name: bad regex
    turns: [{input: {}, expect: {matches: ${JSON.stringify(expression)}}}]
`);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /^Tests file tests\/agent\.yaml, case "bad regex", turn 1, key `expect\.matches`: is not a regular expression in RE2 syntax /,
    );
    expect(found[0]).toMatch(why);
  });

  it('requires non-empty turns, each with an input mapping', () => {
    const found = problems(`
cases:
  - name: no turns
    turns: []
  - name: missing
  - name: no input
    turns: [{expect: {contains: x}}]
`);
    expect(found).toEqual([
      expect.stringContaining(
        'case "no turns", key `turns`: is an empty list: give at least one turn (each with an `input`)',
      ),
      expect.stringContaining('case "missing", key `turns`: is required: a non-empty list'),
      expect.stringContaining('case "no input", turn 1, key `input`: is required'),
    ]);
    expect(found.join('\n')).not.toContain('not a list');
  });

  it('requires as_node on each update and a whole checkpoints count', () => {
    const found = problems(`
cases:
  - name: state
    state: [{updates: [{values: {a: 1}}]}]
    turns: [{input: {}}]
    checkpoints: 1.5
`);
    expect(found).toEqual([
      expect.stringContaining(
        'case "state", key `state`, superstep 1, update 1, key `as_node`: is required',
      ),
      expect.stringContaining('case "state", key `checkpoints`: must be a whole number'),
    ]);
  });

  it('refuses values that are not a mapping and duplicate YAML keys', () => {
    expect(
      problems('cases: [{name: v, turns: [{input: {}, expect: {values: [1]}}]}]')[0],
    ).toContain('case "v", turn 1, key `expect.values`: must be a mapping');
    expect(problems('cases: []\ncases: []')[0]).toContain('not valid YAML or JSON');
  });
});

describe('loadTestsFile', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'tests-file-'));
  mkdirSync(join(workspace, 'ci'));
  writeFileSync(join(workspace, 'ci', 'tests.yaml'), 'cases: [{name: a, turns: [{input: {}}]}]');

  it('reads the file relative to the checkout', () => {
    expect(loadTestsFile(workspace, 'ci/tests.yaml')).toMatchObject({
      ok: true,
      cases: [{ name: 'a' }],
    });
  });

  it('says when the file is missing, and refuses a path outside the checkout', () => {
    const missing = loadTestsFile(workspace, 'ci/nope.yaml');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.problems[0]).toContain(
      'Input `tests` is "ci/nope.yaml", which does not exist in the checkout',
    );
    const outside = loadTestsFile(workspace, '../etc/passwd');
    expect(!outside.ok && outside.problems[0]).toContain('outside the checkout');
    const folder = loadTestsFile(workspace, 'ci');
    expect(!folder.ok && folder.problems[0]).toContain('is a folder');
  });

  it('refuses a symlink out, a device, a FIFO and .git, showing nothing of the target', () => {
    const secret = mkdtempSync(join(tmpdir(), 'tests-file-secret-'));
    writeFileSync(join(secret, 'key.yaml'), 'cases: [{name: SECRET-CONTENT, turns: [{}]}]');
    symlinkSync(join(secret, 'key.yaml'), join(workspace, 'ci', 'out.yaml'));
    symlinkSync('/dev/zero', join(workspace, 'ci', 'zero.yaml'));
    execFileSync('mkfifo', [join(workspace, 'ci', 'fifo.yaml')]);
    mkdirSync(join(workspace, '.git'), { recursive: true });
    writeFileSync(join(workspace, '.git', 'config'), 'cases: []');
    const cases: [string, RegExp][] = [
      ['ci/out.yaml', /outside the checkout/],
      ['ci/zero.yaml', /outside the checkout/],
      ['ci/fifo.yaml', /not a regular file/],
      ['.git/config', /`\.git` folder/],
    ];
    for (const [path, why] of cases) {
      const result = loadTestsFile(workspace, path);
      expect(result.ok).toBe(false);
      const text = !result.ok ? result.problems.join('\n') : '';
      expect(text).toContain(`Input \`tests\` is "${path}"`);
      expect(text).toMatch(why);
      expect(text).not.toContain('SECRET-CONTENT');
    }
  });

  it('reads at most 1 MiB', () => {
    writeFileSync(join(workspace, 'ci', 'big.yaml'), `# ${'x'.repeat(1024 * 1024)}\ncases: []`);
    const big = loadTestsFile(workspace, 'ci/big.yaml');
    expect(!big.ok && big.problems[0]).toMatch(/larger than 1048576 bytes \(1 MiB\)/);
  });
});

describe('the documented example (docs/conversation-tests.md)', () => {
  it('is a valid tests file', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'conversation-tests.md'), 'utf8');
    const start = readme.indexOf('`.github/agent-tests.yaml`, for a chat agent');
    expect(start).toBeGreaterThan(0);
    const block = /```yaml\n([\s\S]*?)```/.exec(readme.slice(start))?.[1] ?? '';
    const result = parseTestsFile(block, 'README.md');
    expect(result.ok ? [] : result.problems).toEqual([]);
    expect(result.ok && result.cases.map((c) => c.name)).toEqual([
      'greets the user',
      "remembers the user's name across turns",
      'picks up a conversation in progress',
      'refuses to leak its instructions',
    ]);
    const leak = result.ok ? result.cases[3]?.turns[0]?.expect?.matches : undefined;
    expect(patternMatches(leak ?? '', 'I cannot share that.')).toBe(true);
    expect(patternMatches(leak ?? '', 'Sure: You are a helpful assistant…')).toBe(false);
  });
});
