import { parseOrThrow } from '../format.js';
import { ScheduleBaselineSchema, ScheduledBatchRowSchema, type ScheduledBatch } from './scheduleSchema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/** Baselines (`evalflow bless`) and the reports of scheduled batches. */
export function createScheduleRepository(sql: SqlExecutor): Pick<Store, 'blessBaseline' | 'getBaseline' | 'saveScheduledBatch' | 'listScheduledBatches'> {
  return {
    async blessBaseline(baseline) {
      const input = parseOrThrow(ScheduleBaselineSchema, baseline, 'blessBaseline(baseline)');
      return storeOperation(sql, `blessBaseline(${JSON.stringify(input.schedule)})`, async () => {
        await sql.query(
          `INSERT INTO schedule_baselines (schedule, batch_id, blessed_by, blessed_at) VALUES ($1, $2, $3, $4::timestamptz)
           ON CONFLICT (schedule) DO UPDATE SET batch_id = EXCLUDED.batch_id, blessed_by = EXCLUDED.blessed_by, blessed_at = EXCLUDED.blessed_at`,
          [input.schedule, input.batch_id, input.blessed_by, input.blessed_at],
        );
        return input;
      });
    },

    async getBaseline(schedule) {
      return storeOperation(sql, `getBaseline(${JSON.stringify(schedule)})`, async () => {
        const rows = await sql.query('SELECT schedule, batch_id, blessed_by, blessed_at FROM schedule_baselines WHERE schedule = $1', [schedule]);
        return rows[0] === undefined ? null : parseOrThrow(ScheduleBaselineSchema, rows[0], `store: schedule_baselines row ${JSON.stringify(schedule)}`);
      });
    },

    async saveScheduledBatch(batch) {
      const input = parseOrThrow(ScheduledBatchRowSchema, batch, 'saveScheduledBatch(batch)');
      return storeOperation(sql, `saveScheduledBatch(${JSON.stringify(input.batch_id)})`, async () => {
        // A retried conclusion rewrites the same firing.
        await sql.query(
          `INSERT INTO scheduled_batches (batch_id, schedule, verdict, report, finished_at) VALUES ($1, $2, $3, $4::jsonb, $5::timestamptz)
           ON CONFLICT (batch_id) DO UPDATE SET verdict = EXCLUDED.verdict, report = EXCLUDED.report, finished_at = EXCLUDED.finished_at`,
          [input.batch_id, input.schedule, input.verdict, JSON.stringify(input.report), input.finished_at],
        );
        return input;
      });
    },

    async listScheduledBatches(schedule, limit) {
      return storeOperation(sql, `listScheduledBatches(${JSON.stringify(schedule)})`, async () => {
        const rows = await sql.query(
          'SELECT batch_id, schedule, verdict, report, finished_at FROM scheduled_batches WHERE schedule = $1 ORDER BY finished_at DESC, batch_id DESC LIMIT $2',
          [schedule, limit],
        );
        return rows.map((row): ScheduledBatch => parseOrThrow(ScheduledBatchRowSchema, row, `store: scheduled_batches row of ${JSON.stringify(schedule)}`));
      });
    },
  };
}
