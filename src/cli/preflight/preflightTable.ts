import { formatTable } from '../output/table.js';

/** ok: works; missing: absent, the worker goes on without it; failed: the worker cannot serve. */
export type CheckState = 'ok' | 'off' | 'missing' | 'failed';

/** One line of a worker's preflight: what was checked, how it stands, and what was found. */
export interface PreflightRow {
  check: string;
  state: CheckState;
  detail: string;
}

/** The preflight as one table, in the order the checks were listed. */
export function formatPreflight(rows: readonly PreflightRow[]): string[] {
  return formatTable(
    ['check', 'state', 'detail'],
    rows.map((row) => [row.check, row.state, row.detail]),
  );
}
