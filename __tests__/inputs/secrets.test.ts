import { describe, expect, it } from '@jest/globals';
import {
  describeJsonError,
  parseSecrets,
  RESERVED_SECRET_NAMES,
} from '../../src/inputs/secrets.js';

function expectNoLeak(messages: string[], values: string[]): void {
  for (const message of messages) {
    for (const value of values) expect(message).not.toContain(value);
  }
}

describe('NAME=value lines', () => {
  it('splits at the first `=` and keeps the value verbatim', () => {
    const result = parseSecrets('A=1\nB= spaced value \nC=x=y==\nD_2=https://h/?q=1');
    expect(result.problems).toEqual([]);
    expect(result.secrets).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: ' spaced value ' },
      { name: 'C', value: 'x=y==' },
      { name: 'D_2', value: 'https://h/?q=1' },
    ]);
  });

  it('tolerates CRLF, ignores blank lines and # comments (also indented)', () => {
    const result = parseSecrets(
      '# header\r\n\r\nA=one\r\n   # indented comment\r\n  \r\nB=two#not-a-comment',
    );
    expect(result.problems).toEqual([]);
    expect(result.secrets).toEqual([
      { name: 'A', value: 'one' },
      { name: 'B', value: 'two#not-a-comment' },
    ]);
  });

  it('trims spaces around the name', () => {
    expect(parseSecrets('  MY_KEY =v').secrets).toEqual([{ name: 'MY_KEY', value: 'v' }]);
  });

  it('reports a line without `=` by its number, never its text', () => {
    const result = parseSecrets('A=1\nsk-live-abcdef123456\nB=2');
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toContain('`secrets` line 2');
    expectNoLeak(result.problems, ['sk-live-abcdef123456']);
    expect(result.sensitive).toContain('sk-live-abcdef123456');
    expect(result.secrets.map((s) => s.name)).toEqual(['A', 'B']);
  });

  it('reports an invalid name by line number, without the line', () => {
    const result = parseSecrets('OK=1\n1BAD=topsecretvalue\nMY-NAME=othersecret');
    expect(result.problems).toHaveLength(2);
    expect(result.problems[0]).toMatch(/line 2: the name .* not a valid variable name/);
    expect(result.problems[1]).toContain('line 3');
    expectNoLeak(result.problems, ['topsecretvalue', 'othersecret', '1BAD', 'MY-NAME']);
    expect(result.sensitive).toEqual(expect.arrayContaining(['topsecretvalue', 'othersecret']));
  });

  it('accepts names of letters, digits and underscores not starting with a digit', () => {
    const result = parseSecrets('_X=1\nabc_D9=2');
    expect(result.problems).toEqual([]);
    expect(result.secrets).toHaveLength(2);
  });

  it('reports duplicate names with their lines', () => {
    const result = parseSecrets('A=first\nB=2\nA=second');
    expect(result.problems).toEqual([
      expect.stringContaining('A is given more than once (line 1, line 3)'),
    ]);
    expect(result.secrets).toEqual([{ name: 'B', value: '2' }]);
    expectNoLeak(result.problems, ['first', 'second']);
    expect(result.sensitive).toEqual(expect.arrayContaining(['first', 'second']));
  });

  it.each(['LANGSMITH_API_KEY', 'POSTGRES_URI', 'REDIS_URI', 'PORT', 'LANGGRAPH_AUTH_TYPE'])(
    'refuses the reserved name %s',
    (name) => {
      const result = parseSecrets(`${name}=reservedvalue\nOK=1`);
      expect(result.problems).toEqual([expect.stringContaining(`${name} is reserved`)]);
      expect(result.secrets).toEqual([{ name: 'OK', value: '1' }]);
      expectNoLeak(result.problems, ['reservedvalue']);
    },
  );

  it("refuses the name of skip-unchanged's own record", () => {
    const result = parseSecrets('LANGGRAPH_DEPLOY_ACTION_DIGEST=v1:forged\nOK=1');
    expect(result.problems).toEqual([
      expect.stringMatching(/LANGGRAPH_DEPLOY_ACTION_DIGEST is this action's own record/),
    ]);
    expect(result.secrets).toEqual([{ name: 'OK', value: '1' }]);
  });

  it('is case-sensitive about reserved names', () => {
    expect(parseSecrets('port=8080').problems).toEqual([]);
  });

  it('asks whether the GitHub secret behind an empty value is set', () => {
    const result = parseSecrets('OPENAI_API_KEY=\nBLANK=   \nOK=1');
    expect(result.problems).toHaveLength(2);
    expect(result.problems[0]).toMatch(
      /OPENAI_API_KEY is empty: is the GitHub secret behind it set\?/,
    );
    expect(result.problems[0]).toMatch(/forks or by Dependabot/);
    expect(result.problems[1]).toContain('BLANK is empty');
  });

  it.each([['{}'], ['{ }'], ['# only a comment\n\n  # another'], ['\n#X=1\n']])(
    'refuses %j, which holds no secret: an empty list changes nothing on the platform',
    (text) => {
      const { secrets, problems } = parseSecrets(text);
      expect(secrets).toEqual([]);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/`secrets` is set but holds no secret/);
      expect(problems[0]).toMatch(/changes nothing on the platform/);
      expect(problems[0]).toMatch(/leave the input out/);
    },
  );

  it('gives nothing for empty text', () => {
    expect(parseSecrets('')).toEqual({ secrets: [], problems: [], sensitive: [] });
    expect(parseSecrets('  \n ')).toEqual({ secrets: [], problems: [], sensitive: [] });
  });
});

