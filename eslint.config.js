import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/** Folders of domain code: no Temporal, no workflows. */
const DOMAIN_FOLDERS = ['evalset', 'examiner', 'candidates', 'judge', 'transcript', 'llm', 'store', 'summaries', 'dashboard', 'editprediction', 'run', 'sandbox', 'stats', 'schedules', 'vocabulary'];

const noImport = (folder, message) => ({ group: [`../${folder}`, `../${folder}/*`, `**/${folder}/**`], message });

/** Floors checked, not remembered (docs/code-map.md): which folder may not import which. */
const LAYERING = {
  store: [noImport('run', 'store/ sits below run/: shared shapes live in vocabulary/.')],
  judge: [noImport('run', 'judge/ sits below run/: shared shapes live in vocabulary/, renderers of a run in run/.')],
  summaries: [noImport('dashboard', 'summaries/ sits below dashboard/: what writes both (writeSummaries) lives in dashboard/.')],
  vocabulary: [{ group: ['../*', '../**'], message: 'vocabulary/ is the floor: it imports nothing from src but itself.' }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tools/**', '.evalflow/**', 'runs/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          // The bundler leaves out the parts of zod nobody uses (its 60-odd locales among them)
          // only behind a namespace import; `{ z }` pulls in all of zod.
          selector: "ImportDeclaration[source.value='zod'][importKind='value'] > :matches(ImportSpecifier, ImportDefaultSpecifier)",
          message: "Import zod as `import * as z from 'zod'`.",
        },
      ],
    },
  },
  {
    // No circle of imports, in any length: a circle is a shared shape in the wrong folder (move it
    // down, docs/code-map.md). Imports spell `.js` for a `.ts` file; the resolver maps them back.
    // The rule passes over `import type` (no cycle at run time); folder-level circles, type
    // imports included, are what the restricted imports below and the floors measure catch.
    files: ['src/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // No file over 400 lines, every line counted (blank lines and comments too): a file past that holds more than one concept.
    files: ['src/**', 'bench/**', 'scripts/**', 'test/**'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // Workflow code is replayed deterministically inside Temporal's sandbox: no Node builtins,
    // no activity values, no domain modules that could do I/O.
    files: ['src/workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code may not import Node builtins.' })),
          patterns: [
            {
              group: ['../activities', '../activities/*', '**/activities/**'],
              allowTypeImports: true,
              message: 'Workflows may only `import type` from activities.',
            },
          ],
        },
      ],
    },
  },
  // Domain folders never import Temporal, nor the workflows above them; some have a floor
  // rule of their own besides (LAYERING). One block per folder, since a later block's
  // no-restricted-imports replaces an earlier one's for the same file.
  ...DOMAIN_FOLDERS.map((folder) => ({
    files: [`src/${folder}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@temporalio/*'], message: 'Domain code never imports Temporal.' },
            { group: ['../workflows', '../workflows/*', '**/workflows/**'], message: 'Nothing below the workflows imports them.' },
            { group: ['../cli', '../cli/*', '**/cli/**', '../commands', '../commands/*', '**/commands/**'], message: 'Nothing below the CLI imports src/cli or src/commands.' },
            ...(LAYERING[folder] ?? []),
          ],
        },
      ],
    },
  })),
  {
    // Activities and the Temporal plumbing sit below the workflows: names they share live in temporal/names.ts.
    files: ['src/activities/**', 'src/temporal/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../workflows', '../workflows/*', '**/workflows/**'], message: 'Nothing below the workflows imports them; shared names live in temporal/names.ts.' },
            { group: ['../cli', '../cli/*', '**/cli/**', '../commands', '../commands/*', '**/commands/**'], message: 'Nothing below the CLI imports src/cli or src/commands.' },
          ],
        },
      ],
    },
  },
  {
    // temporal/ is the plumbing the activities stand on, never the other way round.
    files: ['src/temporal/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../workflows', '../workflows/*', '**/workflows/**'], message: 'Nothing below the workflows imports them; shared names live in temporal/names.ts.' },
            { group: ['../activities', '../activities/*', '**/activities/**'], message: 'temporal/ sits below the activities: move what both need into temporal/ (see inflightRecord.ts).' },
            { group: ['../config', '../config.js'], message: 'temporal/ sits below config.ts: it reads the Temporal part of the settings (TemporalSettings in temporalSettings.ts).' },
          ],
        },
      ],
    },
  },
  {
    // The edit-prediction batch's limit is imported as a value by a workflow, so it stays
    // import-free (placed after the domain-folder rule, which it replaces for this file).
    files: ['src/editprediction/epBatchLimits.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['*'], message: 'epBatchLimits.ts is bundled into a workflow: keep it import-free.' }] }],
    },
  },
);
