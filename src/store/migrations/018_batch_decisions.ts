import type { Migration } from './migration.js';

/**
 * The decisions of a batch run until decided: per case, the label the sequential test gave it,
 * the runs a side it took, B − A with its interval, and why it stopped. Written by the batch as it
 * ends, so `compare`, the gate and the summaries read the test's labels instead of testing the
 * accumulated runs again (which would ignore the looks taken on the way).
 */
export const batchDecisions: Migration = {
  version: 18,
  name: 'batch_decisions',
  sql: `
CREATE TABLE batch_decisions (
  batch_id          text NOT NULL,
  case_id           text NOT NULL,
  arm_a             text NOT NULL,
  arm_b             text NOT NULL,
  label             text NOT NULL,
  stopped_by        text,
  why               text NOT NULL,
  runs_a_side       integer NOT NULL CHECK (runs_a_side >= 0),
  pairs             integer NOT NULL CHECK (pairs >= 0),
  both_passed       integer NOT NULL CHECK (both_passed >= 0),
  only_a            integer NOT NULL CHECK (only_a >= 0),
  only_b            integer NOT NULL CHECK (only_b >= 0),
  evidence          double precision NOT NULL,
  difference        double precision,
  low               double precision,
  high              double precision,
  alpha             double precision NOT NULL,
  max_runs_per_case integer NOT NULL CHECK (max_runs_per_case > 0),
  PRIMARY KEY (batch_id, case_id)
);
`,
};
