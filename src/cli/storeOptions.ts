import { join } from 'node:path';
import type { Settings } from '../config.js';
import type { OpenStoreOptions } from '../store/index.js';
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
  const options = storeOptions(settings);
  const launch = selfLaunch();
  if (!options.pgliteDir || settings.storeLingerS === 0 || !launch) return options;
  return { ...options, linger: { seconds: settings.storeLingerS, launch, logFile: join(settings.stateDir, 'store-service.log') } };
}

/**
 * A worker host writes run dirs where its own config says (EVALFLOW_RUNS_DIR, `runs_dir`),
 * not at the client's path; without either, where the batch says.
 */
export function ownRunsDir(settings: Settings): string | undefined {
  return settings.runsDirFrom === 'env' || settings.runsDirFrom === 'config' ? settings.runsDir : undefined;
}

/**
 * The worker's store: as `storeOptions`, but a worker writing to its own runs dir records run
 * dirs as absolute paths, since clients in other workspaces (or on other hosts) read the rows.
 */
export function workerStoreOptions(settings: Settings): OpenStoreOptions {
  const { runDirs, ...options } = storeOptions(settings);
  return ownRunsDir(settings) ? options : { ...options, ...(runDirs ? { runDirs } : {}) };
}
