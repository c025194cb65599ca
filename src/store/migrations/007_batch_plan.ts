import type { Migration } from './migration.js';

/**
 * A batch's plan: one row per (case, attempt) it will run, in run order, written once by the
 * batch's first activity. The batch workflow then reads a page at a time, so its input (and
 * its history) holds no per-case list, and a bank edited mid-batch changes nothing planned.
 */
export const batchPlan: Migration = {
  version: 7,
  name: 'batch_plan',
  sql: `
CREATE TABLE batch_plan (
  batch_id  text NOT NULL,
  idx       integer NOT NULL CHECK (idx >= 0),
  case_id   text NOT NULL,
  case_dir  text NOT NULL,
  case_hash text NOT NULL,
  k         integer CHECK (k IS NULL OR k >= 1),
  arm       text,
  PRIMARY KEY (batch_id, idx)
);
CREATE INDEX batches_created_at_idx ON batches (created_at DESC);
`,
};
