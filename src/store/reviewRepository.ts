import { StoreError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { RunReviewRowInputSchema, RunReviewRowSchema, type RunReview } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { isForeignKeyViolation, onlyRow, storeFailure, storeOperation } from './storeOperation.js';

const COLUMNS = 'run_id, result, author, note, judge_result, reasons, decided_at';

/** saveReview and getReview over `run_reviews`. */
export function createReviewRepository(sql: SqlExecutor): Pick<Store, 'saveReview' | 'getReview'> {
  return {
    async saveReview(runId, review) {
      const input = parseOrThrow(RunReviewRowInputSchema, review, `saveReview(${JSON.stringify(runId)}, review)`);
      const operation = `saveReview(${JSON.stringify(runId)})`;
      try {
        // The first decision stays: a second insert changes nothing, and both get the stored one back.
        await sql.query(
          `INSERT INTO run_reviews (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::timestamptz)
           ON CONFLICT (run_id) DO NOTHING`,
          [runId, input.result, input.author, input.note, input.judge_result, JSON.stringify(input.reasons), input.decided_at],
        );
        return readReview(onlyRow(await sql.query(`SELECT ${COLUMNS} FROM run_reviews WHERE run_id = $1`, [runId]), operation));
      } catch (err) {
        if (err instanceof StoreError) throw err;
        if (isForeignKeyViolation(err)) {
          throw new StoreError(`store: ${operation} failed: expected a row in runs for run_id ${JSON.stringify(runId)}, found none (upsertRun first)`, { cause: err });
        }
        throw storeFailure(sql, operation, err);
      }
    },

    async getReview(runId) {
      return storeOperation(sql, `getReview(${JSON.stringify(runId)})`, async () => {
        const rows = await sql.query(`SELECT ${COLUMNS} FROM run_reviews WHERE run_id = $1`, [runId]);
        return rows[0] === undefined ? null : readReview(rows[0]);
      });
    },
  };
}

function readReview(row: unknown): RunReview {
  return parseOrThrow(RunReviewRowSchema, row, `store: run_reviews row ${JSON.stringify((row as { run_id?: unknown }).run_id)}`);
}
