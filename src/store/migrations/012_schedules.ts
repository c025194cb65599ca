import type { Migration } from './migration.js';

/**
 * Scheduled batches. `schedule_baselines` holds the batch a schedule compares every firing
 * with, set by `evalflow bless` and never moved by anything else. `scheduled_batches` keeps
 * each firing's report (its comparisons with the previous firing and the baseline, and its
 * verdict), so `evalflow schedule describe` and the next firing find them.
 */
export const schedules: Migration = {
  version: 12,
  name: 'schedules',
  sql: `
CREATE TABLE schedule_baselines (
  schedule   text PRIMARY KEY,
  batch_id   text NOT NULL REFERENCES batches (batch_id),
  blessed_by text NOT NULL,
  blessed_at timestamptz NOT NULL
);

CREATE TABLE scheduled_batches (
  batch_id    text PRIMARY KEY REFERENCES batches (batch_id) ON DELETE CASCADE,
  schedule    text NOT NULL,
  verdict     text NOT NULL CHECK (verdict IN ('ok', 'regression', 'failed')),
  report      jsonb NOT NULL CHECK (jsonb_typeof(report) = 'object'),
  finished_at timestamptz NOT NULL
);
CREATE INDEX scheduled_batches_by_schedule ON scheduled_batches (schedule, finished_at DESC);
`,
};
