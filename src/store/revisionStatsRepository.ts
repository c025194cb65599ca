import * as z from 'zod';
import { parseOrThrow } from '../format.js';
import { RevisionCaseStatsRowSchema } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/**
 * `history`'s counts, grouped in SQL: per revision and case, never a run row in memory (at
 * 100,000 runs, loading them took minutes and more than a gigabyte). The revision and verdict
 * rules are those of workflowRevision.ts and loadRuns.ts, written in SQL (in the triggers that
 * keep revision_case_counts, migration 021):
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
          // From the counts kept as runs and verdicts are written (migration 021): a few rows
          // per revision and case instead of every run and verdict (at 100,000 runs, reading
          // and sorting those was most of the look-up). The revision's earliest run of each
          // case, whose version and hash the row shows, is one read of an index per row.
          `WITH counts AS (
             SELECT * FROM revision_case_counts
             WHERE runs > 0 AND ($1::text IS NULL OR case_id = $1) AND ($2::text IS NULL OR candidate = $2)
           ),
           per_status AS (
             SELECT workflow_rev, case_id, status, sum(runs)::bigint AS n FROM counts WHERE NOT judged GROUP BY 1, 2, 3
           ),
           grouped AS (
             SELECT c.workflow_rev, c.case_id,
                    count(DISTINCT c.case_hash) AS hashes,
                    sum(c.runs)::bigint AS runs,
                    coalesce(sum(c.runs) FILTER (WHERE c.judged), 0)::bigint AS judged,
                    coalesce(sum(c.runs) FILTER (WHERE c.passed), 0)::bigint AS passes,
                    -- NULL when no judged run has an overall, as a sum over no values is.
                    CASE WHEN sum(c.overall_n) FILTER (WHERE c.judged) > 0 THEN (sum(c.overall_sum) FILTER (WHERE c.judged))::float8 END AS overall_sum,
                    coalesce(sum(c.overall_n) FILTER (WHERE c.judged), 0)::bigint AS overall_n,
                    (SELECT coalesce(jsonb_object_agg(p.status, p.n), '{}'::jsonb) FROM per_status p WHERE p.workflow_rev = c.workflow_rev AND p.case_id = c.case_id) AS uncounted
             FROM counts c
             GROUP BY c.workflow_rev, c.case_id
           )
           SELECT g.workflow_rev, g.case_id, f.case_version, f.case_hash, g.hashes, g.runs, g.judged, g.passes, g.overall_sum, g.overall_n, g.uncounted,
                  f.created_at AS first_created_at
           FROM grouped g CROSS JOIN LATERAL (
             SELECT r.case_version, r.case_hash, r.created_at FROM runs r
             WHERE coalesce(r.workflow_rev, 'unknown') = g.workflow_rev AND r.case_id = g.case_id
               AND NOT r.no_workflow AND r.workflow_rev IS DISTINCT FROM 'none' AND ($2::text IS NULL OR r.candidate = $2)
             ORDER BY r.created_at, r.run_id
             LIMIT 1
           ) f
           ORDER BY first_created_at, g.workflow_rev, g.case_id`,
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
