/**
 * The one output gate (INTERFACE v1.2, "Every output is checked"): every output, whatever its
 * name, passes a rule before it is written; `setOutput` is called from the gate only; and the
 * README's workflows never paste an output into a `run:` script (they pass it through `env:`).
 */
import { setOutput } from '@actions/core';
import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { outputGate } from '../../src/lib/outputs.js';

const ROOT = join(import.meta.dirname, '../..');

function gate() {
  const written: [string, string][] = [];
  const warned: string[] = [];
  const output = outputGate({ warning: (m) => warned.push(m) }, (n, v) => written.push([n, v]));
  return { output, written, warned };
}

describe('the output gate', () => {
  it.each([
    ['revision-id', '9b48d351-6b05-468c-a1f2-9ec689fcc846', true],
    ['revision-id', 'r1$(curl evil|sh)', false],
    ['revision-id', 'a:b', false],
    ['rolled-back-to', "x';rm -rf ~;'", false],
    ['rolled-back-to', 'rev_1.2-3', true],
    ['deployment-id', 'a/b', false],
    ['deployment-id', 'a b', false],
    ['source-digest', 'a'.repeat(64), true],
    ['source-digest', 'a'.repeat(63), false],
    ['tests-passed', '12', true],
    ['tests-failed', '1; id', false],
    ['deleted', '["my-agent-pr-1","my-agent-pr-2"]', true],
    ['deleted', '[]', true],
    ['deleted', '["$(id)"]', false],
    ['deleted', '[ "a" ]', false],
    ['eval-passed', 'false', true],
    ['eval-passed', 'no', false],
    [
      'experiment-url',
      'https://smith.langchain.com/o/t/datasets/d/compare?selectedSessions=a%2Cb',
      true,
    ],
    [
      'eval-scores',
      '{"correctness":{"mean":0.5,"n":2,"baseline":null,"delta":null,"low":null,"high":null}}',
      true,
    ],
    ['eval-scores', '{}', true],
    ['eval-scores', '{"answer relevance":{"mean":1,"n":1}}', true],
    ['eval-scores', '{"it\'s":{"mean":1}}', false],
    ['eval-scores', '{"a;id":{"mean":1}}', false],
    ['eval-scores', '{"$(id)":{"mean":1}}', false],
    ['eval-scores', '{"a":{"mean":"$(id)"}}', false],
    ['eval-scores', '{ "a": {"mean": 1} }', false],
    ['eval-scores', '[1]', false],
    ['eval-scores', '{"a":{"mean":1,}}', false],
    ['registry', '127.0.0.1:5000', true],
    ['registry', 'us-docker.pkg.dev', true],
    ['registry', 'reg.io/path', false],
    ['registry', 'reg.io;id', false],
    ['image', 'us-docker.pkg.dev/langchain/tenant-1/my-agent', true],
    ['image', '127.0.0.1:5000/a/b', true],
    ['image', 'reg.io/a/b:tag', false],
    ['image', 'reg.io/a/$(id)', false],
    ['image', 'reg.io', false],
    // An output the gate has no own rule for gets the strictest one: an ID's.
    ['some-new-output', 'plain_value-1.0', true],
    ['some-new-output', 'https://x.example/"', false],
  ])('%s = %j: valid %s', (name, value, valid) => {
    const { output, written } = gate();
    output(name, value);
    expect(written.length === 1).toBe(valid);
  });

  it('writes a valid value once, refuses an invalid one with one warning', () => {
    const { output, written, warned } = gate();
    output('revision-id', 'rev-1');
    output('revision-id', 'rev-1');
    output('rolled-back-to', 'rev$(id)');
    output('rolled-back-to', 'rev$(id)');
    output('tests-passed', undefined);
    output('created', true);
    expect(written).toEqual([
      ['revision-id', 'rev-1'],
      ['created', 'true'],
    ]);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/Output `rolled-back-to` not written: .*not an ID/);
  });

  it('refuses an output name that is not one the action writes', () => {
    const { output, written, warned } = gate();
    output('url\nx', 'https://a.example');
    expect(written).toEqual([]);
    expect(warned[0]).toMatch(/not one the action writes/);
  });
});

describe('setOutput', () => {
  it('is used (imported, called or passed on) by the output gate only', () => {
    const callers: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts') && /\bsetOutput\b/.test(readFileSync(path, 'utf8')))
          callers.push(relative(ROOT, path));
      }
    };
    walk(join(ROOT, 'src'));
    // `core.setOutput`, from the gate only.
    expect(callers.sort()).toEqual(['src/lib/outputs.ts']);
  });

  it('appends outputs to GITHUB_OUTPUT with a heredoc delimiter', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'out-')), 'output');
    writeFileSync(file, ''); // the runner creates it
    const saved = process.env['GITHUB_OUTPUT'];
    process.env['GITHUB_OUTPUT'] = file;
    try {
      setOutput('url', 'https://x.example\nsecond'); // the gate's writer
    } finally {
      if (saved === undefined) delete process.env['GITHUB_OUTPUT'];
      else process.env['GITHUB_OUTPUT'] = saved;
    }
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^url<<(ghadelimiter_[0-9a-f-]+)\nhttps:\/\/x\.example\nsecond\n\1\n$/);
  });
});

describe("the README's workflows", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/^```ya?ml\n(.*?)^```/gms)].map((m) => m[1] ?? '');

  function runScripts(value: unknown, out: string[]): string[] {
    if (Array.isArray(value)) for (const v of value) runScripts(v, out);
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'run' && typeof v === 'string') out.push(v);
        else runScripts(v, out);
      }
    }
    return out;
  }

  it('are valid YAML and hold workflows with run steps', () => {
    expect(blocks.length).toBeGreaterThan(3);
    const scripts = blocks.flatMap((b) =>
      parseAllDocuments(b).flatMap((d) => runScripts(d.toJS(), [])),
    );
    expect(scripts.length).toBeGreaterThan(2);
  });

  it('never interpolate ${{ … outputs … }} into a run: script (outputs go through env:)', () => {
    const offending = blocks.flatMap((b) =>
      parseAllDocuments(b)
        .flatMap((d) => runScripts(d.toJS(), []))
        .filter((script) => /\$\{\{[^}]*\boutputs\b[^}]*\}\}/.test(script)),
    );
    expect(offending).toEqual([]);
  });
});
