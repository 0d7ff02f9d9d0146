import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  renderInputErrorSummary,
  renderUnexpectedErrorSummary,
} from '../../src/inputs/error-summary.js';
import { messageMarkdown } from '../../src/report/markdown.js';
import { appendStepSummary, resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';

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

describe('input-error step summary', () => {
  it('names every input and its problem, and says nothing was deployed', () => {
    const md = renderInputErrorSummary([
      { input: 'api-key', message: '`api-key` is empty: forks and Dependabot get no secrets.' },
      { input: 'timeout', message: '`timeout` must be a number of seconds, got "ten".' },
    ]);
    expect(md).toMatch(/^### ❌ 2 input errors: nothing was deployed/);
    expect(md).toContain('nothing was sent to the control plane');
    expect(md).toContain(
      '| `api-key` | `api-key` is empty: forks and Dependabot get no secrets. |',
    );
    expect(md).toContain(
      '| `timeout` | `timeout` must be a number of seconds, got &#34;ten&#34;. |',
    );
  });

  it('is appended to GITHUB_STEP_SUMMARY, with secret values redacted', () => {
    const dir = mkdtempSync(join(tmpdir(), 'input-summary-'));
    try {
      const file = join(dir, 'summary.md');
      setSecret('hunter2-secret');
      appendStepSummary(
        renderInputErrorSummary([{ input: 'secrets', message: 'bad line hunter2-secret' }]),
        { GITHUB_STEP_SUMMARY: file },
      );
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('1 input error');
      expect(text).not.toContain('hunter2-secret');
      // Without GITHUB_STEP_SUMMARY nothing is written and nothing throws.
      expect(() =>
        appendStepSummary(renderInputErrorSummary([{ input: 'x', message: 'y' }]), {}),
      ).not.toThrow();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an unexpected error gets a summary that says it is a bug', () => {
    const md = renderUnexpectedErrorSummary('Unexpected error: boom');
    expect(md).toContain('unexpected error');
    expect(md).toContain('boom');
    expect(md).toContain('bug in the action');
  });
});
