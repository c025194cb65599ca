import { parseOrThrow } from '../format.js';
import { CalibrationRowSchema, type CalibrationRow } from './calibrationSchema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

const COLUMNS = 'batch_id, case_id, case_hash, candidate, workflow_rev, runs, passes, judged_twice, judge_flip, cost_per_run, calibrated_at';

/** Cases' measured noise, one row per A/A batch and case. */
export function createCalibrationRepository(sql: SqlExecutor): Pick<Store, 'saveCalibration' | 'latestCalibrations'> {
  return {
    async saveCalibration(row) {
      const input = parseOrThrow(CalibrationRowSchema, row, 'saveCalibration(row)');
      return storeOperation(sql, `saveCalibration(${JSON.stringify(input.batch_id)}, ${JSON.stringify(input.case_id)})`, async () => {
        // Measuring a batch again (after `rejudge --repeat` judged its transcripts more) replaces its row.
        const rows = await sql.query(
          `INSERT INTO case_calibrations (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::timestamptz)
           ON CONFLICT (batch_id, case_id) DO UPDATE SET case_hash = EXCLUDED.case_hash, candidate = EXCLUDED.candidate, workflow_rev = EXCLUDED.workflow_rev,
             runs = EXCLUDED.runs, passes = EXCLUDED.passes, judged_twice = EXCLUDED.judged_twice, judge_flip = EXCLUDED.judge_flip,
             cost_per_run = EXCLUDED.cost_per_run, calibrated_at = EXCLUDED.calibrated_at
           RETURNING ${COLUMNS}`,
          [input.batch_id, input.case_id, input.case_hash, input.candidate, input.workflow_rev, input.runs, input.passes, input.judged_twice, input.judge_flip, input.cost_per_run, input.calibrated_at],
        );
        return toRow(rows[0]);
      });
    },

    async latestCalibrations(caseIds) {
      if (caseIds.length === 0) return [];
      return storeOperation(sql, `latestCalibrations(${caseIds.length} cases)`, async () => {
        const rows = await sql.query(
          `SELECT DISTINCT ON (case_id, case_hash) ${COLUMNS} FROM case_calibrations WHERE case_id = ANY($1::text[])
           ORDER BY case_id, case_hash, calibrated_at DESC, batch_id DESC`,
          [caseIds],
        );
        return rows.map(toRow);
      });
    },
  };
}

function toRow(row: unknown): CalibrationRow {
  return parseOrThrow(CalibrationRowSchema, row, 'store: case_calibrations row');
}
