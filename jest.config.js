/** Unit tests are fast and use in-memory adapters; e2e tests use real HTTP, the simulator and Redis. */
const transform = { '^.+\\.ts$': ['ts-jest', { isolatedModules: true }] };
module.exports = {
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  // A global option (ignored inside a project): e2e hooks start Redis clusters and servers.
  testTimeout: 30000,
  projects: [
    { displayName: 'unit', testEnvironment: 'node', transform, testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { displayName: 'e2e', testEnvironment: 'node', transform, testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts' },
  ],
};
