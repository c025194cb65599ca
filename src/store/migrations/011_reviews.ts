import type { Migration } from './migration.js';

/**
 * Verdicts a person settles. `needs_review` joins the run statuses (a judged run whose verdict
 * is in doubt; it counts once decided). A verdict may lack a result (salvage recovered only
 * scores), so `scores.result` may be null. A person's decision lives in `run_reviews`, beside
 * the judge's verdict and never over it: one per run, with the judge's result and the reasons
 * as they stood when the person decided.
 */
export const reviews: Migration = {
  version: 11,
  name: 'reviews',
  sql: `
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
  CHECK (status IN ('pending', 'running', 'completed', 'needs_review', 'aborted', 'infra_error', 'judge_failed', 'cancelled'));
ALTER TABLE scores ALTER COLUMN result DROP NOT NULL;
ALTER TABLE score_history ALTER COLUMN result DROP NOT NULL;

CREATE TABLE run_reviews (
  run_id       text PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE,
  result       text NOT NULL CHECK (result IN ('pass', 'fail')),
  author       text NOT NULL,
  note         text NOT NULL,
  judge_result text CHECK (judge_result IN ('pass', 'fail')),
  reasons      jsonb NOT NULL DEFAULT '[]'::jsonb CHECK (jsonb_typeof(reasons) = 'array'),
  decided_at   timestamptz NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
`,
};
