import { parseOrThrow } from '../format.js';
import { BatchInputSchema, BatchSchema } from './schema.js';
import type { Batch } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { onlyRow, storeOperation } from './storeOperation.js';

const COLUMNS = 'batch_id, status, spec, counts, created_at, updated_at';

/** upsertBatch and getBatch over `batches`. */
export function createBatchRepository(sql: SqlExecutor): Pick<Store, 'upsertBatch' | 'getBatch'> {
  return {
    async upsertBatch(batch) {
      const input = parseOrThrow(BatchInputSchema, batch, 'upsertBatch(batch)');
      return storeOperation(sql, `upsertBatch(${JSON.stringify(input.batch_id)})`, async () => {
        const rows = await sql.query(
          `INSERT INTO batches (batch_id, status, spec, counts, created_at, updated_at)
           VALUES ($1::text, $2::text, $3::jsonb, $4::jsonb, coalesce($5::timestamptz, now()), now())
           ON CONFLICT (batch_id) DO UPDATE
             SET status = EXCLUDED.status, spec = EXCLUDED.spec, counts = EXCLUDED.counts, updated_at = now()
           RETURNING ${COLUMNS}`,
          [input.batch_id, input.status, JSON.stringify(input.spec), JSON.stringify(input.counts), input.created_at ?? null],
        );
        return readBatch(onlyRow(rows, 'upsertBatch'));
      });
    },

    async getBatch(batchId) {
      return storeOperation(sql, `getBatch(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query(`SELECT ${COLUMNS} FROM batches WHERE batch_id = $1`, [batchId]);
        return rows[0] === undefined ? null : readBatch(rows[0]);
      });
    },
  };
}

function readBatch(row: unknown): Batch {
  return parseOrThrow(BatchSchema, row, `store: batches row ${JSON.stringify((row as { batch_id?: unknown }).batch_id)}`);
}
