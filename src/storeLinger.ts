import { ConfigError } from './errors.js';

/** How long a store service started by a look-up waits for the next one, unless EVALFLOW_STORE_LINGER says. */
export const DEFAULT_STORE_LINGER_S = 600;

/**
 * EVALFLOW_STORE_LINGER: whole seconds a lingering store service stays after its last client
 * (see docs/store-service.md); 0 starts none, so each look-up opens PGlite itself.
 */
export function storeLingerFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.EVALFLOW_STORE_LINGER;
  if (raw === undefined || raw === '') return DEFAULT_STORE_LINGER_S;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 0) throw new ConfigError(`EVALFLOW_STORE_LINGER: expected whole seconds (0 or more), found '${raw}'`);
  return seconds;
}
