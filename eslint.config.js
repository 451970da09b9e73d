import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layers } from './eslint.layers.js';

/**
 * The tests, benchmarks and scripts: linted by oxlint with the same rules (.oxlintrc.json's
 * override for them), as nothing here but the recommended sets, eqeqeq and the unused and
 * type-only imports applies to them.
 */
export const TEST_FOLDERS = ['test/**', 'bench/**', 'scripts/**'];

// The rules that need types (typescript-eslint's recommendedTypeChecked, floating and misused
// promises, switch exhaustiveness) are .oxlintrc.json's: oxlint runs them on TypeScript 7's checker.

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'node_modules/**',
      'test-results/**',
      'playwright-report/**',
      ...TEST_FOLDERS,
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: 'error',
    },
  },
  {
    // Only the Electron shell and the preload may touch Electron.
    files: ['src-main/core/**', 'src-main/cli/**', 'src-main/preview/**', 'src-renderer/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only src-main/app and the preload use Electron.' }],
        },
      ],
    },
  },
  {
    // The renderer talks only to window.callbar and imports types only from the contract.
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'The renderer talks only to window.callbar.' },
            // The window's text engine is src-renderer/src/i18n.ts (compiled catalogs, no parser).
            { name: 'react-i18next', message: "Use useTranslation from the window's i18n.ts." },
            { name: 'i18next', message: "Use the window's i18n.ts." },
          ],
          patterns: [
            {
              group: ['**/src-main/**', 'node:*'],
              message: 'The renderer talks only to window.callbar.',
            },
            {
              group: ['**/src-shared/contract', '**/src-shared/contract/*'],
              allowTypeImports: true,
              message: 'The renderer imports types only from the contract.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by main, the preload, the renderer, the CLI and the preview: it
    // imports zod and nothing else (no Electron, no Node, nothing of the app's own processes).
    files: ['src-shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The shared contract runs in every process.' }],
          patterns: [
            {
              group: ['node:*', '**/src-main/**', '**/src-preload/**', '**/src-renderer/**'],
              message: 'The shared contract imports zod and nothing else of the app or Node.',
            },
          ],
        },
      ],
    },
  },
  {
    // The browser extension runs in web pages and the browser: no Node, nothing of the app but
    // the native host's message types and the characters numbers are written with (core's
    // numbers/written-digits.ts, no import of its own), so a page's numbers are found as the
    // reader reads them.
    files: ['browser-extension/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The extension runs in the browser.' },
            {
              regex: '/src-main/(?!core/numbers/written-digits$)',
              allowTypeImports: true,
              message:
                'The extension shares only types (the host protocol’s) and the written digits ' +
                '(numbers/written-digits.ts) with Callbar.',
            },
          ],
        },
      ],
    },
  },
  {
    // Issue 46: a module of core or the relay past 500 lines holds more than one concern; split it
    // by concern, each new file named for what it owns.
    files: ['src-main/core/**/*.ts', 'relay/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  ...layers,
);
