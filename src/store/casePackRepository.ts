import { createHash } from 'node:crypto';
import { parseOrThrow } from '../format.js';
import { CaseSetEntrySchema, CaseSetSchema, type CaseSetEntry } from './casePackSchema.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { storeOperation } from './storeOperation.js';

/**
 * Case folders as content (`case_packs`, by hash) and the selections of them batches run
 * (`case_sets`). Both are written once and never change: a hash names one content.
 */
export function createCasePackRepository(sql: SqlExecutor): Pick<Store, 'saveCasePack' | 'getCasePack' | 'saveCaseSet' | 'getCaseSet'> {
  return {
    async saveCasePack({ packHash, caseId, pack, bytes }) {
      await storeOperation(sql, `saveCasePack(${JSON.stringify(packHash)})`, () =>
        sql.query('INSERT INTO case_packs (pack_hash, case_id, pack, bytes) VALUES ($1, $2, $3::jsonb, $4) ON CONFLICT (pack_hash) DO NOTHING', [packHash, caseId, JSON.stringify(pack), bytes]),
      );
    },

    async getCasePack(packHash) {
      return storeOperation(sql, `getCasePack(${JSON.stringify(packHash)})`, async () => {
        const rows = await sql.query<{ pack: unknown }>('SELECT pack FROM case_packs WHERE pack_hash = $1', [packHash]);
        return rows[0]?.pack ?? null;
      });
    },

    async saveCaseSet(entries) {
      const checked = entries.map((entry, i) => parseOrThrow(CaseSetEntrySchema, entry, `saveCaseSet: entry ${i}`));
      const setHash = caseSetHash(checked);
      await storeOperation(sql, `saveCaseSet(${JSON.stringify(setHash)})`, () =>
        sql.query('INSERT INTO case_sets (set_hash, cases) VALUES ($1, $2::jsonb) ON CONFLICT (set_hash) DO NOTHING', [setHash, JSON.stringify(checked)]),
      );
      return setHash;
    },

    async getCaseSet(setHash) {
      return storeOperation(sql, `getCaseSet(${JSON.stringify(setHash)})`, async () => {
        const rows = await sql.query<{ cases: unknown }>('SELECT cases FROM case_sets WHERE set_hash = $1', [setHash]);
        return rows[0] === undefined ? null : parseOrThrow(CaseSetSchema, rows[0].cases, `store: case_sets row ${JSON.stringify(setHash)}`);
      });
    },
  };
}

/** `sha256:<hex>` of the entries in order: the set's key, so saving one twice keeps one row. */
function caseSetHash(entries: readonly CaseSetEntry[]): string {
  const hash = createHash('sha256');
  for (const e of entries) hash.update(`${e.case_id}\0${e.case_dir}\0${e.case_hash}\0${e.pack_hash}\n`);
  return `sha256:${hash.digest('hex')}`;
}
