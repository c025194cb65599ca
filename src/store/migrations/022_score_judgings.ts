import type { Migration } from './migration.js';

/**
 * How often each run was judged, kept beside its current verdict: `scores.judgings` (its rows
 * in score_history, verdicts and samples) and `scores.judging_results` (their distinct
 * results). `compare` tells a rejudged run and a judge that disagrees with itself from these;
 * before, it looked up every judged run's history, one index probe per run (most of a
 * 1,000-run side's query).
 *
 * Triggers keep them in the transaction of the write, for every writer: a change to a run's
 * history recounts that run's history into its verdict, and a new verdict counts the history
 * already there (saveScore writes the history row first). Every writer of a run's judgings
 * locks the run first (FOR NO KEY UPDATE, taken before the row's foreign key check takes its
 * share), so on PostgreSQL two writers of one run count one after the other, each seeing what
 * the other committed, and neither holds a share of the run the other waits to lock.
 */
export const scoreJudgings: Migration = {
  version: 22,
  name: 'score_judgings',
  sql: `
ALTER TABLE scores ADD COLUMN judgings bigint NOT NULL DEFAULT 0;
ALTER TABLE scores ADD COLUMN judging_results bigint NOT NULL DEFAULT 0;

CREATE FUNCTION count_score_judgings_of_verdict() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM runs WHERE run_id = NEW.run_id FOR NO KEY UPDATE;
  SELECT count(*), count(DISTINCT result) INTO NEW.judgings, NEW.judging_results FROM score_history WHERE run_id = NEW.run_id;
  RETURN NEW;
END $$;

CREATE FUNCTION lock_judged_run() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM 1 FROM runs WHERE run_id = OLD.run_id FOR NO KEY UPDATE;
    RETURN OLD;
  END IF;
  PERFORM 1 FROM runs WHERE run_id = NEW.run_id OR (TG_OP = 'UPDATE' AND run_id = OLD.run_id) ORDER BY run_id FOR NO KEY UPDATE;
  RETURN NEW;
END $$;

CREATE FUNCTION count_score_judgings_of_history() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed text[] := CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW.run_id] WHEN 'DELETE' THEN ARRAY[OLD.run_id] ELSE ARRAY[OLD.run_id, NEW.run_id] END;
  id text;
BEGIN
  FOREACH id IN ARRAY changed LOOP
    UPDATE scores s SET judgings = h.n, judging_results = h.results
    FROM (SELECT count(*) AS n, count(DISTINCT result) AS results FROM score_history WHERE run_id = id) h
    WHERE s.run_id = id AND (s.judgings, s.judging_results) IS DISTINCT FROM (h.n, h.results);
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER scores_judgings BEFORE INSERT ON scores
  FOR EACH ROW EXECUTE FUNCTION count_score_judgings_of_verdict();
CREATE TRIGGER score_history_judged_run BEFORE INSERT OR UPDATE OF run_id, result OR DELETE ON score_history
  FOR EACH ROW EXECUTE FUNCTION lock_judged_run();
CREATE TRIGGER score_history_judgings AFTER INSERT OR UPDATE OF run_id, result OR DELETE ON score_history
  FOR EACH ROW EXECUTE FUNCTION count_score_judgings_of_history();

-- The verdicts already stored.
UPDATE scores s SET judgings = h.n, judging_results = h.results
FROM (SELECT run_id, count(*) AS n, count(DISTINCT result) AS results FROM score_history GROUP BY run_id) h
WHERE h.run_id = s.run_id;
`,
};
