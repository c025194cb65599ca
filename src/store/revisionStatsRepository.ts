import * as z from 'zod';
import { parseOrThrow } from '../format.js';
import { RevisionCaseStatsRowSchema } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/**
 * `history`'s counts, grouped in SQL: per revision and case, never a run row in memory (at
 * 100,000 runs, loading them took minutes and more than a gigabyte). The revision and verdict
 * rules are those of workflowRevision.ts and loadRuns.ts, written in SQL:
 * - a run without any workflow (`spec.noWorkflow`, or workflow_rev `none`) has no revision
 *   (`no_workflow`, kept from the spec by migration 020: reading it out of every spec was
 *   most of the query's time);
 * - judged = completed with a current verdict; its result is the run's (a person's decision)
 *   when set, else the verdict's; its overall is the verdict's.
 */
const UntilDecidedRevisionBatchSchema = z.object({ workflow_rev: z.string(), batch_id: z.string() });

export function createRevisionStatsRepository(sql: SqlExecutor): Pick<Store, 'revisionCaseStats' | 'untilDecidedRevisionBatches'> {
  return {
    async revisionCaseStats(filter = {}) {
      return storeOperation(sql, 'revisionCaseStats', async () => {
        const rows = await sql.query(
          // One pass over the runs: the statuses of the runs not counted are gathered as an
          // array per group and counted in a subquery, instead of a second grouping over a
          // materialized copy of every run (at 100,000 runs that copy went to disk and was read
          // back, half the query's time).
          `SELECT j.workflow_rev, j.case_id,
                  (array_agg(j.case_version ORDER BY j.created_at, j.run_id))[1] AS case_version,
                  (array_agg(j.case_hash ORDER BY j.created_at, j.run_id))[1] AS case_hash,
                  count(DISTINCT j.case_hash) AS hashes,
                  count(*) AS runs,
                  count(*) FILTER (WHERE j.judged) AS judged,
                  count(*) FILTER (WHERE j.judged AND j.result = 'pass') AS passes,
                  sum(j.overall) FILTER (WHERE j.judged)::float8 AS overall_sum,
                  count(j.overall) FILTER (WHERE j.judged) AS overall_n,
                  (SELECT coalesce(jsonb_object_agg(st.status, st.n), '{}'::jsonb)
                   FROM (SELECT status, count(*) AS n FROM unnest(array_agg(j.status) FILTER (WHERE NOT j.judged)) AS u(status) GROUP BY status) st) AS uncounted,
                  min(j.created_at) AS first_created_at
           FROM (
             SELECT coalesce(r.workflow_rev, 'unknown') AS workflow_rev, r.case_id, r.case_version, r.case_hash, r.run_id, r.created_at, r.status,
                    (r.status = 'completed' AND s.run_id IS NOT NULL) AS judged,
                    coalesce(r.result, s.result) AS result, s.overall
             FROM runs r LEFT JOIN scores s ON s.run_id = r.run_id
             WHERE NOT r.no_workflow AND r.workflow_rev IS DISTINCT FROM 'none'
               AND ($1::text IS NULL OR r.case_id = $1) AND ($2::text IS NULL OR r.candidate = $2)
           ) j
           GROUP BY j.workflow_rev, j.case_id
           ORDER BY first_created_at, j.workflow_rev, j.case_id`,
          [filter.caseId ?? null, filter.candidate ?? null],
        );
        return rows.map((row) => parseOrThrow(RevisionCaseStatsRowSchema, row, 'store: revisionCaseStats row'));
      });
    },
    async untilDecidedRevisionBatches(filter = {}) {
      return storeOperation(sql, 'untilDecidedRevisionBatches', async () => {
        // Starts from the few batches run until decided, never a pass over every run.
        const rows = await sql.query(
          `SELECT DISTINCT coalesce(r.workflow_rev, 'unknown') AS workflow_rev, r.batch_id
           FROM batches b JOIN runs r ON r.batch_id = b.batch_id
           WHERE b.spec->'until_decided' IS NOT NULL
             AND NOT r.no_workflow AND r.workflow_rev IS DISTINCT FROM 'none'
             AND ($1::text IS NULL OR r.case_id = $1) AND ($2::text IS NULL OR r.candidate = $2)
           ORDER BY r.batch_id`,
          [filter.caseId ?? null, filter.candidate ?? null],
        );
        return rows.map((row) => parseOrThrow(UntilDecidedRevisionBatchSchema, row, 'store: untilDecidedRevisionBatches row'));
      });
    },
  };
}
