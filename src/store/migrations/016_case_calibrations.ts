import type { Migration } from './migration.js';

/**
 * A case's measured noise (`evalflow calibrate`): per A/A batch and case, the case version it
 * ran (`case_hash`), its judged runs and passes (the flip rate and its interval follow from
 * those), and what repeated judgings of the same transcripts showed of the judge's share. No
 * foreign key to batches: a calibration is kept when its batch's rows are pruned.
 */
export const caseCalibrations: Migration = {
  version: 16,
  name: 'case_calibrations',
  sql: `
CREATE TABLE case_calibrations (
  batch_id       text NOT NULL,
  case_id        text NOT NULL,
  case_hash      text NOT NULL,
  candidate      text NOT NULL,
  workflow_rev   text,
  runs           integer NOT NULL CHECK (runs >= 0),
  passes         integer NOT NULL CHECK (passes >= 0 AND passes <= runs),
  judged_twice   integer NOT NULL DEFAULT 0 CHECK (judged_twice >= 0),
  judge_flip     double precision CHECK (judge_flip >= 0 AND judge_flip <= 0.5),
  cost_per_run   double precision CHECK (cost_per_run >= 0),
  calibrated_at  timestamptz NOT NULL,
  PRIMARY KEY (batch_id, case_id)
);

CREATE INDEX case_calibrations_by_case ON case_calibrations (case_id, case_hash, calibrated_at DESC);
`,
};
