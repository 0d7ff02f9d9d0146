import { afterEach, describe, expect, it } from '@jest/globals';
import {
  Checks,
  fillTemplate,
  listFilter,
  matchTemplate,
  parseNameTemplate,
  feedbackHostFor,
  type NameTemplate,
} from '../../src/inputs/validate.js';
import { messageMarkdown } from '../../src/report/markdown.js';
import { resetSecretsForTests } from '../../src/lib/untrusted.js';

function template(raw: string): NameTemplate {
  const parsed = parseNameTemplate(raw);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
}

describe('parseNameTemplate', () => {
  it('splits the literal prefix and suffix around {pr}', () => {
    expect(template('my-agent-pr-{pr}')).toEqual({
      template: 'my-agent-pr-{pr}',
      prefix: 'my-agent-pr-',
      suffix: '',
    });
    expect(template('pr-{pr}-agent')).toMatchObject({ prefix: 'pr-', suffix: '-agent' });
  });

  it.each([
    ['my-agent', 'no `{pr}`'],
    ['pr-{pr}-{pr}', '2 times'],
    ['My-Agent-{pr}', 'lowercase letters, digits and hyphens'],
    ['agent_{pr}', 'lowercase letters, digits and hyphens'],
    ['agent-{PR}', 'no `{pr}`'],
  ])('refuses %s, naming the input', (raw, why) => {
    const parsed = parseNameTemplate(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toContain('`name`');
      expect(parsed.message).toContain(why);
    }
  });
});

describe('matchTemplate', () => {
  const t = template('my-agent-pr-{pr}');

  it.each([
    ['my-agent-pr-12', 12],
    ['my-agent-pr-1', 1],
    ['my-agent-pr-4096', 4096],
  ])('%s is PR %d', (name, pr) => {
    expect(matchTemplate(t, name)).toBe(pr);
  });

  it.each([
    'my-agent-pr-12-old',
    'my-agent-pr-x',
    'my-agent-pr-',
    'my-agent-pr-012',
    'my-agent-pr-0',
    'other-my-agent-pr-12',
    'my-agent-pr-12345678901',
    'my-agent-pr-1e3',
  ])('%s does not match', (name) => {
    expect(matchTemplate(t, name)).toBeUndefined();
  });

  it('matches a suffix too, and never lets the number eat it', () => {
    const s = template('pr-{pr}-agent');
    expect(matchTemplate(s, 'pr-7-agent')).toBe(7);
    expect(matchTemplate(s, 'pr-7-agent-2')).toBeUndefined();
    expect(matchTemplate(s, 'pr--agent')).toBeUndefined();
    expect(matchTemplate(template('{pr}'), '42')).toBe(42);
  });
});

describe('listFilter and fillTemplate', () => {
  it('lists by the literal prefix, the suffix when there is none, nothing for {pr} alone', () => {
    expect(listFilter(template('my-agent-pr-{pr}'))).toBe('my-agent-pr-');
    expect(listFilter(template('{pr}-preview'))).toBe('-preview');
    expect(listFilter(template('{pr}'))).toBeUndefined();
  });

  it('fills every {pr}', () => {
    expect(fillTemplate('preview-pr-{pr}', 12)).toBe('preview-pr-12');
    expect(fillTemplate('pr-{pr}/{pr}', 3)).toBe('pr-3/3');
  });
});

describe('Checks.command (the platform rule for install-command / build-command)', () => {
  function refusal(command: string): string | undefined {
    const check = new Checks();
    check.command('build-command', command);
    return check.problems[0]?.message;
  }

  it.each(['npm ci', 'npm ci && npm run build', 'yarn install --frozen-lockfile', 'a &&&& b'])(
    'accepts %j',
    (command) => expect(refusal(command)).toBeUndefined(),
  );
  it.each([
    ['npm run build; rm -rf /', /semicolon/],
    ['npm start &', /lone &/],
    ['a &&& b', /lone &/],
    ['echo $HOME', /dollar/],
    ['cat a | b', /pipe/],
    ['a > b', /redirection/],
    ['a < b', /redirection/],
    ['echo "x"', /double quote/],
    ['echo `x`', /backtick/],
    ['a \\ b', /backslash/],
    ['a\nb', /newline/],
    ['a\rb', /carriage return/],
    ['a\tb', /tab/],
    ['a\0b', /NUL/],
  ])('refuses %j', (command, why) => expect(refusal(command)).toMatch(why));
});

afterEach(() => resetSecretsForTests());

describe('messageMarkdown', () => {
  it('keeps code spans and escapes everything else', () => {
    expect(messageMarkdown('`timeout` must be a number, got "ten"')).toBe(
      '`timeout` must be a number, got &#34;ten&#34;',
    );
    const hostile = 'name <img src=x> [click](https://evil.example) | `a|b` **bold**';
    const md = messageMarkdown(hostile, { inTable: true });
    expect(md).not.toContain('<img');
    expect(md).not.toContain('](');
    expect(md).not.toContain('**');
    expect(md).toContain('`a\\|b`');
    expect(md).not.toMatch(/[^\\]\|(?!b)/);
  });
});

describe('feedbackHostFor', () => {
  it.each([
    ['https://api.host.langchain.com', 'us', 'api.smith.langchain.com'],
    ['https://eu.api.host.langchain.com', 'eu', 'eu.api.smith.langchain.com'],
    ['https://apac.api.host.langchain.com', 'apac', 'apac.api.smith.langchain.com'],
    ['https://aws.api.host.langchain.com', 'aws-us', 'aws.api.smith.langchain.com'],
    ['https://langsmith.corp.example/api-host', 'us', 'langsmith.corp.example'],
    ['http://127.0.0.1:4010', 'eu', '127.0.0.1:4010'],
  ] as const)('%s (%s) → %s', (controlPlane, region, host) => {
    expect(feedbackHostFor(controlPlane, region)).toBe(host);
  });
});
