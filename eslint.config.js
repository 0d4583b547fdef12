import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import auditWrites from './eslint/audit-writes.js';
import { AUDIT_WRITERS } from './eslint/audit-writers.js';
import boundaries from './eslint/boundaries.js';
import { SCHEMA_READS } from './eslint/schema-reads.js';
import { TABLE_OWNERS } from './eslint/table-owners.js';

/**
 * Imports flow one way (DESIGN.md): contract <- server/web; platform/shared <- modules/features <- app.
 * Checked on the import specifier with core ESLint, which needs no resolver.
 */
const layer = (files, banned, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group: banned, message }] }] },
});

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'bench/results/**', 'apps/server/migrations/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'info'] }],
    },
  },
  layer(
    ['packages/contract/**'],
    ['**/apps/**', '@portal/server*', '@portal/web*'],
    'contract is shared by both apps and imports neither',
  ),
  layer(
    ['apps/server/**'],
    ['**/apps/web/**', '@portal/web*', '**/web/src/**'],
    'the server does not import the web app',
  ),
  layer(
    ['apps/web/**'],
    ['**/apps/server/**', '@portal/server*', '**/server/src/**'],
    'the web app does not import the server',
  ),
  // Tests compose the whole app, so they may reach the modules (their harness is src/testing/).
  {
    ...layer(
      ['apps/server/src/platform/**'],
      ['**/modules/**', '**/modules', '**/server'],
      'platform must not depend on business modules or the composition root',
    ),
    ignores: ['apps/server/src/platform/**/*.test.ts'],
  },
  layer(
    ['apps/web/src/shared/**'],
    ['**/features/**', '**/app/**'],
    'shared must not depend on features or app',
  ),
  layer(['apps/web/src/features/**'], ['**/app/**'], 'features must not depend on app'),
  {
    files: ['apps/web/src/features/**', 'apps/server/src/modules/**'],
    plugins: { portal: boundaries },
    rules: {
      'portal/module-boundaries': ['error', { schemaReads: SCHEMA_READS, tables: TABLE_OWNERS }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { audit: auditWrites },
    rules: { 'audit/audit-writes': ['error', { allowed: AUDIT_WRITERS }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: [
      'bench/**',
      'scripts/**',
      '**/*.config.*',
      'apps/server/build.mjs',
      '**/*.test.ts',
      '**/*.test.tsx',
      'apps/web/e2e/**',
    ],
    rules: { 'no-console': 'off' },
  },
  prettier,
);
