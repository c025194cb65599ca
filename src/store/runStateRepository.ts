import { parseOrThrow } from '../format.js';
import { RunStateRowSchema, type RunStateRow } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/**
 * The live view's poll: a batch's runs, four small columns each, read through the batch's
 * index (runs_batch_created_idx), so a poll every few seconds costs little beside a running batch.
 */
export function createRunStateRepository(sql: SqlExecutor): Pick<Store, 'batchRunStates'> {
  return {
    async batchRunStates(batchId) {
      return storeOperation(sql, `batchRunStates(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query(`SELECT run_id, status, result, updated_at FROM runs WHERE batch_id = $1 ORDER BY run_id`, [batchId]);
        return rows.map((row): RunStateRow => parseOrThrow(RunStateRowSchema, row, `store: runs row ${JSON.stringify((row as { run_id?: unknown }).run_id)}`));
      });
    },
  };
}
