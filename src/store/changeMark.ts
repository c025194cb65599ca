import type { SqlExecutor } from './sqlExecutor.js';
import { storeOperation } from './storeOperation.js';

/**
 * The database's current snapshot as text (`xmin:xmax:in-progress xids`): it changes when any
 * transaction that writes starts (a new xid moves xmax) or ends (it leaves the in-progress list),
 * and never on reads, so two equal marks mean no write became visible between them. One cheap
 * query, on PostgreSQL and PGlite alike; a reader keeps what it built from the store under it.
 */
export async function changeMark(sql: SqlExecutor): Promise<string> {
  return storeOperation(sql, 'changeMark', async () => {
    const [row] = await sql.query<{ mark: string }>('SELECT pg_current_snapshot()::text AS mark');
    return row!.mark;
  });
}
