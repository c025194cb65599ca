import type { Migration } from './migration.js';

/**
 * Runs and batches. `runs.batch_id` has no foreign key: a single `evalflow run` has no batch
 * row, and a batch row is a summary its workflow writes when it likes.
 */
export const runsAndBatches: Migration = {
  version: 1,
  name: 'runs_and_batches',
  sql: `
CREATE TABLE batches (
  batch_id   text PRIMARY KEY,
  status     text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
  spec       jsonb NOT NULL DEFAULT '{}'::jsonb,
  counts     jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE runs (
  run_id               text PRIMARY KEY,
  batch_id             text,
  case_id              text NOT NULL,
  case_version         text NOT NULL,
  case_hash            text NOT NULL,
  candidate            text NOT NULL,
  candidate_adapter    text NOT NULL,
  models               jsonb NOT NULL DEFAULT '{}'::jsonb,
  workflow_rev         text,
  status               text NOT NULL
                       CHECK (status IN ('pending', 'running', 'completed', 'aborted', 'infra_error', 'judge_failed', 'cancelled')),
  result               text CHECK (result IN ('pass', 'fail')),
  overall              numeric,
  run_dir              text NOT NULL,
  temporal_workflow_id text,
  temporal_run_id      text,
  config               jsonb NOT NULL DEFAULT '{}'::jsonb,
  anomalies            jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(anomalies) = 'array'),
  error                text,
  started_at           timestamptz,
  finished_at          timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX runs_batch_id_idx ON runs (batch_id);
CREATE INDEX runs_case_candidate_idx ON runs (case_id, candidate, created_at DESC);
CREATE INDEX runs_status_idx ON runs (status);
`,
};
