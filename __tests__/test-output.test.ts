/**
 * `npm test` prints only the results: no ExperimentalWarning from `--experimental-vm-modules`,
 * no `::add-mask::` or log lines of the runner module, while a failing test is still shown.
 * Runs `npm test` itself (the package.json script) on one sample file.
 */
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';

function npmTest(env: Record<string, string>): string {
  const result = spawnSync(
    'npm',
    ['run', '-s', 'test', '--', '--testMatch', '**/__tests__/helpers/quiet-sample.check.ts'],
    {
      encoding: 'utf8',
      // No end-to-end test runs here: the global setup need not build a bundle, and the
      // teardown must not remove the bundle of the run this test is part of.
      env: {
        ...process.env,
        E2E_DIST: 'not-needed',
        E2E_DIST_BUILT_BY_SETUP: '',
        NODE_OPTIONS: '',
        ...env,
      },
      timeout: 120_000,
    },
  );
  return `${result.stdout}${result.stderr}`;
}

describe('npm test output', () => {
  it('holds the results and a real failure, and nothing else the tests wrote', () => {
    const out = npmTest({ QUIET_SAMPLE_FAIL: '1' });
    expect(out).toContain('Tests:       1 failed, 1 passed, 2 total');
    expect(out).toContain('Received: "a real failure"');
    expect(out).not.toContain('ExperimentalWarning');
    expect(out).not.toContain('::add-mask::');
    expect(out).not.toContain('quiet-sample-secret-value');
    expect(out).not.toContain('quiet sample info line');
  }, 120_000);
});
