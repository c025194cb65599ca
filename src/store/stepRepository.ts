import { parseOrThrow } from '../format.js';
import { RunStepKeySchema, RunStepRowSchema, type RunStep } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { onlyRow, storeOperation } from './storeOperation.js';

const COLUMNS = 'run_id, role, turn, attempt, state, usage, output, started_at, finished_at';

/** The run_steps table: marks of spending and finished steps. */
export function createStepRepository(sql: SqlExecutor): Pick<Store, 'markStepSpending' | 'finishStep' | 'getSteps'> {
  return {
    async markStepSpending(key, startedAt) {
      const k = parseOrThrow(RunStepKeySchema, key, 'markStepSpending(key)');
      return storeOperation(sql, `markStepSpending(${JSON.stringify(k.run_id)}, ${k.role} ${k.turn}, attempt ${k.attempt})`, async () => {
        // A repeated mark (a retried store write) keeps the first.
        const rows = await sql.query(
          `INSERT INTO run_steps (run_id, role, turn, attempt, state, started_at)
           VALUES ($1, $2, $3, $4, 'spending', $5::timestamptz)
           ON CONFLICT (run_id, role, turn, attempt) DO UPDATE SET run_id = EXCLUDED.run_id
           RETURNING ${COLUMNS}`,
          [k.run_id, k.role, k.turn, k.attempt, startedAt],
        );
        return readStep(onlyRow(rows, 'markStepSpending'));
      });
    },

    async finishStep(key, result) {
      const k = parseOrThrow(RunStepKeySchema, key, 'finishStep(key)');
      return storeOperation(sql, `finishStep(${JSON.stringify(k.run_id)}, ${k.role} ${k.turn}, attempt ${k.attempt})`, async () => {
        const rows = await sql.query(
          `INSERT INTO run_steps (run_id, role, turn, attempt, state, usage, output, started_at, finished_at)
           VALUES ($1, $2, $3, $4, 'finished', $5::jsonb, $6::jsonb, $7::timestamptz, $7::timestamptz)
           ON CONFLICT (run_id, role, turn, attempt) DO UPDATE
             SET state = 'finished', usage = EXCLUDED.usage, output = EXCLUDED.output, finished_at = EXCLUDED.finished_at
           RETURNING ${COLUMNS}`,
          [k.run_id, k.role, k.turn, k.attempt, result.usage ? JSON.stringify(result.usage) : null, result.output ? JSON.stringify(result.output) : null, result.finishedAt],
        );
        return readStep(onlyRow(rows, 'finishStep'));
      });
    },

    async getSteps(runId, filter = {}) {
      return storeOperation(sql, `getSteps(${JSON.stringify(runId)})`, async () => {
        const rows = await sql.query(
          `SELECT ${COLUMNS} FROM run_steps
           WHERE run_id = $1 AND ($2::text IS NULL OR role = $2) AND ($3::integer IS NULL OR turn = $3)
           ORDER BY role, turn, attempt`,
          [runId, filter.role ?? null, filter.turn ?? null],
        );
        return rows.map(readStep);
      });
    },
  };
}

function readStep(row: unknown): RunStep {
  return parseOrThrow(RunStepRowSchema, row, `store: run_steps row of ${JSON.stringify((row as { run_id?: unknown }).run_id)}`);
}
