import type { Migration } from './migration.js';

/**
 * Extra judgings of a stored transcript (`evalflow rejudge --repeat k`) are kept in
 * score_history as samples: they never replace the run's current verdict, and they let a
 * report tell a flaky judge (its judgings of one transcript disagree) from a flaky agent
 * (its runs differ, each judged consistently).
 */
export const judgeSamples: Migration = {
  version: 10,
  name: 'judge_samples',
  sql: `
ALTER TABLE score_history ADD COLUMN sample boolean NOT NULL DEFAULT false;
`,
};
