import type { Migration } from './migration.js';

/**
 * The current verdict per run, and every verdict ever saved (a rejudge replaces `scores`
 * and appends to `score_history`). Sub-scores are nullable: a salvaged judge answer may
 * carry only the pass/fail result.
 */
export const scores: Migration = {
  version: 3,
  name: 'scores',
  sql: `
CREATE TABLE scores (
  run_id            text PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE,
  result            text NOT NULL CHECK (result IN ('pass', 'fail')),
  compliance        numeric,
  execution_quality numeric,
  overall           numeric,
  summary           text NOT NULL DEFAULT '',
  hard_requirements jsonb NOT NULL DEFAULT '[]'::jsonb,
  suggestions       jsonb NOT NULL DEFAULT '[]'::jsonb,
  judge_model       text NOT NULL,
  judged_at         timestamptz NOT NULL,
  raw               text NOT NULL DEFAULT '',
  salvaged          boolean NOT NULL DEFAULT false
);

CREATE TABLE score_history (
  run_id            text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  judged_at         timestamptz NOT NULL,
  result            text NOT NULL CHECK (result IN ('pass', 'fail')),
  compliance        numeric,
  execution_quality numeric,
  overall           numeric,
  summary           text NOT NULL DEFAULT '',
  hard_requirements jsonb NOT NULL DEFAULT '[]'::jsonb,
  suggestions       jsonb NOT NULL DEFAULT '[]'::jsonb,
  judge_model       text NOT NULL,
  raw               text NOT NULL DEFAULT '',
  salvaged          boolean NOT NULL DEFAULT false,
  PRIMARY KEY (run_id, judged_at)
);

CREATE INDEX score_history_judged_at_idx ON score_history (judged_at);
`,
};
