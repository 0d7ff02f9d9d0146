// A Jest reporter that says loudly, at the end of `npm test`, which tests were skipped and
// how to run them, instead of leaving a warning lost in the middle of the output.
// Plain JavaScript: Jest loads reporters without transforming them.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The tests that need the real LangGraph agent server (fixtures/agent-app). */
export const FIXTURE_CHECK = join(
  'fixtures',
  'agent-app',
  'node_modules',
  '@langchain',
  'langgraph-cli',
  'package.json',
);

/**
 * The banner for a run's results, or '' when nothing was skipped.
 * @param {{ testResults: { testFilePath: string, numPendingTests: number, numTodoTests?: number }[] }} results
 * @param {{ rootDir: string, fixtureInstalled: boolean }} context
 * @returns {string}
 */
export function skippedBanner(results, context) {
  const skipped = results.testResults
    .filter((r) => r.numPendingTests > 0)
    .map((r) => ({ file: relative(context.rootDir, r.testFilePath), count: r.numPendingTests }));
  if (skipped.length === 0) return '';
  const total = skipped.reduce((sum, s) => sum + s.count, 0);
  const lines = [
    `SKIPPED: ${total} test${total === 1 ? '' : 's'} did not run:`,
    ...skipped.map((s) => `  - ${s.file} (${s.count})`),
  ];
  if (!context.fixtureInstalled) {
    lines.push(
      '',
      'The LangGraph agent server tests (integration and end to end) need the fixture app.',
      'Enable them with:   npm run test:setup   (= npm ci --prefix fixtures/agent-app)',
      'In CI (CI=true) they always run, and a missing install fails them.',
    );
  } else {
    lines.push('', 'Skipped with .skip, or left out by -t / a test name filter.');
  }
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '!'.repeat(width + 4);
  return ['', bar, ...lines.map((l) => `! ${l.padEnd(width)} !`), bar, ''].join('\n');
}

export default class SkippedTestsReporter {
  /** @param {{ rootDir: string }} globalConfig */
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  /** @param {unknown} _contexts @param {Parameters<typeof skippedBanner>[0]} results */
  onRunComplete(_contexts, results) {
    const banner = skippedBanner(results, {
      rootDir: this.rootDir,
      fixtureInstalled: existsSync(join(this.rootDir, FIXTURE_CHECK)),
    });
    if (banner) process.stderr.write(`${banner}\n`);
  }
}
