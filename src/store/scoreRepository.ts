import { FormatError, StoreError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { ScoreHistoryEntrySchema, ScoreHistoryFilterSchema, ScoreRowInputSchema, ScoreRowSchema } from './schema.js';
import type { ScoreRow, ScoreHistoryEntry } from './schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { isForeignKeyViolation, onlyRow, storeFailure, storeOperation } from './storeOperation.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';

/** Columns shared by `scores` and `score_history`, in insert order, with their SQL types. */
const VERDICT = [
  ['run_id', 'text'],
  ['result', 'text'],
  ['compliance', 'numeric'],
  ['execution_quality', 'numeric'],
  ['overall', 'numeric'],
  ['summary', 'text'],
  ['hard_requirements', 'jsonb'],
  ['suggestions', 'jsonb'],
  ['judge_model', 'text'],
  ['judged_at', 'timestamptz'],
  ['raw', 'text'],
  ['salvaged', 'boolean'],
] as const;
const NAMES = VERDICT.map(([name]) => name).join(', ');
const PLACEHOLDERS = VERDICT.map(([, type], i) => `$${i + 1}::${type}`).join(', ');
const UPDATES = VERDICT.filter(([name]) => name !== 'run_id')
  .map(([name]) => `${name} = EXCLUDED.${name}`)
  .join(', ');
/** The SELECT list of `columns` of table `alias`; numeric → float8 so both drivers return JS numbers. */
function selectList(alias: string, columns: readonly (typeof VERDICT)[number][] = VERDICT): string {
  return columns.map(([name, type]) => (type === 'numeric' ? `${alias}.${name}::float8 AS ${name}` : `${alias}.${name}`)).join(', ');
}
/** History entries leave out the judge's raw answer: trend reports never need it. */
const HISTORY_VERDICT = VERDICT.filter(([name]) => name !== 'raw');

/** saveScore, getScore and scoreHistory over `scores` and `score_history`. */
export function createScoreRepository(sql: SqlExecutor): Pick<Store, 'saveScore' | 'getScore' | 'scoreHistory' | 'getScores' | 'saveJudgeSample' | 'getJudgings'> {
  return {
    async saveScore(runId, score) {
      const input = parseOrThrow(ScoreRowInputSchema, score, `saveScore(${JSON.stringify(runId)}, score)`);
      const verdict: ScoreRow = { run_id: runId, ...input };
      const params = VERDICT.map(([name, type]) => (type === 'jsonb' ? JSON.stringify(verdict[name]) : verdict[name]));
      const operation = `saveScore(${JSON.stringify(runId)})`;
      try {
        return await sql.transaction(async (tx) => {
          await tx.query(
            `INSERT INTO score_history (${NAMES}) VALUES (${PLACEHOLDERS})
             ON CONFLICT (run_id, judged_at) DO UPDATE SET ${UPDATES}`,
            params,
          );
          // Only a verdict at least as new as the current one replaces it.
          await tx.query(
            `INSERT INTO scores (${NAMES}) VALUES (${PLACEHOLDERS})
             ON CONFLICT (run_id) DO UPDATE SET ${UPDATES} WHERE scores.judged_at <= EXCLUDED.judged_at`,
            params,
          );
          await tx.query(
            `UPDATE runs SET result = s.result, overall = s.overall, updated_at = now()
             FROM scores s WHERE s.run_id = runs.run_id AND runs.run_id = $1`,
            [runId],
          );
          const rows = await tx.query(`SELECT ${selectList('s')} FROM scores s WHERE s.run_id = $1`, [runId]);
          return readScore(onlyRow(rows, operation));
        });
      } catch (err) {
        if (err instanceof StoreError || err instanceof FormatError) throw err;
        if (isForeignKeyViolation(err)) {
          throw new StoreError(`store: ${operation} failed: expected a row in runs for run_id ${JSON.stringify(runId)}, found none (upsertRun first)`, { cause: err });
        }
        throw storeFailure(sql, operation, err);
      }
    },

    async getScore(runId) {
      return storeOperation(sql, `getScore(${JSON.stringify(runId)})`, async () => {
        const rows = await sql.query(`SELECT ${selectList('s')} FROM scores s WHERE s.run_id = $1`, [runId]);
        return rows[0] === undefined ? null : readScore(rows[0]);
      });
    },

    async saveJudgeSample(runId, score) {
      const input = parseOrThrow(ScoreRowInputSchema, score, `saveJudgeSample(${JSON.stringify(runId)}, score)`);
      const verdict: ScoreRow = { run_id: runId, ...input };
      const params = VERDICT.map(([name, type]) => (type === 'jsonb' ? JSON.stringify(verdict[name]) : verdict[name]));
      return storeOperation(sql, `saveJudgeSample(${JSON.stringify(runId)})`, async () => {
        await sql.query(
          `INSERT INTO score_history (${NAMES}, sample) VALUES (${PLACEHOLDERS}, true)
           ON CONFLICT (run_id, judged_at) DO UPDATE SET ${UPDATES}, sample = true`,
          params,
        );
      });
    },

    async getJudgings(runIds) {
      if (runIds.length === 0) return [];
      return storeOperation(sql, `getJudgings(${runIds.length} runs)`, async () => {
        const rows = await sql.query<{ run_id: string; result: VerdictResult; judged_at: string; sample: boolean }>(
          `SELECT run_id, result, judged_at, sample FROM score_history
           WHERE run_id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY run_id, judged_at`,
          [JSON.stringify(runIds)],
        );
        return rows.map((row) => ({ ...row, judged_at: new Date(row.judged_at).toISOString() }));
      });
    },

    async getScores(runIds) {
      if (runIds.length === 0) return [];
      return storeOperation(sql, `getScores(${runIds.length} runs)`, async () => {
        const rows = await sql.query(`SELECT ${selectList('s')} FROM scores s WHERE s.run_id IN (SELECT jsonb_array_elements_text($1::jsonb))`, [JSON.stringify(runIds)]);
        return rows.map(readScore);
      });
    },

    async scoreHistory(filter = {}) {
      const f = parseOrThrow(ScoreHistoryFilterSchema, filter, 'scoreHistory(filter)');
      return storeOperation(sql, 'scoreHistory', async () => {
        // The latest `limit` verdicts, returned oldest first as a trend line reads.
        const rows = await sql.query(
          `SELECT * FROM (
             SELECT ${selectList('h', HISTORY_VERDICT)},
                    r.case_id, r.case_version, r.candidate, r.batch_id, r.workflow_rev, r.finished_at
             FROM score_history h JOIN runs r ON r.run_id = h.run_id
             WHERE ($1::text IS NULL OR r.case_id = $1) AND ($2::text IS NULL OR r.candidate = $2)
             ORDER BY h.judged_at DESC, h.run_id DESC
             LIMIT $3
           ) latest
           ORDER BY judged_at, run_id`,
          [f.caseId ?? null, f.candidate ?? null, f.limit ?? null],
        );
        return rows.map(readHistoryEntry);
      });
    },
  };
}

function readScore(row: unknown): ScoreRow {
  return parseOrThrow(ScoreRowSchema, row, `store: scores row ${JSON.stringify((row as { run_id?: unknown }).run_id)}`);
}

function readHistoryEntry(row: unknown): ScoreHistoryEntry {
  return parseOrThrow(ScoreHistoryEntrySchema, row, `store: score_history row ${JSON.stringify((row as { run_id?: unknown }).run_id)}`);
}
