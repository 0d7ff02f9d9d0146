/**
 * Untrusted text through `src/runner.ts`: whatever a value or a block holds, the runner (as
 * replayed by `helpers/runner-replay.ts`) sees no command in it but the action's own.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  captureOutputForTests,
  collapseWhitespace,
  inert,
  printUntrusted,
  redact,
  resetSecretsForTests,
  runnerLogger,
  setSecret,
  startGroup,
} from '../src/runner.js';
import { forgedCommands, replayRunner } from './helpers/runner-replay.js';

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
      startGroup(payload);
    });
    // Exactly the three commands meant, each holding the payload as its data.
    const seen = replayRunner(out);
    expect(seen.map((c) => c.name)).toEqual(['error', 'warning', 'group']);
    for (const c of seen) expect(c.data).toBe(payload);
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
