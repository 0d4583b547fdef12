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
const DATA_LAYER =
  'A query key, query options and mutation hooks are declared in the feature’s api.ts and used from there (docs/architecture.md "The web data layer").';

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
  // The web data layer (docs/architecture.md "The web data layer"): a feature's queries and
  // mutations are declared in its api.ts; a screen uses those and spells no key or option of its
  // own. The list kit (shared/list) keys a list by the path it lists, for every list alike.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/api.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/shared/list/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='queryKey'][value.type='ArrayExpression']",
          message: DATA_LAYER,
        },
        {
          selector: "JSXAttribute[name.name='queryKey'] > JSXExpressionContainer > ArrayExpression",
          message: DATA_LAYER,
        },
        {
          selector: 'CallExpression[callee.name=/^(queryOptions|infiniteQueryOptions|useMutation)$/]',
          message: DATA_LAYER,
        },
        {
          selector:
            'CallExpression[callee.name=/^use(Suspense)?Query$/] > ObjectExpression:not(:has(SpreadElement))',
          message: DATA_LAYER,
        },
      ],
    },
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
