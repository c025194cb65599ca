import type { Migration } from './migration.js';

/**
 * What `evalflow rejudge` needs to judge a run again without re-running it: the run's spec
 * (the workflow input: case texts, supply side, never keys) and the judge's other inputs
 * (run facts, postcondition results, the host holding the run directory).
 */
export const runRejudgeInputs: Migration = {
  version: 5,
  name: 'run_rejudge_inputs',
  sql: `
ALTER TABLE runs ADD COLUMN spec jsonb;
ALTER TABLE runs ADD COLUMN judge_input jsonb;
`,
};
