import type { Migration } from './migration.js';

/**
 * Each run's workflow invocations kept on the run: `runs.workflow_invoked`, its `workflow_usage`
 * rows as `[[item, invoked], …]` by item, null when it has none. `compare`'s trigger quality
 * groups a side's runs by it and by the case's expectation; before, it looked up every run's
 * usage rows, one index probe per run (about 75 ms a 1,000-run side).
 *
 * Triggers keep it in the transaction of the write, for every writer. Every writer of a run's
 * usage locks the run first with migration 022's `lock_judged_run()` (FOR NO KEY UPDATE, before
 * the row's foreign key check takes its share), so on PostgreSQL two writers of one run recount one
 * after the other, each seeing what the other committed.
 */
export const runsWorkflowInvoked: Migration = {
  version: 24,
  name: 'runs_workflow_invoked',
  sql: `
ALTER TABLE runs ADD COLUMN workflow_invoked jsonb;

CREATE FUNCTION keep_run_workflow_invoked() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed text[] := CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW.run_id] WHEN 'DELETE' THEN ARRAY[OLD.run_id] ELSE ARRAY[OLD.run_id, NEW.run_id] END;
  id text;
BEGIN
  FOREACH id IN ARRAY changed LOOP
    UPDATE runs r SET workflow_invoked = u.invoked
    FROM (SELECT jsonb_agg(jsonb_build_array(item, invoked) ORDER BY item) AS invoked FROM workflow_usage WHERE run_id = id) u
    WHERE r.run_id = id AND r.workflow_invoked IS DISTINCT FROM u.invoked;
  END LOOP;
  RETURN NULL;
END $$;

CREATE TRIGGER workflow_usage_locked_run BEFORE INSERT OR UPDATE OF run_id, item, invoked OR DELETE ON workflow_usage
  FOR EACH ROW EXECUTE FUNCTION lock_judged_run();
CREATE TRIGGER workflow_usage_invoked AFTER INSERT OR UPDATE OF run_id, item, invoked OR DELETE ON workflow_usage
  FOR EACH ROW EXECUTE FUNCTION keep_run_workflow_invoked();

-- The usage already stored.
UPDATE runs r SET workflow_invoked = u.invoked
FROM (SELECT run_id, jsonb_agg(jsonb_build_array(item, invoked) ORDER BY item) AS invoked FROM workflow_usage GROUP BY run_id) u
WHERE u.run_id = r.run_id;
`,
};
