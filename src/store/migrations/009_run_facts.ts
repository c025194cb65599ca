import type { Migration } from './migration.js';

/**
 * What a comparison of runs groups by, on the run's row: the project revision and the
 * candidate CLI's version it ran with, whether its workflow snapshot had uncommitted changes
 * and its content hash, its A/B arm and attempt index, and the tokens each role used
 * (`{examiner, candidate, judge}`, each a usage or null when it is not known).
 */
export const runFacts: Migration = {
  version: 9,
  name: 'run_facts',
  sql: `
ALTER TABLE runs ADD COLUMN project_rev text;
ALTER TABLE runs ADD COLUMN candidate_cli_version text;
ALTER TABLE runs ADD COLUMN workflow_dirty boolean;
ALTER TABLE runs ADD COLUMN workflow_hash text;
ALTER TABLE runs ADD COLUMN arm text;
ALTER TABLE runs ADD COLUMN attempt_index integer;
ALTER TABLE runs ADD COLUMN tokens jsonb;
CREATE INDEX runs_workflow_rev_idx ON runs (workflow_rev, created_at);
`,
};
