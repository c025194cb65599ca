import { parseOrThrow } from '../format.js';
import { StoreError } from '../errors.js';
import { BatchRowInputSchema, BatchPatchSchema, BatchRowSchema, ListBatchesFilterSchema, PlanEntryRowSchema } from './schema.js';
import type { Batch, PlanEntry } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { onlyRow, storeOperation } from './storeOperation.js';

const COLUMNS = 'batch_id, status, spec, counts, created_at, updated_at';
/** Plan rows per INSERT: one statement each, so a 50,000-run plan is fifty round trips. */
const PLAN_CHUNK = 1_000;

/** The batches and batch_plan tables. */
export function createBatchRepository(sql: SqlExecutor): Pick<Store, 'upsertBatch' | 'updateBatch' | 'getBatch' | 'listBatches' | 'savePlan' | 'getPlan' | 'countPlan'> {
  return {
    async upsertBatch(batch) {
      const input = parseOrThrow(BatchRowInputSchema, batch, 'upsertBatch(batch)');
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

    async updateBatch(batchId, patch) {
      const changes = parseOrThrow(BatchPatchSchema, patch, `updateBatch(${JSON.stringify(batchId)}, patch)`);
      return storeOperation(sql, `updateBatch(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query(
          `UPDATE batches SET status = coalesce($2::text, status), counts = coalesce($3::jsonb, counts), updated_at = now()
           WHERE batch_id = $1 RETURNING ${COLUMNS}`,
          [batchId, changes.status ?? null, changes.counts ? JSON.stringify(changes.counts) : null],
        );
        if (rows.length === 0) throw new StoreError(`store: updateBatch(${JSON.stringify(batchId)}) failed: no batch with that batch_id (upsertBatch it first)`);
        return readBatch(onlyRow(rows, 'updateBatch'));
      });
    },

    async getBatch(batchId) {
      return storeOperation(sql, `getBatch(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query(`SELECT ${COLUMNS} FROM batches WHERE batch_id = $1`, [batchId]);
        return rows[0] === undefined ? null : readBatch(rows[0]);
      });
    },

    async listBatches(filter = {}) {
      const f = parseOrThrow(ListBatchesFilterSchema, filter, 'listBatches(filter)');
      const statuses = f.status === undefined ? null : JSON.stringify(Array.isArray(f.status) ? f.status : [f.status]);
      // As listRuns: the cursor's timestamp read in SQL, keeping its microseconds and the index.
      const olderThan = f.olderThan === undefined ? '' : 'AND (created_at, batch_id) < ((SELECT c.created_at FROM batches c WHERE c.batch_id = $3), $3::text)';
      return storeOperation(sql, 'listBatches', async () => {
        const rows = await sql.query(
          `SELECT ${COLUMNS} FROM batches
           WHERE ($1::jsonb IS NULL OR status IN (SELECT jsonb_array_elements_text($1::jsonb)))
             ${olderThan}
           ORDER BY created_at DESC, batch_id DESC
           LIMIT $2`,
          [statuses, f.limit ?? null, ...(f.olderThan === undefined ? [] : [f.olderThan])],
        );
        return rows.map(readBatch);
      });
    },

    async savePlan(batchId, entries) {
      const checked = entries.map((entry, i) => parseOrThrow(PlanEntryRowSchema, entry, `savePlan(${JSON.stringify(batchId)}): entry ${i}`));
      return storeOperation(sql, `savePlan(${JSON.stringify(batchId)})`, async () => {
        let inserted = 0;
        for (let start = 0; start < checked.length; start += PLAN_CHUNK) {
          const chunk = checked.slice(start, start + PLAN_CHUNK);
          const rows = await sql.query(
            `INSERT INTO batch_plan (batch_id, idx, case_id, case_dir, case_hash, k, arm, case_pack)
             SELECT $1::text, e.idx, e.case_id, e.case_dir, e.case_hash, e.k, e.arm, e.case_pack
               FROM jsonb_to_recordset($2::jsonb) AS e(idx integer, case_id text, case_dir text, case_hash text, k integer, arm text, case_pack text)
             ON CONFLICT (batch_id, idx) DO NOTHING
             RETURNING idx`,
            [batchId, JSON.stringify(chunk)],
          );
          inserted += rows.length;
        }
        return { inserted };
      });
    },

    async getPlan(batchId, offset, limit) {
      return storeOperation(sql, `getPlan(${JSON.stringify(batchId)}, ${offset}, ${limit})`, async () => {
        const rows = await sql.query(
          `SELECT idx, case_id, case_dir, case_hash, k, arm, case_pack FROM batch_plan
           WHERE batch_id = $1 AND idx >= $2 AND idx < $2 + $3 ORDER BY idx`,
          [batchId, offset, limit],
        );
        return rows.map((row, i) => parseOrThrow(PlanEntryRowSchema, row, `store: batch_plan row ${i} of ${JSON.stringify(batchId)}`)) as PlanEntry[];
      });
    },

    async countPlan(batchId) {
      return storeOperation(sql, `countPlan(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM batch_plan WHERE batch_id = $1', [batchId]);
        return rows[0]?.n ?? 0;
      });
    },
  };
}

function readBatch(row: unknown): Batch {
  return parseOrThrow(BatchRowSchema, row, `store: batches row ${JSON.stringify((row as { batch_id?: unknown }).batch_id)}`);
}
