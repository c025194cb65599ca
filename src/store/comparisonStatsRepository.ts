import { parseOrThrow } from '../format.js';
import { ComparisonCaseStatsRowSchema, ComparisonFilterSchema, TriggerObservationStatsRowSchema, type ComparisonFilter } from './comparisonStatsSchema.js';
import type { RunDirs } from './runDirs.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/**
 * The side's runs, numbered in `listRuns` order (newest first). Contained = the spec's
 * `candidate.isolation`, else the config's, is `sandbox`; it and the expectation of trigger
 * quality are columns kept from the spec and config (migration 020), and its workflow usage
 * is kept on the run (migration 024), so no run's JSON and no other table is read.
 */
const RUNS = `
  SELECT r.run_id, r.case_id, r.case_version, r.case_hash, r.status, r.attempt_index, r.run_dir, r.result AS decided,
         row_number() OVER (ORDER BY r.created_at DESC, r.run_id DESC) AS pos,
         r.contained, r.workflow_expectation, r.workflow_invoked
  FROM runs r
  WHERE ($1::text IS NULL OR r.batch_id = $1) AND ($2::text IS NULL OR r.arm = $2) AND ($3::text IS NULL OR r.workflow_rev = $3)`;

/**
 * The side's runs with what a comparison reads of each: the rules of loadRuns.ts and
 * comparison.ts in SQL. Judged = completed with a current verdict, its result the run's (a
 * person's decision) when set, else the verdict's; its overall is the verdict's; how often it
 * was judged, and to how many results, are kept with the verdict (migration 022). The verdict
 * is looked up per run by its key (LIMIT 1 keeps the planner from hashing every verdict of
 * the store to keep the side's).
 */
const SIDE = `
  SELECT side.*, s.run_id IS NOT NULL AS has_verdict, (side.status = 'completed' AND s.run_id IS NOT NULL) AS judged,
         coalesce(side.decided, s.result) AS result, s.overall, s.judgings, s.judging_results
  FROM (${RUNS}) side
  LEFT JOIN LATERAL (SELECT v.run_id, v.result, v.overall::float8 AS overall, v.judgings, v.judging_results FROM scores v WHERE v.run_id = side.run_id LIMIT 1) s ON true`;

/**
 * `compare`'s side, grouped per case in SQL: no run row, verdict or transcript is loaded (two
 * 1,000-run sides loaded whole took seconds). What the comparison reads run by run in order
 * (overall scores, review dirs, attempts, differing case hashes) comes back as arrays in the
 * side's order, so the sums and pairings are the same as over loaded runs, to the last bit.
 * The long ones come as JSON: the driver parses a PostgreSQL array of 1,000 values in
 * JavaScript, JSON natively (float8 goes to JSON in its shortest exact form).
 */
export function createComparisonStatsRepository(sql: SqlExecutor, dirs: RunDirs): Pick<Store, 'comparisonCaseStats' | 'triggerObservationStats'> {
  const params = (filter: ComparisonFilter) => {
    const f = parseOrThrow(ComparisonFilterSchema, filter, 'comparison filter');
    return [f.batchId ?? null, f.arm ?? null, f.workflowRev ?? null];
  };
  return {
    async comparisonCaseStats(filter) {
      const values = params(filter);
      return storeOperation(sql, 'comparisonCaseStats', async () => {
        const rows = await sql.query(
          `WITH side AS (${SIDE}),
           uncounted AS (
             SELECT case_id, jsonb_agg(jsonb_build_object('status', status, 'runs', n, 'first', first) ORDER BY first) AS by_status
             FROM (SELECT case_id, status, count(*) AS n, min(pos) AS first FROM side WHERE NOT judged GROUP BY 1, 2) u
             GROUP BY case_id
           )
           SELECT side.case_id,
                  (array_agg(side.case_version ORDER BY side.pos))[1] AS case_version,
                  CASE WHEN count(DISTINCT side.case_hash) = 1 THEN ARRAY[min(side.case_hash)] ELSE array_agg(side.case_hash ORDER BY side.pos) END AS case_hashes,
                  count(*) AS runs,
                  count(*) FILTER (WHERE side.judged) AS judged,
                  count(*) FILTER (WHERE side.judged AND side.result = 'pass') AS passes,
                  jsonb_agg(side.overall ORDER BY side.pos) FILTER (WHERE side.judged AND side.overall IS NOT NULL) AS overalls,
                  jsonb_agg(side.run_dir ORDER BY side.pos) FILTER (WHERE side.has_verdict) AS review_dirs,
                  count(*) FILTER (WHERE NOT side.contained) AS uncontained,
                  coalesce(min(u.by_status::text), '[]')::jsonb AS uncounted,
                  coalesce(bool_or(side.judgings > 1) FILTER (WHERE side.judged), false) AS rejudged,
                  coalesce(bool_or(side.judging_results > 1) FILTER (WHERE side.judged), false) AS judges_disagree,
                  array_agg(DISTINCT side.result) FILTER (WHERE side.judged) AS results,
                  jsonb_agg(side.attempt_index ORDER BY side.pos) FILTER (WHERE side.judged AND side.attempt_index IS NOT NULL) AS attempts,
                  jsonb_agg(side.result ORDER BY side.pos) FILTER (WHERE side.judged AND side.attempt_index IS NOT NULL) AS attempt_results
           FROM side LEFT JOIN uncounted u ON u.case_id = side.case_id
           GROUP BY side.case_id
           ORDER BY side.case_id`,
          values,
        );
        return rows.map((row) => {
          const stats = parseOrThrow(ComparisonCaseStatsRowSchema, row, 'store: comparisonCaseStats row');
          return { ...stats, review_dirs: stats.review_dirs.map((dir) => dirs.fromStored(dir)) };
        });
      });
    },

    async triggerObservationStats(filter) {
      const values = params(filter);
      return storeOperation(sql, 'triggerObservationStats', async () => {
        // A spec's noWorkflow counts when truthy, as JavaScript reads it (in workflow_expectation).
        // Each run's usage is kept on it (migration 024): grouping the side reads no other table
        // (a probe of workflow_usage per run took about 75 ms a 1,000-run side).
        const rows = await sql.query(
          `SELECT CASE WHEN workflow_expectation IS NOT NULL THEN jsonb_build_array(workflow_expectation) END AS expectation,
                  workflow_invoked AS usage, count(*) AS runs, (array_agg(run_id ORDER BY pos))[1] AS run_id
           FROM (${RUNS}) side
           WHERE workflow_invoked IS NOT NULL
           GROUP BY 1, 2
           ORDER BY min(pos)`,
          values,
        );
        return rows.map((row) => parseOrThrow(TriggerObservationStatsRowSchema, row, 'store: triggerObservationStats row'));
      });
    },
  };
}
