import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Temporal servers, PostgreSQL and agent CLIs are real; keep files sequential on 2 cores.
    fileParallelism: false,
    pool: 'forks',
  },
});
