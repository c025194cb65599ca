import { parseOrThrow } from '../format.js';
import { CaseRunRowSchema, RunStateRowSchema, type CaseRunRow, type RunStateRow } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/**
 * What the viewer reads of a batch's runs: a few small columns each, read through the batch's
 * index (runs_batch_created_idx), never the runs' large columns (spec, config, judge input) nor
 * the verdicts' raw text, so a poll every few seconds, or a run page among 100,000 runs, costs little.
 */
export function createRunStateRepository(sql: SqlExecutor): Pick<Store, 'batchRunStates' | 'batchCaseRuns'> {
  return {
    async batchRunStates(batchId) {
      return storeOperation(sql, `batchRunStates(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query(`SELECT run_id, status, result, updated_at FROM runs WHERE batch_id = $1 ORDER BY run_id`, [batchId]);
        return rows.map((row): RunStateRow => parseOrThrow(RunStateRowSchema, row, `store: runs row ${JSON.stringify((row as { run_id?: unknown }).run_id)}`));
      });
    },
    async batchCaseRuns(batchId) {
      return storeOperation(sql, `batchCaseRuns(${JSON.stringify(batchId)})`, async () => {
        // The verdict's result and overall, as loadRunsWithVerdicts gives them: a completed run's own result (a person's decision) wins.
        const rows = await sql.query(
          `SELECT r.run_id, r.case_id, r.arm, r.attempt_index, r.status,
                  CASE WHEN s.run_id IS NULL THEN NULL WHEN r.status = 'completed' AND r.result IS NOT NULL THEN r.result ELSE s.result END AS result,
                  s.overall::float8 AS overall
           FROM runs r LEFT JOIN scores s ON s.run_id = r.run_id WHERE r.batch_id = $1 ORDER BY r.run_id`,
          [batchId],
        );
        return rows.map((row): CaseRunRow => parseOrThrow(CaseRunRowSchema, row, `store: runs row ${JSON.stringify((row as { run_id?: unknown }).run_id)}`));
      });
    },
  };
}
