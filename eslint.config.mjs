// ESLint flat config: typescript-eslint's type-aware rules over every TypeScript and JavaScript
// file the project owns (src, test, bench, scripts, grafana, .ci).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import moduleMap from './module-map.eslint.mjs';

export default tseslint.config(
  // Generated files: the dashboards' JSON (npm run dashboards) and the GraphQL resolver types
  // (npm run graphql:generate), whose helper types use `any` as graphql-codegen writes them;
  // the console's admin API types (npm run admin-api:generate).
  {
    ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'grafana/provisioning/**',
      'src/graphql/generated/**', 'console/src/api/admin-api.d.ts', 'test-results/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts', '**/*.tsx'],
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
  // The domain imports no driver or transport library (STYLE.md): these are the files that hold
  // domain logic and ports; adapters, routes, factories and the composition root may import them.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/adapters/**', 'src/**/state/**', 'src/**/upstream/**', 'src/**/stores/**',
      'src/**/delivery/**', 'src/**/routes/**', 'src/**/*-routes.ts', 'src/**/create-*.ts',
      'src/http/**', 'src/graphql/**', 'src/observability/**', 'src/cli/**', 'src/simulator/**',
      'src/config/**', 'src/ops/**', 'src/legacy-rest/**', 'src/camara/camara-*handler.ts',
      'src/camara/camara-request.ts', 'src/camara/camara-router.ts', 'src/camara/camara-api-kit.ts',
      'src/**/*-api.ts', 'src/server.ts', 'src/main.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['express', 'express/*', 'graphql', 'graphql/*', '@apollo/*', 'axios', 'axios/*', 'ioredis',
            'bullmq', 'pg', 'pg-*', 'prom-client', 'opossum', 'undici', 'pino'],
          message: 'Domain code imports no driver or transport library: declare a port beside the domain and implement it in an adapter.',
        }],
      }],
    },
  },
  // Which folder may import which: docs/architecture.md's module map.
  moduleMap,
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { ...globals.node }, sourceType: 'commonjs' },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module' },
  },
);
