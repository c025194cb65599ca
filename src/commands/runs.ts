import { loadSettings } from '../config.js';
import type { RunState } from '../vocabulary/runStatus.js';
import { openStore } from '../store/index.js';
import { EXIT } from '../cli/exitCodes.js';
import type { CommandIo } from '../cli/io.js';
import { formatRunTable, hostsByRun } from '../cli/output/runTable.js';
import { lookupStoreOptions } from '../cli/storeOptions.js';
import { runsMatching } from '../cli/runsQuery.js';
import { UsageError } from '../errors.js';
import { printJson } from '../cli/json/document.js';
import { runJson, RunsJson } from '../cli/json/runs.js';

export interface RunsOptions {
  config?: string;
  batch?: string;
  status?: RunState;
  limit?: number;
  /** The next page: runs listed after this run id (the cursor the previous page printed). */
  after?: string;
  /** A Temporal visibility query over the run workflows, as the Web UI takes it. */
  query?: string;
  /** Print the page as JSON (docs/json.md) instead of the table. */
  json?: boolean;
}

const DEFAULT_LIMIT = 50;

/**
 * `evalflow runs [--batch ID] [--status S] [--limit N] [--after RUN]`: the store's runs, newest
 * first, as the table of `run`, a page at a time: when more follow, the last line names the
 * run to continue `--after` (a keyset cursor: each page is a range read of an index, however
 * deep). With `--query Q`, the runs whose workflows match a Temporal visibility query.
 */
export async function run(options: RunsOptions, io: CommandIo): Promise<number> {
  const ignored = options.query === undefined ? undefined : (['batch', 'status', 'after'] as const).find((flag) => options[flag] !== undefined);
  if (ignored) throw new UsageError(`--query: cannot be combined with --${ignored}; put the condition into the query (docs/temporal.md#ready-queries)`);
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  const store = await openStore(lookupStoreOptions(settings));
  try {
    if (options.query !== undefined) return await queried(options.query, options.limit ?? DEFAULT_LIMIT);

    const limit = options.limit ?? DEFAULT_LIMIT;
    // One more than the page says whether another page follows.
    const page = await store.listRuns({
      ...(options.batch ? { batchId: options.batch } : {}),
      ...(options.status ? { status: options.status } : {}),
      ...(options.after !== undefined ? { olderThan: options.after } : {}),
      limit: limit + 1,
    });
    const runs = page.slice(0, limit);
    if (runs.length === 0) {
      if (options.after !== undefined && !(await store.getRun(options.after))) {
        throw new UsageError(`--after '${options.after}': expected a run id in the store (the last line of the previous page names one)`);
      }
      const batch = options.batch ? await store.getBatch(options.batch) : null;
      if (options.batch && !batch) {
        io.err(`error: no batch ${options.batch} in the store (\`evalflow batches\` lists them)`);
        return EXIT.unknownBatch;
      }
      if (options.json) printJson(io, RunsJson, { schema_version: 1, runs: [], next_after: null, not_in_store: [] });
      if (options.after !== undefined) {
        io.err(`no run after ${options.after}`);
        return EXIT.ok;
      }
      io.err(`no run matches${options.batch ? ` in batch ${options.batch}` : ''}${options.status ? ` with status ${options.status}` : ''}`);
      return EXIT.ok;
    }
    const hostRows = await store.getRunHosts(runs.map((r) => r.run_id));
    const next = page.length > limit ? runs.at(-1)!.run_id : null;
    if (options.json) printJson(io, RunsJson, { schema_version: 1, runs: runs.map((r) => runJson(r, hostRows)), next_after: next, not_in_store: [] });
    else for (const line of formatRunTable(runs, io.cwd, hostsByRun(hostRows))) io.out(line);
    if (next) io.err(`more: ${nextPage(options, next)}`);
    return EXIT.ok;
  } finally {
    await store.close();
  }

  async function queried(query: string, limit: number): Promise<number> {
    // Only a --query needs Temporal: the plain listing reads the store and never loads it.
    const { connectTemporal } = await import('../temporal/connection.js');
    const temporal = await connectTemporal(settings, (line) => io.err(line));
    try {
      const { runs, notInStore } = await runsMatching(temporal, store, query, limit);
      const hostRows = await store.getRunHosts(runs.map((r) => r.run_id));
      if (options.json) {
        const others = notInStore.map((o) => ({ run_id: o.runId, temporal_status: o.status.toLowerCase() }));
        printJson(io, RunsJson, { schema_version: 1, runs: runs.map((r) => runJson(r, hostRows)), next_after: null, not_in_store: others });
        return EXIT.ok;
      }
      if (runs.length > 0) for (const line of formatRunTable(runs, io.cwd, hostsByRun(hostRows))) io.out(line);
      for (const other of notInStore) io.err(`${other.runId}: ${other.status.toLowerCase()} in Temporal, not in this store`);
      if (runs.length === 0 && notInStore.length === 0) io.err(`no run workflow matches ${query}`);
      return EXIT.ok;
    } finally {
      await temporal.close();
    }
  }
}

/** The command that prints the page after `lastRunId`, with the same filters. */
function nextPage(options: RunsOptions, lastRunId: string): string {
  return [
    'evalflow runs',
    ...(options.config ? [`--config ${options.config}`] : []),
    ...(options.batch ? [`--batch ${options.batch}`] : []),
    ...(options.status ? [`--status ${options.status}`] : []),
    ...(options.limit ? [`--limit ${options.limit}`] : []),
    ...(options.json ? ['--json'] : []),
    `--after ${lastRunId}`,
  ].join(' ');
}
