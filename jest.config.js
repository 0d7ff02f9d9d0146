/**
 * Jest in ESM mode (run with NODE_OPTIONS=--experimental-vm-modules, see package.json, which
 * also silences the one ExperimentalWarning that flag prints).
 */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
  },
  testMatch: ['**/__tests__/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/fixtures/agent-app/'],
  modulePathIgnorePatterns: ['<rootDir>/fixtures/agent-app/'],
  testTimeout: 30000,
  // The runner module's workflow commands (`::add-mask::` …) stay out of the results.
  setupFilesAfterEnv: ['<rootDir>/__tests__/helpers/quiet-runner.ts'],
  // End-to-end tests run a bundle of the current source, built once per run.
  globalSetup: './scripts/jest-global-setup.mjs',
  globalTeardown: './scripts/jest-global-teardown.mjs',
  // Says at the end which tests were skipped and how to enable them (scripts/jest-skip-reporter.js).
  reporters: ['default', '<rootDir>/scripts/jest-skip-reporter.js'],
};
