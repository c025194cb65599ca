import { relative } from 'node:path';
import type { Run, RunHost } from '../../store/index.js';
import { runIsolation, uncontainedLine } from '../../summaries/runIsolation.js';
import { formatTable } from './table.js';

/** One line per run that did not complete, with why: the table alone says only `infra_error`. */
export function formatRunProblems(runs: Run[]): string[] {
  return runs
    .filter((r) => r.status !== 'completed')
    .map((r) => `${r.run_id}: ${r.status}${r.error ? `: ${r.error.split('\n')[0]}` : ''} (details: evalflow show ${r.run_id})`);
}

/** The table `evalflow run` prints: case, status, result, overall, run dir; and the host, when given. */
export function formatRunTable(runs: Run[], cwd: string, hosts?: ReadonlyMap<string, string>): string[] {
  const rows = runs.map((r) => [r.case_id, r.status, r.result ?? '-', r.overall === null ? '-' : r.overall.toFixed(1), ...(hosts ? [hosts.get(r.run_id) ?? '-'] : []), relative(cwd, r.run_dir) || '.']);
  const header = ['case', 'status', 'result', 'overall', ...(hosts ? ['host'] : []), 'run dir'];
  return formatTable(header, rows);
}

/** Each run's hosts, attempt after attempt (`a→b`: started on a, restarted on b after a was lost). */
export function hostsByRun(rows: readonly RunHost[]): Map<string, string> {
  const hosts = new Map<string, string>();
  for (const row of [...rows].sort((x, y) => x.generation - y.generation)) {
    const before = hosts.get(row.run_id);
    hosts.set(row.run_id, before ? `${before}→${row.host_id}` : row.host_id);
  }
  return hosts;
}

/**
 * `uncontained: 1 of 3 runs (isolation: none): run-…`, or nothing when every run was contained.
 * Runs are named only when some ran contained (and at most NAMED_UNCONTAINED of them).
 */
export function formatUncontained(runs: Run[]): string[] {
  const uncontained = runs.filter((r) => runIsolation(r) === 'none');
  const line = uncontainedLine(uncontained.length, runs.length);
  if (!line) return [];
  if (uncontained.length === runs.length) return [line];
  const named = uncontained.slice(0, NAMED_UNCONTAINED).map((r) => r.run_id);
  const more = uncontained.length - named.length;
  return [`${line}: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`];
}

const NAMED_UNCONTAINED = 5;
