// ESLint flat config: typescript-eslint's type-aware rules over every TypeScript and JavaScript
// file the project owns (src, test, bench, scripts, grafana, .ci).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  // Generated files: the dashboards' JSON (npm run dashboards) and the GraphQL resolver types
  // (npm run graphql:generate), whose helper types use `any` as graphql-codegen writes them.
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'grafana/provisioning/**',
      'src/graphql/generated/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  // Domain code (services, ports, the kernel, the errors, the CAMARA kit's rules) imports no
  // transport or driver library, so each feature's rules can be tested and reused without one
  // (docs/architecture.md, "Module map").
  {
    files: ['src/*/*-service.ts', 'src/*/domain/**/*.ts', 'src/*/ports/**/*.ts', 'src/kernel/**/*.ts', 'src/errors/**/*.ts',
      'src/camara/camara-call.ts', 'src/camara/camara-input.ts', 'src/camara/camara-errors.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['express', 'graphql', 'axios', 'ioredis', 'bullmq', 'pg', 'prom-client', 'opossum', 'pino', '@apollo/server'],
        patterns: ['@apollo/*', 'express/*', 'graphql/*'],
      }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
);
