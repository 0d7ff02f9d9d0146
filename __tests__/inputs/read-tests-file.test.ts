/** `tests` and `tests-feedback-key`: the tests file is an input, checked before any request. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { actionEnv } from '../helpers/fakes.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInputs, type ReadConfigResult } from '../../src/inputs/read.js';

const workspace = mkdtempSync(join(tmpdir(), 'inputs-tests-file-'));
afterAll(() => rmSync(workspace, { recursive: true, force: true }));
writeFileSync(join(workspace, 'good.yaml'), 'cases: [{name: a, turns: [{input: {x: 1}}]}]\n');
writeFileSync(
  join(workspace, 'bad.yaml'),
  'cases: [{name: a, turns: []}, {name: a, turns: [{input: {}, expect: {matches: "("}}]}]\n',
);

function env(inputs: Record<string, string>): NodeJS.ProcessEnv {
  const all = { 'api-key': 'lsv2_key_1234', name: 'my-agent', ...inputs };
  return actionEnv(all, { GITHUB_WORKSPACE: workspace });
}

const mask = () => undefined;

/** The `tests` of a deploy's config (fails the test unless the inputs read as a deploy). */
function testsOf(read: ReadConfigResult) {
  if (!read.ok || read.config.command !== 'deploy') throw new Error('expected a deploy config');
  return read.config.tests;
}

describe('readInputs with a tests file', () => {
  it('reads and validates the file from the checkout; feedback key defaults to ci', async () => {
    const read = await readInputs(env({ tests: 'good.yaml' }), { mask });
    expect(read.ok).toBe(true);
    expect(testsOf(read)).toEqual({
      file: 'good.yaml',
      feedbackKey: 'ci',
      // The region's LangSmith API host: the only place verdicts are sent.
      feedbackHost: 'api.smith.langchain.com',
      cases: [{ name: 'a', turns: [{ input: { x: 1 } }] }],
    });
  });

  it('an empty tests-feedback-key means no feedback', async () => {
    const read = await readInputs(env({ tests: 'good.yaml', 'tests-feedback-key': '' }), { mask });
    expect(testsOf(read)?.feedbackKey).toBeUndefined();
  });

  it('reports every problem of the file as a `tests` input error, with the others', async () => {
    const read = await readInputs(env({ tests: 'bad.yaml', region: 'mars' }), { mask });
    expect(read.ok).toBe(false);
    const problems = read.ok ? [] : read.problems;
    expect(problems.map((p) => p.input)).toEqual(['region', 'tests', 'tests', 'tests']);
    expect(problems[1]?.message).toBe(
      'Tests file bad.yaml, case "a", key `turns`: is an empty list: give at least one turn (each with an `input`).',
    );
    expect(problems[2]?.message).toContain('case "a" (#2), key `name`: is not unique');
    expect(problems[3]?.message).toContain(
      'case "a", turn 1, key `expect.matches`: is not a regular expression in RE2 syntax',
    );
  });

  it('names a missing file and refuses a bad feedback key', async () => {
    const read = await readInputs(
      env({ tests: 'missing.yaml', 'tests-feedback-key': 'has space' }),
      { mask },
    );
    const problems = read.ok ? [] : read.problems;
    expect(problems.map((p) => p.input)).toEqual(['tests-feedback-key', 'tests']);
    expect(problems[1]?.message).toContain('Input `tests` is "missing.yaml", which does not exist');
  });

  it('is ignored by command delete', async () => {
    const read = await readInputs(env({ command: 'delete', tests: 'missing.yaml' }), { mask });
    expect(read.ok).toBe(true);
    expect(read.ok && read.config).not.toHaveProperty('tests');
  });

  it('leaves the config without tests when the input is empty', async () => {
    const read = await readInputs(env({}), { mask });
    expect(testsOf(read)).toBeUndefined();
  });
});
