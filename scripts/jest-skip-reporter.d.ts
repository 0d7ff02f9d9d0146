export declare const FIXTURE_CHECK: string;
export declare function skippedBanner(
  results: { testResults: { testFilePath: string; numPendingTests: number }[] },
  context: { rootDir: string; fixtureInstalled: boolean },
): string;
export default class SkippedTestsReporter {
  constructor(globalConfig: { rootDir: string });
  onRunComplete(contexts: unknown, results: Parameters<typeof skippedBanner>[0]): void;
}
