// Lint rules of the whole repository (ESLint flat config with typescript-eslint's type-aware rules). `npm run lint`
// runs it with the contract's lint and Prettier's check; `npm test` runs `npm run lint` first.
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Test code: type-checked through the tests' own tsconfig, which the packages' builds leave out. */
const TESTS = ['**/*.test.ts', '**/*.test-kit.ts', 'contract-tests/**/*.ts', 'test-support/**/*.ts', 'vitest.config.ts'];

/** Why the admin API holds no query (docs/ARCHITECTURE.md, "The server's folders"). */
const ADMIN_NO_QUERIES =
  'The admin API is the HTTP side only: a query goes in the domain folder (reports/, hosts/, policies/, webhooks/, secrets/, refusals/, fleet/, exports/), as a function the route calls.';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/generated/**', '**/*.gen.ts', 'build/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  importX.flatConfigs.typescript,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ['packages/*/tsconfig.json', 'examples/*/tsconfig.json', 'tsconfig.tests.json'],
        }),
      ],
    },
    plugins: { '@eslint-community/eslint-comments': eslintComments },
    rules: {
      // A disabled rule says why, after `--` on the same line.
      '@eslint-community/eslint-comments/require-description': 'error',
      'import-x/no-cycle': 'error',
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // Stores, rate limiters and hooks implement promise-returning interfaces; `async` keeps a throw a rejection.
      '@typescript-eslint/require-await': 'off',
      // Callbacks in options interfaces are declared as method signatures and never read `this`: the rule cannot tell.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: TESTS,
    languageOptions: { parserOptions: { projectService: false, project: ['./tsconfig.tests.json'] } },
    rules: {
      'max-lines-per-function': 'off',
      // Tests read JSON answers (`any`) and assert on them with `expect`, which checks what the types cannot.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      // `expect(spy.method)` and mocks pass methods around without calling them.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // No query building in the admin API (its tests may seed with SQL). Type imports of the database's modules stay
    // allowed: the `Database` handle a route passes on, the entities' types its answers are built from.
    files: ['packages/server/src/admin/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-kit.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['knex', 'knex/*', '@mikro-orm/*'], message: ADMIN_NO_QUERIES },
            // unavailable.ts only tells a database outage from other errors, for the answer's status.
            { group: ['**/database/*', '!**/database/unavailable.js'], allowTypeImports: true, message: ADMIN_NO_QUERIES },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[property.name='em']", message: ADMIN_NO_QUERIES },
        { selector: 'CallExpression[callee.property.name=/^(getKnex|createQueryBuilder|execute)$/]', message: ADMIN_NO_QUERIES },
      ],
    },
  },
  {
    // Configuration files the packages' tsconfigs leave out.
    files: ['packages/*/openapi-ts.config.ts', 'packages/dashboard/vite.config.ts'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['packages/dashboard/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
