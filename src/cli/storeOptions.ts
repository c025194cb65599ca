import { join } from 'node:path';
import type { Settings } from '../config.js';
import type { LingerOptions, OpenStoreOptions } from '../store/index.js';
import { selfLaunch } from './selfLaunch.js';

/**
 * The store the settings name: PostgreSQL when DATABASE_URL is set, else PGlite in the state
 * folder, served to other commands on a socket under EVALFLOW_HOME while one holds it. Run
 * dirs are kept relative to the workspace (the config file's folder).
 */
export function storeOptions(settings: Settings): OpenStoreOptions {
  return {
    ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : { pgliteDir: settings.pgliteDir, serviceDir: join(settings.stateDir, 'store-service') }),
    ...(settings.storeSchema ? { schema: settings.storeSchema } : {}),
    runDirs: { workspace: settings.root, runsDir: settings.runsDir },
  };
}

/**
 * A look-up's store (runs, show, batches, compare …): as `storeOptions`, but when the embedded
 * store is free a lingering store service is started to hold it for the look-ups that follow
 * (EVALFLOW_STORE_LINGER seconds after the last; 0: none, each opens PGlite itself). Only the
 * CLI itself starts one: commands run inside another program (tests) open PGlite as before.
 */
export function lookupStoreOptions(settings: Settings): OpenStoreOptions {
  const linger = lingerOf(settings);
  return linger ? { ...storeOptions(settings), linger } : storeOptions(settings);
}

/**
 * The store of a command that holds it for a while (run, worker, view …): as `storeOptions`,
 * but an embedded store it held is handed to a lingering store service when it closes, so the
 * look-ups right after a batch are served too. Same conditions as `lookupStoreOptions`.
 */
export function heldStoreOptions(settings: Settings): OpenStoreOptions {
  const handOver = lingerOf(settings);
  return handOver ? { ...storeOptions(settings), handOver } : storeOptions(settings);
}

/** The lingering store service this CLI may start for the settings' store; undefined on PostgreSQL, with EVALFLOW_STORE_LINGER=0, or outside the CLI. */
function lingerOf(settings: Settings): LingerOptions | undefined {
  const launch = selfLaunch();
  if (!storeOptions(settings).pgliteDir || settings.storeLingerS === 0 || !launch) return undefined;
  return { seconds: settings.storeLingerS, launch, logFile: join(settings.stateDir, 'store-service.log') };
}

/**
 * A worker host writes run dirs where its own config says (EVALFLOW_RUNS_DIR, `runs_dir`),
 * not at the client's path; without either, where the batch says.
 */
export function ownRunsDir(settings: Settings): string | undefined {
  return settings.runsDirFrom === 'env' || settings.runsDirFrom === 'config' ? settings.runsDir : undefined;
}

/**
 * The worker's store: as `heldStoreOptions`, but a worker writing to its own runs dir records
 * run dirs as absolute paths, since clients in other workspaces (or on other hosts) read the rows.
 */
export function workerStoreOptions(settings: Settings): OpenStoreOptions {
  const { runDirs, ...options } = heldStoreOptions(settings);
  return ownRunsDir(settings) ? options : { ...options, ...(runDirs ? { runDirs } : {}) };
}
