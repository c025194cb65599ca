import type { Migration } from './migration.js';

/**
 * `history`'s counts kept as runs and verdicts are written: one row per revision, case,
 * candidate, case hash, status and verdict (judged, passed), with how many runs it holds and
 * their overall scores' sum and count. At 100,000 runs, reading and sorting every run and
 * verdict row was most of the look-up; these rows are a few per revision and case.
 *
 * Triggers keep them in the transaction of the write, for every writer (the repositories, a
 * bulk load in SQL): a run's contribution is taken out under its old values and put back under
 * its new ones. The rules are those `revisionCaseStats` applied to every run: no row for a run
 * without any workflow (no_workflow, or workflow_rev `none`); judged = completed with a
 * current verdict; passed = judged and its result (a person's decision when set, else the
 * verdict's) is pass; the overall is the verdict's.
 *
 * A verdict's trigger locks its run first, so a verdict and a status change of one run written
 * at once on PostgreSQL are counted in one order. Counts change by addition
 * (INSERT … ON CONFLICT DO UPDATE), so concurrent writers never overwrite each other. A run's
 * deletion is counted before it happens (its verdict, deleted by the cascade, then finds no run).
 */
export const revisionCaseCounts: Migration = {
  version: 21,
  name: 'revision_case_counts',
  sql: `
CREATE TABLE revision_case_counts (
  workflow_rev text NOT NULL,
  case_id      text NOT NULL,
  candidate    text NOT NULL,
  case_hash    text NOT NULL,
  status       text NOT NULL,
  judged       boolean NOT NULL,
  passed       boolean NOT NULL,
  runs         bigint NOT NULL,
  overall_sum  numeric NOT NULL,
  overall_n    bigint NOT NULL,
  PRIMARY KEY (workflow_rev, case_id, candidate, case_hash, status, judged, passed)
);

-- The revision's earliest run of a case (its version and hash are the row's), by index.
CREATE INDEX runs_revision_case_first_idx ON runs ((coalesce(workflow_rev, 'unknown')), case_id, created_at, run_id)
  WHERE NOT no_workflow AND workflow_rev IS DISTINCT FROM 'none';

-- Adds (sign 1) or takes out (sign -1) run r's contribution, with or without a verdict.
CREATE FUNCTION count_revision_case_run(r runs, has_verdict boolean, verdict_result text, verdict_overall numeric, sign integer) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  is_judged boolean := r.status = 'completed' AND has_verdict;
BEGIN
  IF r.no_workflow OR r.workflow_rev IS NOT DISTINCT FROM 'none' THEN
    RETURN;
  END IF;
  INSERT INTO revision_case_counts AS c (workflow_rev, case_id, candidate, case_hash, status, judged, passed, runs, overall_sum, overall_n)
  VALUES (coalesce(r.workflow_rev, 'unknown'), r.case_id, r.candidate, r.case_hash, r.status, is_judged,
          is_judged AND coalesce(r.result, verdict_result) = 'pass', sign,
          CASE WHEN is_judged THEN sign * coalesce(verdict_overall, 0) ELSE 0 END,
          CASE WHEN is_judged AND verdict_overall IS NOT NULL THEN sign ELSE 0 END)
  ON CONFLICT (workflow_rev, case_id, candidate, case_hash, status, judged, passed)
  DO UPDATE SET runs = c.runs + EXCLUDED.runs, overall_sum = c.overall_sum + EXCLUDED.overall_sum, overall_n = c.overall_n + EXCLUDED.overall_n;
END $$;

CREATE FUNCTION count_revision_case_runs() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v scores%ROWTYPE;
  has_verdict boolean;
BEGIN
  SELECT * INTO v FROM scores WHERE run_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.run_id ELSE NEW.run_id END);
  has_verdict := FOUND;
  IF TG_OP <> 'INSERT' THEN
    PERFORM count_revision_case_run(OLD, has_verdict, v.result, v.overall, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM count_revision_case_run(NEW, has_verdict, v.result, v.overall, 1);
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION count_revision_case_verdicts() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  r runs%ROWTYPE;
BEGIN
  SELECT * INTO r FROM runs WHERE run_id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.run_id ELSE NEW.run_id END) FOR UPDATE;
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

CREATE TRIGGER runs_revision_case_counts_insert AFTER INSERT ON runs
  FOR EACH ROW EXECUTE FUNCTION count_revision_case_runs();
-- Only when what is counted changes: most updates of a run (steps, tokens, its end) do not.
CREATE TRIGGER runs_revision_case_counts_update AFTER UPDATE ON runs
  FOR EACH ROW WHEN ((OLD.workflow_rev, OLD.case_id, OLD.candidate, OLD.case_hash, OLD.status, OLD.result, OLD.no_workflow)
                     IS DISTINCT FROM (NEW.workflow_rev, NEW.case_id, NEW.candidate, NEW.case_hash, NEW.status, NEW.result, NEW.no_workflow))
  EXECUTE FUNCTION count_revision_case_runs();
CREATE TRIGGER runs_revision_case_counts_delete BEFORE DELETE ON runs
  FOR EACH ROW EXECUTE FUNCTION count_revision_case_runs();
CREATE TRIGGER scores_revision_case_counts AFTER INSERT OR UPDATE OF result, overall OR DELETE ON scores
  FOR EACH ROW EXECUTE FUNCTION count_revision_case_verdicts();

-- The runs already stored.
INSERT INTO revision_case_counts (workflow_rev, case_id, candidate, case_hash, status, judged, passed, runs, overall_sum, overall_n)
SELECT workflow_rev, case_id, candidate, case_hash, status, judged, judged AND result = 'pass', count(*),
       coalesce(sum(overall) FILTER (WHERE judged), 0), count(overall) FILTER (WHERE judged)
FROM (
  SELECT coalesce(r.workflow_rev, 'unknown') AS workflow_rev, r.case_id, r.candidate, r.case_hash, r.status,
         (r.status = 'completed' AND s.run_id IS NOT NULL) AS judged, coalesce(r.result, s.result) AS result, s.overall
  FROM runs r LEFT JOIN scores s ON s.run_id = r.run_id
  WHERE NOT r.no_workflow AND r.workflow_rev IS DISTINCT FROM 'none'
) j
GROUP BY 1, 2, 3, 4, 5, 6, 7;
`,
};
