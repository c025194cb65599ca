import type { Migration } from './migration.js';

/**
 * One row per attempt at a step of a run that spends model tokens or must not run twice: the
 * setup, each examiner and candidate turn, each judging. An attempt is marked `spending` just
 * before the agent or the model is called and `finished` with its output afterwards, so a
 * retry knows whether the work was already done (and returns it) or was lost mid-way (and is
 * recorded as repeated spend). `runs.parked_host` names the host keeping the sandbox of a
 * run that `evalflow resume` can continue.
 */
export const runSteps: Migration = {
  version: 8,
  name: 'run_steps',
  sql: `
CREATE TABLE run_steps (
  run_id      text NOT NULL,
  role        text NOT NULL CHECK (role IN ('setup', 'examiner', 'candidate', 'judge')),
  turn        integer NOT NULL CHECK (turn >= 0),
  attempt     integer NOT NULL CHECK (attempt >= 1),
  state       text NOT NULL CHECK (state IN ('spending', 'finished')),
  usage       jsonb,
  output      jsonb,
  started_at  timestamptz NOT NULL,
  finished_at timestamptz,
  PRIMARY KEY (run_id, role, turn, attempt)
);
ALTER TABLE runs ADD COLUMN parked_host text;
`,
};
