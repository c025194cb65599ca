import type { Migration } from './migration.js';

/**
 * What the candidate did with its workflow: one row per item of the run's snapshot (loaded,
 * invoked, the first turn and the evidence; `unknown` where the stream cannot tell), and per
 * run where each workflow folder was placed (natively or inlined into a context file).
 */
export const workflowUsage: Migration = {
  version: 13,
  name: 'workflow_usage',
  sql: `
CREATE TABLE workflow_usage (
  run_id     text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  item       text NOT NULL,
  kind       text NOT NULL CHECK (kind IN ('agent', 'command', 'rule', 'skill')),
  name       text NOT NULL,
  loaded     text NOT NULL CHECK (loaded IN ('yes', 'no', 'unknown')),
  invoked    text NOT NULL CHECK (invoked IN ('yes', 'no', 'unknown')),
  first_turn integer,
  evidence   text,
  PRIMARY KEY (run_id, item)
);

CREATE TABLE workflow_placements (
  run_id    text PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE,
  placement jsonb NOT NULL CHECK (jsonb_typeof(placement) = 'object')
);
`,
};
