/** The evaluation gate's inputs: checked before any request, each problem naming its input. */
import { describe, expect, it, jest } from '@jest/globals';
import type { DeployConfig, InputProblem } from '../../src/inputs/config.js';
import { langsmithApiUrlFor, parseGate } from '../../src/inputs/eval.js';
import { readConfig } from '../../src/inputs/read.js';
import { actionEnv } from '../helpers/fakes.js';

function read(inputs: Record<string, string>) {
  const all = { 'api-key': 'lsv2_pt_eval_inputs_key', name: 'my-agent', ...inputs };
  return readConfig(actionEnv(all), { mask: jest.fn<(value: string) => void>() });
}

function evaluation(inputs: Record<string, string>) {
  const result = read(inputs);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return { evaluation: (result.config as DeployConfig).evaluation, notes: result.notes };
}

function problems(inputs: Record<string, string>): InputProblem[] {
  const result = read(inputs);
  if (result.ok) throw new Error('expected input problems');
  return result.problems;
}

describe('eval-* inputs', () => {
  it('asks for no evaluation without eval-dataset', () => {
    expect(evaluation({}).evaluation).toBeUndefined();
  });

  it('reads the defaults of the contract', () => {
    expect(evaluation({ 'eval-dataset': 'qa' }).evaluation).toEqual({
      dataset: 'qa',
      splits: [],
      maxExamples: 200,
      concurrency: 4,
      baseline: 'auto',
      gate: {},
      waitSeconds: 300,
      apiUrl: 'https://api.smith.langchain.com',
    });
  });

  it('reads every input as given', () => {
    const { evaluation: read } = evaluation({
      'eval-dataset': 'qa',
      'eval-splits': ' test , hard,',
      'eval-assistant': 'agent',
      'eval-max-examples': '50',
      'eval-concurrency': '8',
      'eval-baseline': 'NONE',
      'eval-gate': 'correctness: {min: 0.8, max-drop: 0.05}\n"*": {max-drop: 0.1}',
      'eval-wait': '60',
      'langsmith-api-url': 'https://ls.example.com/api/v1/',
    });
    expect(read).toEqual({
      dataset: 'qa',
      splits: ['test', 'hard'],
      assistant: 'agent',
      maxExamples: 50,
      concurrency: 8,
      baseline: 'none',
      gate: { correctness: { min: 0.8, maxDrop: 0.05 }, '*': { maxDrop: 0.1 } },
      waitSeconds: 60,
      apiUrl: 'https://ls.example.com/api/v1',
    });
  });

  it('keeps an explicit baseline name as written', () => {
    expect(
      evaluation({ 'eval-dataset': 'qa', 'eval-baseline': 'Prod-Run' }).evaluation?.baseline,
    ).toBe('Prod-Run');
  });

  it('names each bad input before any request', () => {
    const found = problems({
      'eval-dataset': 'qa',
      'eval-max-examples': '0',
      'eval-concurrency': 'four',
      'eval-wait': '-1',
      'eval-gate': 'correctness: {minimum: 0.8}',
      'langsmith-api-url': 'http://ls.example.com',
    });
    expect(found.map((p) => p.input)).toEqual([
      'eval-gate',
      'langsmith-api-url',
      'eval-max-examples',
      'eval-concurrency',
      'eval-wait',
    ]);
    for (const problem of found) expect(problem.message).toContain(`\`${problem.input}\``);
  });

  it('notes that an evaluation needs wait', () => {
    const { notes } = evaluation({ 'eval-dataset': 'qa', wait: 'false' });
    expect(notes.join('\n')).toMatch(/`eval-dataset` is set but `wait` is false/);
  });
});

describe('parseGate', () => {
  it('reads min and max-drop per key, "*" included', () => {
    expect(parseGate('a: {min: 0}\nb:\n  max-drop: 0.1\n  min: -1')).toEqual({
      ok: true,
      gate: { a: { min: 0 }, b: { maxDrop: 0.1, min: -1 } },
    });
    expect(parseGate('')).toEqual({ ok: true, gate: {} });
    // The README's one-line form (a YAML flow mapping).
    expect(parseGate('{correctness: {min: 0.8}, "*": {max-drop: 0.05}}')).toEqual({
      ok: true,
      gate: { correctness: { min: 0.8 }, '*': { maxDrop: 0.05 } },
    });
  });

  it.each([
    ['correctness: {min: 0.8', /is not valid YAML \(line 1\)/],
    ['- correctness', /must be a YAML mapping/],
    ['0.8', /must be a YAML mapping/],
    ['correctness: 0.8', /gives key "correctness" no rules/],
    ['correctness: {}', /gives key "correctness" no rules/],
    [
      'correctness: {max_drop: 0.1}',
      /names the rule "max_drop" for key "correctness", which does not exist/,
    ],
    // A name every object inherits is not a rule either.
    [
      'correctness: {constructor: 0.5}',
      /names the rule "constructor" for key "correctness", which does not exist/,
    ],
    ['correctness: {toString: 0.5}', /names the rule "toString" for key "correctness"/],
    ['correctness: {min: high}', /gives `min` of key "correctness" the value "high"/],
    ['correctness: {max-drop: -0.1}', /number of at least 0/],
  ])('refuses %j', (raw, message) => {
    const parsed = parseGate(raw);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.message).toMatch(/^Input `eval-gate` /);
      expect(parsed.message).toMatch(message);
    }
  });
});

describe('langsmithApiUrlFor', () => {
  it('is the region’s api.smith host on LangSmith Cloud', () => {
    expect(langsmithApiUrlFor('https://api.host.langchain.com', 'us')).toBe(
      'https://api.smith.langchain.com',
    );
    expect(langsmithApiUrlFor('https://eu.api.host.langchain.com', 'eu')).toBe(
      'https://eu.api.smith.langchain.com',
    );
    expect(langsmithApiUrlFor('https://aws.api.host.langchain.com', 'aws-us')).toBe(
      'https://aws.api.smith.langchain.com',
    );
  });

  it('is the same origin’s /api/v1 with another control-plane-url', () => {
    expect(langsmithApiUrlFor('https://langsmith.example.com/api-host', 'us')).toBe(
      'https://langsmith.example.com/api/v1',
    );
    expect(langsmithApiUrlFor('http://127.0.0.1:8123', 'us')).toBe('http://127.0.0.1:8123/api/v1');
  });

  it('follows control-plane-url when langsmith-api-url is empty', () => {
    const { evaluation: read } = evaluation({
      'eval-dataset': 'qa',
      'control-plane-url': 'http://127.0.0.1:9',
    });
    expect(read?.apiUrl).toBe('http://127.0.0.1:9/api/v1');
  });
});

describe('eval-gate keys that every object inherits', () => {
  it('gates only the keys given: `constructor` and `toString` are not gated by accident', () => {
    const parsed = parseGate('"*": {min: 0.5}');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(parsed.gate['constructor']).toBeUndefined();
    expect(parsed.gate['toString']).toBeUndefined();
  });

  it('keeps a key named `__proto__` as a key, not as the rules of every other key', () => {
    const parsed = parseGate('__proto__: {min: 0.9}');
    if (!parsed.ok) throw new Error(parsed.message);
    expect(Object.keys(parsed.gate)).toEqual(['__proto__']);
    expect(parsed.gate['correctness']).toBeUndefined();
  });
});
