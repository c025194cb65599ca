import { StoreError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { ListRunsFilterSchema, RunRowInputSchema, RunPatchSchema, RunRowSchema } from './schema.js';
import type { Run, RunPatch } from './schema.js';
import type { RunDirs } from './runDirs.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { onlyRow, storeOperation } from './storeOperation.js';

/** Every writable column of `runs` (all but the timestamps we keep) with its SQL type. */
const WRITABLE = {
  run_id: 'text',
  batch_id: 'text',
  case_id: 'text',
  case_version: 'text',
  case_hash: 'text',
  candidate: 'text',
  candidate_adapter: 'text',
  models: 'jsonb',
  workflow_rev: 'text',
  status: 'text',
  result: 'text',
  overall: 'numeric',
  run_dir: 'text',
  temporal_workflow_id: 'text',
  temporal_run_id: 'text',
  config: 'jsonb',
  spec: 'jsonb',
  judge_input: 'jsonb',
  anomalies: 'jsonb',
  error: 'text',
  parked_host: 'text',
  project_rev: 'text',
  candidate_cli_version: 'text',
  workflow_dirty: 'boolean',
  workflow_hash: 'text',
  arm: 'text',
  attempt_index: 'integer',
  tokens: 'jsonb',
  started_at: 'timestamptz',
  finished_at: 'timestamptz',
} as const;
type WritableColumn = keyof typeof WRITABLE;
const WRITABLE_COLUMNS = Object.keys(WRITABLE) as WritableColumn[];

/** The SELECT list: numeric comes back as float8 so both drivers return a JS number. */
const RUN_COLUMNS = [...WRITABLE_COLUMNS.map((c) => (c === 'overall' ? 'overall::float8 AS overall' : c)), 'created_at', 'updated_at'].join(', ');

/** upsertRun, updateRun, getRun, listRuns over `runs`; run dirs written and read through `dirs` (see runDirs.ts). */
export function createRunRepository(sql: SqlExecutor, dirs: RunDirs): Pick<Store, 'upsertRun' | 'updateRun' | 'getRun' | 'listRuns'> {
  const readRun = (row: unknown): Run => {
    const run = readRow(row);
    return { ...run, run_dir: dirs.fromStored(run.run_dir) };
  };
  return {
    async upsertRun(run) {
      const parsed = parseOrThrow(RunRowInputSchema, run, 'upsertRun(run)');
      const input = { ...parsed, run_dir: dirs.toStored(parsed.run_dir) };
      const values = WRITABLE_COLUMNS.map((c) => toParam(c, input[c]));
      const placeholders = WRITABLE_COLUMNS.map((c, i) => `$${i + 1}::${WRITABLE[c]}`);
      const createdAt = `$${values.length + 1}::timestamptz`;
      const updates = WRITABLE_COLUMNS.filter((c) => c !== 'run_id').map((c) => `${c} = EXCLUDED.${c}`);
      return storeOperation(sql, `upsertRun(${JSON.stringify(input.run_id)})`, async () => {
        const rows = await sql.query(
          `INSERT INTO runs (${WRITABLE_COLUMNS.join(', ')}, created_at, updated_at)
           VALUES (${placeholders.join(', ')}, coalesce(${createdAt}, now()), now())
           ON CONFLICT (run_id) DO UPDATE SET ${updates.join(', ')}, updated_at = now()
           RETURNING ${RUN_COLUMNS}`,
          [...values, input.created_at ?? null],
        );
        return readRun(onlyRow(rows, 'upsertRun'));
      });
    },

    async updateRun(runId, patch) {
      const parsed = parseOrThrow(RunPatchSchema, patch, `updateRun(${JSON.stringify(runId)}, patch)`);
      const changes = parsed.run_dir === undefined ? parsed : { ...parsed, run_dir: dirs.toStored(parsed.run_dir) };
      const columns = (Object.keys(changes) as (keyof RunPatch)[]).filter((c) => changes[c] !== undefined);
      const sets = columns.map((c, i) => `${c} = $${i + 2}::${WRITABLE[c]}`);
      return storeOperation(sql, `updateRun(${JSON.stringify(runId)})`, async () => {
        const rows = await sql.query(
          `UPDATE runs SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE run_id = $1 RETURNING ${RUN_COLUMNS}`,
          [runId, ...columns.map((c) => toParam(c, changes[c]))],
        );
        if (rows.length === 0) {
          throw new StoreError(`store: updateRun(${JSON.stringify(runId)}) failed: no run with that run_id (upsertRun it first)`);
        }
        return readRun(onlyRow(rows, 'updateRun'));
      });
    },

    async getRun(runId) {
      return storeOperation(sql, `getRun(${JSON.stringify(runId)})`, async () => {
        const rows = await sql.query(`SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = $1`, [runId]);
        return rows[0] === undefined ? null : readRun(rows[0]);
      });
    },

    async listRuns(filter = {}) {
      const f = parseOrThrow(ListRunsFilterSchema, filter, 'listRuns(filter)');
      const statuses = f.status === undefined ? null : JSON.stringify(Array.isArray(f.status) ? f.status : [f.status]);
      // The cursor's own timestamp is read in SQL (a JS Date would drop its microseconds), as an
      // InitPlan, so the row comparison stays an index condition.
      const olderThan = f.olderThan === undefined ? '' : 'AND (created_at, run_id) < ((SELECT c.created_at FROM runs c WHERE c.run_id = $11), $11::text)';
      return storeOperation(sql, 'listRuns', async () => {
        const rows = await sql.query(
          `SELECT ${RUN_COLUMNS} FROM runs
           WHERE ($1::text IS NULL OR batch_id = $1)
             AND ($2::text IS NULL OR case_id = $2)
             AND ($3::text IS NULL OR candidate = $3)
             AND ($4::jsonb IS NULL OR status IN (SELECT jsonb_array_elements_text($4::jsonb)))
             AND ($5::text IS NULL OR workflow_rev = $5)
             AND ($6::text IS NULL OR arm = $6)
             AND ($8::text IS NULL OR run_id > $8)
             AND ($9::text IS NULL OR workflow_rev LIKE $9)
             AND (NOT $10::boolean OR (spec->'noWorkflow' IS DISTINCT FROM 'true'::jsonb AND workflow_rev IS DISTINCT FROM 'none'))
             ${olderThan}
           ORDER BY ${f.afterRunId === undefined ? 'created_at DESC, run_id DESC' : 'run_id'}
           LIMIT $7`,
          [
            f.batchId ?? null,
            f.caseId ?? null,
            f.candidate ?? null,
            statuses,
            f.workflowRev ?? null,
            f.arm ?? null,
            f.limit ?? null,
            f.afterRunId ?? null,
            f.workflowRevPrefix === undefined ? null : `${likeLiteral(f.workflowRevPrefix)}%`,
            f.withWorkflow ?? false,
            ...(f.olderThan === undefined ? [] : [f.olderThan]),
          ],
        );
        return rows.map(readRun);
      });
    },
  };
}

/** `text` matched literally by LIKE: its wildcards and the escape character escaped. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** jsonb parameters travel as JSON text: `pg` would turn a JS array into a PostgreSQL array. */
function toParam(column: WritableColumn, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return WRITABLE[column] === 'jsonb' ? JSON.stringify(value) : value;
}

function readRow(row: unknown): Run {
  const id = (row as { run_id?: unknown }).run_id;
  return parseOrThrow(RunRowSchema, row, `store: runs row ${JSON.stringify(id)}`);
}
