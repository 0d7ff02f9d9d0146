/**
 * `expect.matches` runs in linear time on at most the first 64 KiB of the reply: the worst
 * expressions we could build finish in milliseconds on a 64 KiB reply (a backtracking engine
 * takes minutes on 30 characters of `(a+)+b`). The values an agent answers are shown in a
 * failed case's reason: a secret among them is masked before the value is cut, so no prefix
 * of it survives the cut.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  MAX_CHECKED_CHARS,
  checkTurn,
  describeValue,
  patternMatches,
} from '../../src/verify/expectations.js';
import { patternProblem } from '../../src/inputs/tests-file.js';
import { resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';
import { captureOutputForTests } from '../helpers/fakes.js';

const SIXTY_FOUR_KIB = 64 * 1024;

describe('matches', () => {
  it.each([
    ['(a+)+b', 'a'],
    ['(a|a)*b', 'a'],
    ['(a|aa)+b$', 'a'],
    ['^(a|aa)+c$', 'a'],
    ['(x+x+)+y', 'x'],
    ['(\\w+\\s?)+$!', 'a '],
    ['(.*){1,32}[bc]', 'a'],
    ['((a*)*)*b', 'a'],
  ])('%s on 64 KiB of %j: no match, in bounded time', (source, unit) => {
    expect(patternProblem(source)).toBeUndefined();
    const text = unit.repeat(SIXTY_FOUR_KIB / unit.length);
    const started = performance.now();
    expect(patternMatches(source, text)).toBe(false);
    // Measured at 0.1 to 200 ms on a shared 2-core machine; a backtracking engine never ends.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it.each(['(.*){1,100}[bc]', '(.*){1,1000}[bc]', '((.*){1,100}){1,10}[bc]', '(\\w*){1,1000}'])(
    'refuses %s: linear, but its program is too large to stay fast',
    (source) => {
      expect(patternProblem(source)).toMatch(/compiles to \d+ instructions, more than the 300/);
    },
  );

  it('looks at the first 64 KiB only, also for contains', () => {
    const reply = `${'a'.repeat(MAX_CHECKED_CHARS)}NEEDLE`;
    expect(patternMatches('NEEDLE', reply)).toBe(false);
    expect(patternMatches('^a+$', reply)).toBe(true);
    const values = { messages: [{ type: 'ai', content: reply }] };
    expect(() => checkTurn('t', { input: {}, expect: { contains: 'NEEDLE' } }, values)).toThrow(
      /does not contain "NEEDLE"/,
    );
    expect(() => checkTurn('t', { input: {}, expect: { matches: 'NEED' } }, values)).toThrow(
      /does not match/,
    );
    expect(() => checkTurn('t', { input: {}, expect: { matches: '\\ba+' } }, values)).not.toThrow();
  });
});

afterEach(() => resetSecretsForTests());

describe('describeValue', () => {
  it('masks a secret before cutting, even one the cut would split', () => {
    const secret = 'sk-live-conversation-secret-77';
    const restore = captureOutputForTests(() => undefined);
    try {
      setSecret(secret);
    } finally {
      restore();
    }
    for (let at = 100; at < 125; at++) {
      const shown = describeValue(`${'x'.repeat(at)}${secret} tail`);
      expect(shown.length).toBeLessThanOrEqual(120);
      expect({ at, leak: shown.includes('sk-live') }).toEqual({ at, leak: false });
    }
  });
});
