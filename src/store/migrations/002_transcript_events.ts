import type { Migration } from './migration.js';

/**
 * Transcript events, keyed so that a retried write of the same event is a no-op. `role` has
 * no CHECK: the role list lives in the transcript zod schema and may grow without a migration.
 */
export const transcriptEvents: Migration = {
  version: 2,
  name: 'transcript_events',
  sql: `
CREATE TABLE transcript_events (
  run_id  text NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
  turn    integer NOT NULL CHECK (turn >= 0),
  attempt integer NOT NULL CHECK (attempt >= 1),
  seq     integer NOT NULL CHECK (seq >= 0),
  ts      timestamptz NOT NULL,
  role    text NOT NULL,
  content text NOT NULL,
  tool    jsonb,
  usage   jsonb,
  PRIMARY KEY (run_id, turn, attempt, seq)
);
`,
};
