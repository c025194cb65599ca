import type { Migration } from './migration.js';

/**
 * Migration 021's verdict trigger locks the verdict's run FOR UPDATE after the write (an AFTER
 * trigger), so after the row's foreign key check has taken its share of the run. FOR UPDATE
 * conflicts with the share (FOR KEY SHARE) that every row referring to the run takes, so on
 * PostgreSQL a verdict written beside a transaction that has added such a row (a review, a
 * transcript event) and then writes the run waited for that transaction while it waited for the
 * verdict's: a deadlock (40P01), retried as transient at best.
 *
 * Now, as migration 022 does for its triggers: every writer of a verdict locks its run FOR NO
 * KEY UPDATE in a BEFORE trigger (inserts already do, through 022's `scores_judgings`), and the
 * counting trigger takes that same lock, which a row's share does not conflict with. It still
 * orders a verdict and a status change of one run (an UPDATE of the run takes FOR NO KEY
 * UPDATE too), so the counts are kept as before.
 */
export const verdictRunLock: Migration = {
  version: 23,
  name: 'verdict_run_lock',
  sql: `
CREATE OR REPLACE FUNCTION count_revision_case_verdicts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r runs%ROWTYPE;
BEGIN
  SELECT * INTO r FROM runs WHERE run_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.run_id ELSE NEW.run_id END) FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM count_revision_case_run(r, false, NULL, NULL, -1);
  ELSE
    PERFORM count_revision_case_run(r, true, OLD.result, OLD.overall, -1);
  END IF;
  IF TG_OP = 'DELETE' THEN
    PERFORM count_revision_case_run(r, false, NULL, NULL, 1);
  ELSE
    PERFORM count_revision_case_run(r, true, NEW.result, NEW.overall, 1);
  END IF;
  RETURN NULL;
END $$;

-- Updates and deletions of a verdict lock its run first too (022's lock_judged_run locks the old and the new run).
CREATE TRIGGER scores_verdict_run BEFORE UPDATE OF run_id, result, overall OR DELETE ON scores
  FOR EACH ROW EXECUTE FUNCTION lock_judged_run();
`,
};
