import { describe, expect, it } from '@jest/globals';
import { skippedBanner } from '../scripts/jest-skip-reporter.js';

const ROOT = '/repo';
const results = (entries: [string, number][]) => ({
  testResults: entries.map(([file, pending]) => ({
    testFilePath: `${ROOT}/${file}`,
    numPendingTests: pending,
  })),
});

describe('the skipped-tests banner at the end of npm test', () => {
  it('names every file with skipped tests and how to enable the agent-server tests', () => {
    const banner = skippedBanner(
      results([
        ['__tests__/integration/langgraph-server.test.ts', 7],
        ['__tests__/e2e/real-agent-server.test.ts', 3],
        ['__tests__/wait.test.ts', 0],
      ]),
      { rootDir: ROOT, fixtureInstalled: false },
    );
    expect(banner).toContain('SKIPPED: 10 tests did not run');
    expect(banner).toContain('__tests__/integration/langgraph-server.test.ts (7)');
    expect(banner).toContain('__tests__/e2e/real-agent-server.test.ts (3)');
    expect(banner).not.toContain('wait.test.ts');
    expect(banner).toContain('npm run test:setup');
    expect(banner).toContain('npm ci --prefix fixtures/agent-app');
  });

  it('is silent when nothing was skipped', () => {
    expect(
      skippedBanner(results([['__tests__/wait.test.ts', 0]]), {
        rootDir: ROOT,
        fixtureInstalled: false,
      }),
    ).toBe('');
  });

  it('does not blame the fixture when it is installed', () => {
    const banner = skippedBanner(results([['__tests__/x.test.ts', 1]]), {
      rootDir: ROOT,
      fixtureInstalled: true,
    });
    expect(banner).toContain('SKIPPED: 1 test did not run');
    expect(banner).not.toContain('test:setup');
  });
});
