/**
 * The values an agent answers are shown in a failed case's reason: a secret among them is
 * masked before the value is cut, so no prefix of it survives the cut.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { describeValue } from '../../src/verify/expectations.js';
import { captureOutputForTests, resetSecretsForTests, setSecret } from '../../src/lib/untrusted.js';

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
