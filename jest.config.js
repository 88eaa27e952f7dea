/** Unit tests are fast and use in-memory adapters; e2e tests use real HTTP, the simulator and Redis. */
const transform = { '^.+\\.ts$': ['ts-jest', { isolatedModules: true }] };
module.exports = {
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    { displayName: 'unit', testEnvironment: 'node', transform, testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { displayName: 'e2e', testEnvironment: 'node', transform, testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts', testTimeout: 30000 },
  ],
};
