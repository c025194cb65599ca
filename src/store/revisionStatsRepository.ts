import { parseOrThrow } from '../format.js';
import { RevisionCaseStatsRowSchema } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/**
 * `history`'s counts, grouped in SQL: per revision and case, never a run row in memory (at
 * 100,000 runs, loading them took minutes and more than a gigabyte). The revision and verdict
 * rules are those of workflowRevision.ts and loadRuns.ts, written in SQL:
 * - a run without any workflow (`spec.noWorkflow`, or workflow_rev `none`) has no revision;
 * - judged = completed with a current verdict; its result is the run's (a person's decision)
 *   when set, else the verdict's; its overall is the verdict's.
 */
export function createRevisionStatsRepository(sql: SqlExecutor): Pick<Store, 'revisionCaseStats'> {
  return {
    async revisionCaseStats(filter = {}) {
      return storeOperation(sql, 'revisionCaseStats', async () => {
        const rows = await sql.query(
          `WITH judged AS (
             SELECT coalesce(r.workflow_rev, 'unknown') AS workflow_rev, r.case_id, r.case_version, r.case_hash, r.run_id, r.created_at, r.status,
                    (r.status = 'completed' AND s.run_id IS NOT NULL) AS judged,
                    coalesce(r.result, s.result) AS result, s.overall
             FROM runs r LEFT JOIN scores s ON s.run_id = r.run_id
             WHERE NOT coalesce(r.spec->>'noWorkflow' = 'true', false) AND r.workflow_rev IS DISTINCT FROM 'none'
               AND ($1::text IS NULL OR r.case_id = $1) AND ($2::text IS NULL OR r.candidate = $2)
           ),
           uncounted AS (
             SELECT workflow_rev, case_id, jsonb_object_agg(status, n) AS by_status
             FROM (SELECT workflow_rev, case_id, status, count(*) AS n FROM judged WHERE NOT judged GROUP BY 1, 2, 3) u
             GROUP BY 1, 2
           )
           SELECT j.workflow_rev, j.case_id,
                  (array_agg(j.case_version ORDER BY j.created_at, j.run_id))[1] AS case_version,
                  (array_agg(j.case_hash ORDER BY j.created_at, j.run_id))[1] AS case_hash,
                  count(DISTINCT j.case_hash) AS hashes,
                  count(*) AS runs,
                  count(*) FILTER (WHERE j.judged) AS judged,
                  count(*) FILTER (WHERE j.judged AND j.result = 'pass') AS passes,
                  sum(j.overall) FILTER (WHERE j.judged)::float8 AS overall_sum,
                  count(j.overall) FILTER (WHERE j.judged) AS overall_n,
                  coalesce(min(u.by_status::text), '{}')::jsonb AS uncounted,
                  min(j.created_at) AS first_created_at
           FROM judged j LEFT JOIN uncounted u ON u.workflow_rev = j.workflow_rev AND u.case_id = j.case_id
           GROUP BY j.workflow_rev, j.case_id
           ORDER BY first_created_at, j.workflow_rev, j.case_id`,
          [filter.caseId ?? null, filter.candidate ?? null],
        );
        return rows.map((row) => parseOrThrow(RevisionCaseStatsRowSchema, row, 'store: revisionCaseStats row'));
      });
    },
  };
}
