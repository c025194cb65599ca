import * as z from 'zod';
import { StoreError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { TranscriptEventSchema } from '../transcript/schema.js';
import type { TranscriptEvent } from '../transcript/schema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { isForeignKeyViolation, storeFailure, storeOperation } from './storeOperation.js';

const COLUMNS = 'run_id, turn, attempt, seq, ts, role, content, tool, usage';

/** appendTranscriptEvents and getTranscript over `transcript_events`. */
export function createTranscriptRepository(sql: SqlExecutor): Pick<Store, 'appendTranscriptEvents' | 'getTranscript'> {
  return {
    async appendTranscriptEvents(events) {
      const valid = parseOrThrow(z.array(TranscriptEventSchema), events, 'appendTranscriptEvents(events)');
      if (valid.length === 0) return { inserted: 0 };
      const runIds = [...new Set(valid.map((e) => e.run_id))];
      const operation = `appendTranscriptEvents(${runIds.map((id) => JSON.stringify(id)).join(', ')}; ${valid.length} events)`;
      try {
        // One JSON parameter for the whole batch: no 65535-parameter limit, one round trip.
        const rows = await sql.query(
          `INSERT INTO transcript_events (${COLUMNS})
           SELECT ${COLUMNS}
           FROM jsonb_to_recordset($1::jsonb) AS e(run_id text, turn integer, attempt integer, seq integer,
                                                   ts timestamptz, role text, content text, tool jsonb, usage jsonb)
           ON CONFLICT (run_id, turn, attempt, seq) DO NOTHING
           RETURNING 1`,
          [JSON.stringify(valid, withoutNul)],
        );
        return { inserted: rows.length };
      } catch (err) {
        if (isForeignKeyViolation(err)) {
          const missing = await missingRuns(sql, runIds).catch(() => runIds);
          throw new StoreError(
            `store: ${operation} failed: expected a row in runs for every run_id, found none for ${missing.map((id) => JSON.stringify(id)).join(', ')} (upsertRun first)`,
            { cause: err },
          );
        }
        throw storeFailure(sql, operation, err);
      }
    },

    async getTranscript(runId, query = { attempts: 'latest' }) {
      // A turn's latest attempt is its highest one: a retried turn is rewritten under attempt+1.
      const latestOnly =
        query.attempts === 'latest'
          ? 'AND e.attempt = (SELECT max(l.attempt) FROM transcript_events l WHERE l.run_id = e.run_id AND l.turn = e.turn)'
          : '';
      return storeOperation(sql, `getTranscript(${JSON.stringify(runId)}, ${query.attempts})`, async () => {
        const rows = await sql.query<Record<string, unknown>>(
          `SELECT ${COLUMNS} FROM transcript_events e WHERE e.run_id = $1 ${latestOnly} ORDER BY e.turn, e.attempt, e.seq`,
          [runId],
        );
        return rows.map((row) => readEvent(row));
      });
    },
  };
}

/**
 * PostgreSQL text and jsonb cannot hold U+0000, which agents' tool output can contain (a binary
 * file cat'ed, `find -print0`); it becomes U+FFFD instead of failing the whole batch of events.
 */
function withoutNul(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.includes('\u0000') ? value.replaceAll('\u0000', '\uFFFD') : value;
}

async function missingRuns(sql: SqlExecutor, runIds: readonly string[]): Promise<string[]> {
  const rows = await sql.query<{ run_id: string }>(
    `SELECT id AS run_id FROM jsonb_array_elements_text($1::jsonb) AS id
     WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.run_id = id)`,
    [JSON.stringify(runIds)],
  );
  return rows.map((row) => row.run_id);
}

/** Absent `tool`/`usage` are NULL in the table and absent (not null) in a TranscriptEvent. */
function readEvent(row: Record<string, unknown>): TranscriptEvent {
  const { tool, usage, ...rest } = row;
  const event = { ...rest, ...(tool === null ? {} : { tool }), ...(usage === null ? {} : { usage }) };
  return parseOrThrow(TranscriptEventSchema, event, `store: transcript_events row ${JSON.stringify(row.run_id)} turn ${String(row.turn)} seq ${String(row.seq)}`);
}
