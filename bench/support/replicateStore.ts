import { PGlite } from '@electric-sql/pglite';

/** Copies every batch, run and verdict `times - 1` more times under suffixed ids, in SQL. */
export async function replicate(dir: string, times: number): Promise<void> {
  const db = new PGlite(dir);
  const columns = async (table: string) =>
    (await db.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`, [table])).rows.map((r) => r.column_name);
  const copy = async (table: string, rewrite: Record<string, string>) => {
    const cols = await columns(table);
    const select = cols.map((c) => rewrite[c] ?? c).join(', ');
    await db.query(`INSERT INTO ${table} (${cols.join(', ')}) SELECT ${select} FROM ${table}, generate_series(1, ${times - 1}) AS g`);
  };
  // Later copies are newer, so the last batch is a copy of the same size as the seed's last.
  await copy('batches', { batch_id: `batch_id || '-' || g`, created_at: `created_at + g * interval '1 day'` });
  await copy('runs', { run_id: `run_id || '-' || g`, batch_id: `batch_id || '-' || g`, created_at: `created_at + g * interval '1 day'` });
  await copy('scores', { run_id: `run_id || '-' || g`, judged_at: `judged_at + g * interval '1 day'` });
  await copy('score_history', { run_id: `run_id || '-' || g`, judged_at: `judged_at + g * interval '1 day'` });
  await db.close();
}
