/**
 * What `src/lib/untrusted.ts` adds to `@actions/core`: untrusted text (whatever a value or a block
 * holds, the runner, as replayed by `helpers/runner-replay.ts`, sees no command in it but the
 * action's own) and in-process masking of secrets.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendStepSummary,
  collapseWhitespace,
  inert,
  printUntrusted,
  redact,
  resetSecretsForTests,
  runnerLogger,
  setFailed,
  setSecret,
} from '../../src/lib/untrusted.js';
import { forgedCommands, replayRunner } from '../helpers/runner-replay.js';
import { captureOutputForTests, recordingLogger } from '../helpers/fakes.js';

afterEach(() => resetSecretsForTests());

function capture(fn: () => void): string {
  let out = '';
  const restore = captureOutputForTests((t) => (out += t));
  try {
    fn();
  } finally {
    restore();
  }
  return out;
}

const HOSTILE = [
  '::error::PWNED-1',
  '  ::warning title=PWNED::x',
  '##[set-output name=url;]PWNED-2',
  'text ##[error]PWNED-3',
  'a\r::notice::PWNED-4',
  'b\r\n::add-mask::PWNED-5',
  ':::error::PWNED-6',
  '::::error::PWNED-7',
  '###[error]PWNED-8',
  '\u001b[0m::error::PWNED-9',
  '\u0085::error::PWNED-10',
  '\u2028::error::PWNED-11',
  '::stop-commands::PWNED-12',
  '::error::PWNED-13 after the forged stop',
];

describe('replayRunner (the test helper itself)', () => {
  it('finds what the runner would run: line starts, legacy commands anywhere, CR splits', () => {
    const names = replayRunner(
      [
        '  ::error::x',
        'a ##[warning]y',
        'z\r::notice::w',
        'plain',
        '::stop-commands::t',
        '::error::hidden',
        '::t::',
        '::debug::d',
      ].join('\n'),
    ).map((c) => c.name);
    expect(names).toEqual([
      'error',
      'warning',
      'notice',
      'stop-commands',
      'resume-commands',
      'debug',
    ]);
  });

  it('counts every hostile line printed raw as forged', () => {
    // The oracle for the tests below: printed as is, every payload but three is a command
    // (`::::error::` has an empty name, the ANSI one does not start the line, and the last one
    // comes after the forged stop-commands).
    expect(forgedCommands(HOSTILE.join('\n'))).toHaveLength(HOSTILE.length - 3);
  });
});

describe('inert', () => {
  it.each(HOSTILE)('makes %j inert inside one of the action’s lines', (payload) => {
    for (const wrap of [(v: string) => v, (v: string) => `Deployment '${v}' is live.`]) {
      const out = capture(() => runnerLogger.info(wrap(inert(payload))));
      expect(forgedCommands(out)).toEqual([]);
      expect(out.split('\n').filter(Boolean)).toHaveLength(1);
    }
  });

  it('breaks every pair of colons and every ##[ (no leftover after the first match)', () => {
    for (const payload of [':::', '::::', '##[', '###[', '####[[']) {
      const out = inert(payload);
      expect(out).not.toContain('::');
      expect(out).not.toContain('##[');
    }
  });

  it('replaces control characters and strips ANSI sequences', () => {
    expect(inert('a\r\nb\tc\u0000d\u001b[31me\u007f')).toBe('a  b c de ');
  });

  it('masks secrets before cutting, so a cut secret does not show', () => {
    capture(() => setSecret('supersecretvalue'));
    const out = inert(`x ${'supersecretvalue'}`, 8);
    expect(out).not.toContain('supers');
    expect(out.length).toBeLessThanOrEqual(8);
  });
});

describe('runnerLogger.info', () => {
  it.each(HOSTILE)(
    'prints %j without a command even when a call site forgets inert()',
    (payload) => {
      const out = capture(() => runnerLogger.info(`Status: ${payload}`));
      expect(forgedCommands(out)).toEqual([]);
      expect(forgedCommands(capture(() => runnerLogger.info(payload)))).toEqual([]);
    },
  );

  it('keeps the action’s own multi-line messages as lines', () => {
    expect(capture(() => runnerLogger.info('one\ntwo'))).toBe('one\ntwo\n');
  });
});

describe('annotations and groups', () => {
  it.each(HOSTILE)('keep %j inside their one command', (payload) => {
    const out = capture(() => {
      runnerLogger.error(payload, { title: payload });
      runnerLogger.warning(payload);
      printUntrusted([], payload);
    });
    // Exactly the commands meant: the annotations hold the payload, the group its inert form.
    const seen = replayRunner(out);
    expect(seen.map((c) => c.name)).toEqual([
      'error',
      'warning',
      'group',
      'stop-commands',
      'resume-commands',
      'endgroup',
    ]);
    expect(seen.slice(0, 3).map((c) => c.data)).toEqual([payload, payload, inert(payload)]);
  });
});

describe('printUntrusted', () => {
  it('prints a hostile block between stop-commands and a fresh token, and the runner sees none', () => {
    const out = capture(() => {
      printUntrusted(HOSTILE);
      runnerLogger.error('the action’s own error');
    });
    expect(forgedCommands(out)).toEqual([]);
    const seen = replayRunner(out);
    expect(seen.map((c) => c.name)).toEqual(['stop-commands', 'resume-commands', 'error']);
    expect(seen[2]!.data).toBe('the action’s own error');
    // Every payload's marker is still shown, as text.
    for (const line of HOSTILE) expect(out).toContain(/PWNED(-\d+)?/.exec(line)![0]);
  });

  it('uses a fresh token every time', () => {
    const tokens = [1, 2].map(
      () => /::stop-commands::(\S+)/.exec(capture(() => printUntrusted('x')))![1],
    );
    expect(tokens[0]).not.toBe(tokens[1]);
  });

  it('masks secrets in the whole text, even one split over lines', () => {
    capture(() => setSecret('line-one-secret\nline-two-secret'));
    const out = capture(() => printUntrusted(['a line-one-secret', 'line-two-secret b']));
    expect(out).not.toContain('line-one-secret');
    expect(out).not.toContain('line-two-secret');
  });
});

describe('secrets holding whitespace', () => {
  it('are masked in their whitespace-collapsed form too', () => {
    const secret = 'pass\tword  with   gaps';
    const out = capture(() => setSecret(secret));
    expect(out).toContain(`::add-mask::${collapseWhitespace(secret)}`);
    expect(redact(`detail: ${collapseWhitespace(secret)}.`)).toBe('detail: ***.');
    expect(redact(`detail: ${secret}.`)).toBe('detail: ***.');
  });
});

describe('secrets holding quotes, backslashes or control characters', () => {
  it('are masked in their JSON-escaped form too (answers and agent output are printed as JSON)', () => {
    const secret = 'pa"ss\\wo/rd\u0001x';
    const out = capture(() => setSecret(secret));
    const escaped = JSON.stringify(secret).slice(1, -1);
    expect(out).toContain(`::add-mask::${escaped}`);
    expect(redact(JSON.stringify({ password: secret }))).toBe('{"password":"***"}');
  });
});

describe('secrets', () => {
  it('masks each line of a multi-line value and redacts every later message', () => {
    const out = capture(() => {
      setSecret('first-line\nsecond-line');
      runnerLogger.error('oops second-line leaked', { title: 'about first-line' });
      runnerLogger.info('and first-line too');
      runnerLogger.debug('debug second-line');
    });
    expect(out).toContain('::add-mask::first-line\n');
    expect(out).toContain('::add-mask::second-line\n');
    expect(out).toContain('::error title=about ***::oops *** leaked');
    expect(out).toContain('and *** too');
    expect(out).toContain('::debug::debug ***');
    const printed = out.split('\n').filter((line) => !line.startsWith('::add-mask::'));
    expect(printed.join('\n')).not.toMatch(/(first|second)-line/);
    expect(redact('xx first-line%0Asecond-line')).toBe('xx ***%0A***');
  });

  it('leaves values under three characters in messages (they are add-masked all the same)', () => {
    const out = capture(() => setSecret('40'));
    expect(out).toContain('::add-mask::40');
    expect(redact('HTTP 401')).toBe('HTTP 401');
  });
});

describe('the exit code (through @actions/core)', () => {
  it('setFailed sets exit code 1 with one error annotation', () => {
    const saved = process.exitCode;
    try {
      const out = capture(() => setFailed('it broke: ::x', { title: 'Broken' }));
      expect(process.exitCode).toBe(1);
      expect(replayRunner(out).map((c) => c.name)).toEqual(['error']);
    } finally {
      process.exitCode = saved;
    }
  });
});

describe('stdout', () => {
  it('keeps going (same exit code, no crash) when the reader closes the pipe', async () => {
    const { spawn } = await import('node:child_process');
    const script =
      "import { keepGoingWhenStdoutCloses, runnerLogger } from './src/lib/untrusted.ts';" +
      'keepGoingWhenStdoutCloses();' +
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

describe('appendStepSummary (the one writer of the step summary)', () => {
  it('appends with secrets masked, does nothing without the variable, warns when it cannot write', () => {
    const dir = mkdtempSync(join(tmpdir(), 'summary-'));
    const file = join(dir, 'summary.md');
    setSecret('sum-s3cret-value');
    const logger = recordingLogger();
    appendStepSummary('one sum-s3cret-value', { GITHUB_STEP_SUMMARY: file }, logger);
    appendStepSummary('two', { GITHUB_STEP_SUMMARY: file }, logger);
    expect(readFileSync(file, 'utf8').split(/\r?\n/)).toEqual(['one ***', 'two', '']);
    appendStepSummary('three', {}, logger);
    expect(logger.warnings()).toHaveLength(0);
    appendStepSummary('four', { GITHUB_STEP_SUMMARY: dir }, logger);
    expect(logger.warnings().map((w) => w.message)).toEqual([
      expect.stringContaining(`Could not write the step summary to ${dir}`),
    ]);
  });
});