describe('JSON object', () => {
  it('turns strings, numbers and booleans into strings', () => {
    const result = parseSecrets('  {"A": "x y", "N": 42, "F": 1.5, "T": true, "M": "l1\\nl2"}');
    expect(result.problems).toEqual([]);
    expect(result.secrets).toEqual([
      { name: 'A', value: 'x y' },
      { name: 'N', value: '42' },
      { name: 'F', value: '1.5' },
      { name: 'T', value: 'true' },
      { name: 'M', value: 'l1\nl2' },
    ]);
  });

  it('refuses objects, arrays and null, without their content', () => {
    const result = parseSecrets(
      '{"O": {"k": "nestedsecret"}, "L": ["arraysecret"], "Z": null, "OK": "v"}',
    );
    expect(result.problems).toEqual([
      expect.stringContaining('value of O is an object'),
      expect.stringContaining('value of L is an array'),
      expect.stringContaining('value of Z is null'),
    ]);
    expect(result.secrets).toEqual([{ name: 'OK', value: 'v' }]);
    expectNoLeak(result.problems, ['nestedsecret', 'arraysecret']);
    expect(result.sensitive).toEqual(expect.arrayContaining(['nestedsecret', 'arraysecret']));
  });

  it('applies the name, reserved and empty rules', () => {
    const result = parseSecrets('{"bad-name": "hiddenvalue", "PORT": "1", "E": ""}');
    expect(result.problems).toHaveLength(3);
    expect(result.problems[0]).toContain('key 1 of the JSON object is not a valid variable name');
    expect(result.problems.join('\n')).toContain('PORT is reserved');
    expect(result.problems.join('\n')).toContain('E is empty: is the GitHub secret behind it set?');
    expectNoLeak(result.problems, ['hiddenvalue', 'bad-name']);
  });

  it('reports invalid JSON by position, never quoting it', () => {
    const text = '{\n  "A": "supersecretvalue",\n  "B": oops\n}';
    const result = parseSecrets(text);
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatch(/not valid JSON: .* line 3, column 8/);
    expectNoLeak(result.problems, ['supersecretvalue', 'oops']);
    expect(result.sensitive).toContain('supersecretvalue');
    expect(result.secrets).toEqual([]);
  });
});

describe('describeJsonError', () => {
  function explain(text: string): string {
    try {
      JSON.parse(text);
    } catch (error) {
      return describeJsonError(text, error);
    }
    throw new Error('expected invalid JSON');
  }

  it.each([
    ['{"a": 1,}', /line 1, column 9/],
    ['{"a": tru}', /unexpected character at line 1, column 10/],
    ['xyz', /line 1, column 1/],
    ['{"a":\n  [1 2]}', /line 2, column 6/],
    ['{"a": 1} extra', /unexpected text after the JSON value at line 1, column 10/],
    ['{"a": [1, 2', /ends before the JSON value is complete/],
  ])('locates the error in %j', (text, expected) => {
    const message = explain(text);
    expect(message).toMatch(expected);
    expect(message).not.toContain(text);
  });

  it('knows the reserved list of the CLI', () => {
    expect(RESERVED_SECRET_NAMES.has('LANGCHAIN_API_KEY')).toBe(true);
    // The JS CLI's list adds it.
    expect(RESERVED_SECRET_NAMES.has('LANGGRAPH_HOST_API_KEY')).toBe(true);
    expect(parseSecrets('LANGGRAPH_HOST_API_KEY=x').problems[0]).toMatch(/reserved/);
    expect(RESERVED_SECRET_NAMES.has('OPENAI_API_KEY')).toBe(false);
  });
});
