import { parseOrThrow } from '../format.js';
import { BatchDecisionRowSchema, type BatchDecision } from './decisionSchema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

const COLUMNS = 'case_id, arm_a, arm_b, label, stopped_by, why, runs_a_side, pairs, both_passed, only_a, only_b, evidence, difference, low, high, alpha, max_runs_per_case';

/** The batch_decisions table: the sequential test's decisions of a batch run until decided. */
export function createDecisionRepository(sql: SqlExecutor): Pick<Store, 'saveBatchDecisions' | 'getBatchDecisions'> {
  return {
    async saveBatchDecisions(batchId, decisions) {
      const rows = decisions.map((d, i) => parseOrThrow(BatchDecisionRowSchema, d, `saveBatchDecisions(${JSON.stringify(batchId)}): decision ${i}`));
      // Replaced whole: a close retried, or one after a cancel that settled more, leaves one set.
      await storeOperation(sql, `saveBatchDecisions(${JSON.stringify(batchId)})`, () =>
        sql.transaction(async (tx) => {
          await tx.query('DELETE FROM batch_decisions WHERE batch_id = $1', [batchId]);
          if (rows.length === 0) return;
          await tx.query(
            `INSERT INTO batch_decisions (batch_id, ${COLUMNS})
             SELECT $1::text, ${COLUMNS} FROM jsonb_to_recordset($2::jsonb) AS d(
               case_id text, arm_a text, arm_b text, label text, stopped_by text, why text, runs_a_side integer, pairs integer, both_passed integer,
               only_a integer, only_b integer, evidence double precision, difference double precision, low double precision, high double precision,
               alpha double precision, max_runs_per_case integer)`,
            [batchId, JSON.stringify(rows)],
          );
        }),
      );
    },

    async getBatchDecisions(batchId) {
      return storeOperation(sql, `getBatchDecisions(${JSON.stringify(batchId)})`, async () => {
        const rows = await sql.query(`SELECT ${COLUMNS} FROM batch_decisions WHERE batch_id = $1 ORDER BY case_id`, [batchId]);
        return rows.map((row): BatchDecision => parseOrThrow(BatchDecisionRowSchema, row, `store: batch_decisions row of ${JSON.stringify(batchId)}`));
      });
    },
  };
}
