import { join } from 'node:path';
import type { Settings } from '../config.js';
import type { OpenStoreOptions } from '../store/index.js';

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
