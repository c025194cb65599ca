import { parseOrThrow } from '../format.js';
import { WorkflowPlacementSchema, WorkflowUsageRowSchema } from '../vocabulary/workflowUsage.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

const COLUMNS = 'run_id, item, kind, name, loaded, invoked, first_turn, evidence';

type Methods = 'saveWorkflowUsage' | 'getWorkflowUsage' | 'listWorkflowItemUse' | 'saveWorkflowPlacement' | 'getWorkflowPlacement';

/** The run's workflow usage rows and its workflow placement, over `workflow_usage` and `workflow_placements`. */
export function createWorkflowUsageRepository(sql: SqlExecutor): Pick<Store, Methods> {
  return {
    async saveWorkflowUsage(runId, rows) {
      const input = rows.map((row, index) => parseOrThrow(WorkflowUsageRowSchema, row, `saveWorkflowUsage(${JSON.stringify(runId)}, rows[${index}])`));
      await storeOperation(sql, `saveWorkflowUsage(${JSON.stringify(runId)})`, () =>
        // The rows of a run are replaced whole: a run detected again (a resumed run) says it all anew.
        sql.transaction(async (tx) => {
          await tx.query('DELETE FROM workflow_usage WHERE run_id = $1', [runId]);
          for (const row of input) {
            await tx.query(`INSERT INTO workflow_usage (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
              runId,
              row.item,
              row.kind,
              row.name,
              row.loaded,
              row.invoked,
              row.first_turn,
              row.evidence,
            ]);
          }
        }),
      );
    },

    async getWorkflowUsage(runIds) {
      if (runIds.length === 0) return [];
      return storeOperation(sql, `getWorkflowUsage(${runIds.length} runs)`, async () => {
        const rows = await sql.query<Record<string, unknown>>(`SELECT ${COLUMNS} FROM workflow_usage WHERE run_id = ANY($1::text[]) ORDER BY run_id, item`, [runIds]);
        return rows.map((row) => {
          const { run_id: runId, ...usage } = row;
          return { run_id: String(runId), ...parseOrThrow(WorkflowUsageRowSchema, usage, `store: workflow_usage row ${JSON.stringify(runId)}`) };
        });
      });
    },

    async listWorkflowItemUse(items) {
      if (items.length === 0) return [];
      return storeOperation(sql, `listWorkflowItemUse(${items.length} items)`, async () => {
        const rows = await sql.query<{ case_id: string; item: string; runs: number | string; example_run_id: string }>(
          `SELECT r.case_id, u.item, count(*) AS runs, max(r.run_id) AS example_run_id
           FROM workflow_usage u JOIN runs r ON r.run_id = u.run_id
           WHERE u.item = ANY($1::text[]) AND (u.loaded = 'yes' OR u.invoked = 'yes')
           GROUP BY r.case_id, u.item ORDER BY r.case_id, u.item`,
          [items],
        );
        // count(*) is a bigint, which the drivers hand back as a string.
        return rows.map((row) => ({ case_id: row.case_id, item: row.item, runs: Number(row.runs), example_run_id: row.example_run_id }));
      });
    },

    async saveWorkflowPlacement(runId, placement) {
      const input = parseOrThrow(WorkflowPlacementSchema, placement, `saveWorkflowPlacement(${JSON.stringify(runId)}, placement)`);
      await storeOperation(sql, `saveWorkflowPlacement(${JSON.stringify(runId)})`, () =>
        sql.query(
          `INSERT INTO workflow_placements (run_id, placement) VALUES ($1, $2::jsonb)
           ON CONFLICT (run_id) DO UPDATE SET placement = EXCLUDED.placement`,
          [runId, JSON.stringify(input)],
        ),
      );
    },

    async getWorkflowPlacement(runId) {
      return storeOperation(sql, `getWorkflowPlacement(${JSON.stringify(runId)})`, async () => {
        const rows = await sql.query<{ placement: unknown }>('SELECT placement FROM workflow_placements WHERE run_id = $1', [runId]);
        return rows[0] === undefined ? null : parseOrThrow(WorkflowPlacementSchema, rows[0].placement, `store: workflow_placements row ${JSON.stringify(runId)}`);
      });
    },
  };
}


