import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX, createNodeResolver } from 'eslint-plugin-import-x';

/**
 * Every folder under src/features is a feature, zoned on its own: a new one is walled off without
 * a line here (tests/app/pages.test.tsx checks each is declared in src/domain/pages.ts).
 */
const features = readdirSync(join(import.meta.dirname, 'src', 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Import boundaries of docs/architecture.md: timing and backend import nothing of ours, ui only
 * timing, domain only libraries, data only domain and timing, sync data/domain/backend, features
 * never another feature nor the app.
 */
const zones = [
  { target: './src/timing', from: './src', except: ['./timing'], message: 'src/timing imports nothing of ours.' },
  { target: './src/ui', from: './src', except: ['./ui', './timing'], message: 'src/ui imports only timing.' },
  { target: './src/backend', from: './src', except: ['./backend'], message: 'src/backend imports nothing of ours.' },
  { target: './src/domain', from: './src', except: ['./domain'], message: 'src/domain is pure: libraries only.' },
  {
    target: './src/data',
    from: './src',
    except: ['./data', './domain', './timing'],
    message: 'src/data imports only domain and timing.',
  },
  {
    target: './src/sync',
    from: './src',
    except: ['./sync', './data', './domain', './backend'],
    message: 'src/sync imports only data, domain and backend.',
  },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: ['./src/features', './src/app'],
    except: [`./${name}`],
    message: 'A feature never imports another feature or the app.',
  })),
  {
    target: './sync-worker',
    from: './src',
    except: ['./sync', './data', './domain', './backend'],
    message: 'The worker runs src/sync and src/data only.',
  },
];

const noBarrels = { group: ['**/index', '**/index.ts'], message: 'No barrel files: import the file you mean.' };

/** Libraries the domain layer may not import (storage and UI). */
const domainForbidden = ['dexie', 'dexie-react-hooks', 'react', 'react-dom'];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dev-dist',
      'node_modules',
      'coverage',
      'playwright-report',
      'test-results',
      '.data',
      '.bench',
      'bench',
      'extension/.output',
      'extension/.wxt',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: [noBarrels] }],
    },
  },
  {
    // The domain layer is pure: no storage and no UI. A later block
    // replaces the rule's options, so the barrel pattern is repeated here.
    files: ['src/domain/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: domainForbidden.map((name) => ({
            name,
            message: 'src/domain is pure: no storage (Dexie) and no UI (React).',
          })),
          patterns: [
            noBarrels,
            {
              group: domainForbidden.map((name) => `${name}/*`),
              message: 'src/domain is pure: no storage (Dexie) and no UI (React).',
            },
          ],
        },
      ],
    },
  },
);
