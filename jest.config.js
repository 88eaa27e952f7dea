/**
 * Unit tests are fast and use in-memory adapters; infra tests check the repository's artefacts
 * (generated code, dashboards, manifests, type declarations) by running tsc, codegen or promtool
 * or reading the tree; e2e tests use real HTTP, the simulator and Redis; browser tests drive the
 * console in Chromium. Plain `jest` runs all four.
 */
// jose (and openid-client with its oauth4webapi, used by tests) are ESM only: Jest's own module
// system needs them as CommonJS (the built service loads jose through Node's require(esm), which
// Jest cannot use without --experimental-vm-modules).
const transform = {
  '^.+\\.ts$': ['ts-jest', { isolatedModules: true }],
  '^.+/node_modules/(jose|openid-client|oauth4webapi)/.+\\.js$': ['ts-jest', { isolatedModules: true, tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022' } }],
};
const transformIgnorePatterns = ['/node_modules/(?!(jose|openid-client|oauth4webapi)/)'];
module.exports = {
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js', '<rootDir>/test/support/exit-watchdog-reporter.js'],
  // A global option (ignored inside a project): e2e hooks start Redis clusters and servers.
  testTimeout: 30000,
  projects: [
    { displayName: 'unit', testEnvironment: 'node', transform, transformIgnorePatterns, testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    { displayName: 'infra', testEnvironment: 'node', transform, transformIgnorePatterns, testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
    { displayName: 'e2e', testEnvironment: 'node', transform, transformIgnorePatterns, testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts' },
    // The console in Debian's Chromium against the built service (npm run build first; npm test does).
    { displayName: 'browser', testEnvironment: 'node', transform, transformIgnorePatterns, testMatch: ['<rootDir>/test/browser/**/*.test.ts'] },
  ],
};
