import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

// Imports flow one way (DESIGN.md): contract <- server/web; platform/shared <- modules/features <- app.
const zones = [
  {
    target: './packages/contract',
    from: ['./apps'],
    message: 'contract is shared by both apps and imports neither',
  },
  { target: './apps/server', from: ['./apps/web'] },
  { target: './apps/web', from: ['./apps/server'] },
  {
    target: './apps/server/src/platform',
    from: ['./apps/server/src/modules'],
    message: 'platform must not depend on business modules',
  },
  {
    target: './apps/web/src/shared',
    from: ['./apps/web/src/features', './apps/web/src/app'],
    message: 'shared must not depend on features or app',
  },
  {
    target: './apps/web/src/features',
    from: ['./apps/web/src/app'],
    message: 'features must not depend on app',
  },
];

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'bench/results/**', 'apps/server/migrations/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', { zones }],
      'no-console': ['error', { allow: ['error', 'info'] }],
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
      'apps/web/e2e/**',
    ],
    rules: { 'no-console': 'off' },
  },
  prettier,
);
