import type { Migration } from './migration.js';

/**
 * The edit-prediction track: examples (keyed by a hash of their spec, so the same example
 * under another file name is one row), predictions per (batch, example, provider,
 * repetition), and a score per prediction.
 */
export const editPrediction: Migration = {
  version: 4,
  name: 'edit_prediction',
  sql: `
CREATE TABLE ep_examples (
  example_key    text PRIMARY KEY,
  name           text NOT NULL,
  repository_url text NOT NULL,
  revision       text NOT NULL,
  spec           jsonb NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ep_predictions (
  batch_id    text NOT NULL,
  example_key text NOT NULL REFERENCES ep_examples (example_key) ON DELETE CASCADE,
  provider    text NOT NULL,
  repetition  integer NOT NULL CHECK (repetition >= 0),
  prediction  jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, example_key, provider, repetition)
);

CREATE TABLE ep_scores (
  batch_id    text NOT NULL,
  example_key text NOT NULL,
  provider    text NOT NULL,
  repetition  integer NOT NULL,
  score       jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (batch_id, example_key, provider, repetition),
  FOREIGN KEY (batch_id, example_key, provider, repetition)
    REFERENCES ep_predictions (batch_id, example_key, provider, repetition) ON DELETE CASCADE
);
`,
};
