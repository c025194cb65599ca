import { parseOrThrow } from '../format.js';
import { RunHostSchema, WorkerRowSchema, type RunHost, type WorkerRow } from './hostSchema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

const WORKER_COLUMNS = 'worker_id, host_id, pid, hostname, slots, busy, draining, started_at, seen_at';

/** Workers' heartbeats and the host of each attempt of a run. */
export function createHostRepository(sql: SqlExecutor): Pick<Store, 'heartbeatWorker' | 'listWorkers' | 'removeWorker' | 'drainHost' | 'saveRunHost' | 'getRunHosts'> {
  return {
    async heartbeatWorker(worker) {
      const input = parseOrThrow(WorkerRowSchema, worker, 'heartbeatWorker(worker)');
      return storeOperation(sql, `heartbeatWorker(${JSON.stringify(input.worker_id)})`, async () => {
        // A drain asked through the store (`evalflow worker --drain`) is kept: the worker reads it back here.
        const rows = await sql.query(
          `INSERT INTO workers (${WORKER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz, $9::timestamptz)
           ON CONFLICT (worker_id) DO UPDATE SET slots = EXCLUDED.slots, busy = EXCLUDED.busy, draining = workers.draining OR EXCLUDED.draining, seen_at = EXCLUDED.seen_at
           RETURNING ${WORKER_COLUMNS}`,
          [input.worker_id, input.host_id, input.pid, input.hostname, input.slots, input.busy, input.draining, input.started_at, input.seen_at],
        );
        return parseOrThrow(WorkerRowSchema, rows[0], `store: workers row ${JSON.stringify(input.worker_id)}`);
      });
    },

    async listWorkers() {
      return storeOperation(sql, 'listWorkers()', async () => {
        const rows = await sql.query(`SELECT ${WORKER_COLUMNS} FROM workers ORDER BY host_id, worker_id`);
        return rows.map((row): WorkerRow => parseOrThrow(WorkerRowSchema, row, 'store: workers row'));
      });
    },

    async removeWorker(workerId) {
      await storeOperation(sql, `removeWorker(${JSON.stringify(workerId)})`, () => sql.query('DELETE FROM workers WHERE worker_id = $1', [workerId]));
    },

    async drainHost(hostId) {
      return storeOperation(sql, `drainHost(${JSON.stringify(hostId)})`, async () => {
        const rows = await sql.query(`UPDATE workers SET draining = true WHERE host_id = $1 RETURNING ${WORKER_COLUMNS}`, [hostId]);
        return rows.map((row): WorkerRow => parseOrThrow(WorkerRowSchema, row, 'store: workers row'));
      });
    },

    async saveRunHost(claim) {
      const input = parseOrThrow(RunHostSchema, claim, 'saveRunHost(claim)');
      // A claim retried, or a host come back to its own run, keeps the first row.
      await storeOperation(sql, `saveRunHost(${JSON.stringify(input.run_id)})`, () =>
        sql.query('INSERT INTO run_hosts (run_id, generation, host_id, claimed_at) VALUES ($1, $2, $3, $4::timestamptz) ON CONFLICT (run_id, generation) DO NOTHING', [
          input.run_id,
          input.generation,
          input.host_id,
          input.claimed_at,
        ]),
      );
    },

    async getRunHosts(runIds) {
      if (runIds.length === 0) return [];
      return storeOperation(sql, `getRunHosts(${runIds.length} runs)`, async () => {
        const rows = await sql.query('SELECT run_id, generation, host_id, claimed_at FROM run_hosts WHERE run_id = ANY($1::text[]) ORDER BY run_id, generation', [runIds]);
        return rows.map((row): RunHost => parseOrThrow(RunHostSchema, row, 'store: run_hosts row'));
      });
    },
  };
}
