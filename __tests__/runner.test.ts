import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';
import {
  captureOutputForTests,
  getInput,
  parseBoolean,
  redact,
  resetSecretsForTests,
  runnerLogger,
  setOutput,
  setSecret,
} from '../src/runner.js';

function captureCore(fn: () => void): string {
  let out = '';
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    out += String(chunk);
    return true;
  });
  try {
    fn();
  } finally {
    spy.mockRestore();
  }
  return out;
}

function captureOurs(fn: () => void): string {
  let out = '';
  const restore = captureOutputForTests((t) => (out += t));
  try {
    fn();
  } finally {
    restore();
  }
  return out;
}

afterEach(() => resetSecretsForTests());

describe('workflow commands match @actions/core', () => {
  const message = 'line one\nline 100% two: a,b';
  const props = { title: 'T: x,y', file: 'a/b.json', startLine: 3, startColumn: 7 };

  it.each(['error', 'warning', 'notice'] as const)('%s with properties', (kind) => {
    expect(captureOurs(() => runnerLogger[kind](message, props))).toBe(
      captureCore(() => core[kind](message, props)),
    );
  });

  it('debug and info', () => {
    expect(captureOurs(() => runnerLogger.debug(message))).toBe(
      captureCore(() => core.debug(message)),
    );
    expect(captureOurs(() => runnerLogger.info(message))).toBe(
      captureCore(() => core.info(message)),
    );
  });

  it('add-mask', () => {
    expect(captureOurs(() => setSecret('s3cr%et'))).toBe(
      captureCore(() => core.setSecret('s3cr%et')),
    );
  });
});

describe('secrets', () => {
  it('masks each line of a multi-line value and redacts every later message', () => {
    const out = captureOurs(() => {
      setSecret('first-line\nsecond-line');
      runnerLogger.error('oops second-line leaked');
      runnerLogger.info('and first-line too');
    });
    expect(out).toContain('::add-mask::first-line\n');
    expect(out).toContain('::add-mask::second-line\n');
    expect(out).toContain('::error::oops *** leaked');
    expect(out).toContain('and *** too');
    expect(redact('xx first-line%0Asecond-line')).toBe('xx ***%0A***');
  });
});

describe('inputs and outputs', () => {
  it('reads INPUT_ variables with the dash kept, trimmed', () => {
    expect(getInput('api-key', { 'INPUT_API-KEY': '  k  ' })).toBe('k');
    expect(getInput('api-key', {})).toBe('');
  });

  it('accepts the YAML 1.2 core booleans only', () => {
    expect(['true', 'True', 'TRUE'].map(parseBoolean)).toEqual([true, true, true]);
    expect(['false', 'False', 'FALSE'].map(parseBoolean)).toEqual([false, false, false]);
    expect(parseBoolean('yes')).toBeUndefined();
  });

  it('appends outputs to GITHUB_OUTPUT with a heredoc delimiter', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'out-')), 'output');
    setOutput('url', 'https://x.example\nsecond', { GITHUB_OUTPUT: file });
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^url<<(ghadelimiter_[0-9a-f-]+)\nhttps:\/\/x\.example\nsecond\n\1\n$/);
  });
});

describe('stdout', () => {
  it('keeps going (same exit code, no crash) when the reader closes the pipe', async () => {
    const { spawn } = await import('node:child_process');
    const script =
      "import { runnerLogger } from './src/runner.ts';" +
      "for (let i = 0; i < 2000; i++) runnerLogger.info('x'.repeat(1000));" +
      'process.exitCode = 3;';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.destroy(); // the reader goes away before the first line
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(3);
  });
});
