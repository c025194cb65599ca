import { defineConfig } from 'vitest/config';
import { testFilesThatRunAlone, testFilesThatRunBeside } from './test/support/suiteGroups.js';

const beside = testFilesThatRunBeside(import.meta.dirname);
const alone = testFilesThatRunAlone(import.meta.dirname).filter((file) => !beside.includes(file));

// `npm test` runs the project `together` two files at a time, then `alone` one file at a time
// with `beside` one file at a time next to it (see package.json and scripts/test-alone.sh); a
// plain `vitest run` runs everything one file at a time.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
    // No lingering store services left behind by look-ups (test/store/lingeringService.test.ts starts and stops its own).
    env: { EVALFLOW_STORE_LINGER: '0' },
    projects: [
      // Files that start nothing but themselves.
      { extends: true, test: { name: 'together', include: ['test/**/*.test.ts'], exclude: [...alone, ...beside] } },
      // Temporal servers, PostgreSQL, agent CLIs, Chromium and bubblewrap are real: their timeouts assume the 2 cores are theirs.
      { extends: true, test: { name: 'alone', include: alone } },
      // Files that start such servers too but mostly wait on clocks: one of them beside each `alone` file costs it little.
      { extends: true, test: { name: 'beside', include: beside } },
    ],
  },
});
