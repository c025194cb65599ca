import type { Settings } from '../../config.js';
import { ConfigError, StoreBusyError, StoreError, TemporalUnreachableError } from '../../errors.js';
import { openStore, type Store } from '../../store/index.js';
import { connectTemporal, type TemporalHandle } from '../../temporal/connection.js';
import { EXIT } from '../exitCodes.js';
import { workerStoreOptions } from '../storeOptions.js';
import { hostChecks } from './hostChecks.js';
import type { PreflightRow } from './preflightTable.js';

/** Why the worker cannot start: the exit code and one line naming the setting. */
export interface PreflightFailure {
  exit: number;
  line: string;
}

export type PreflightResult = { rows: PreflightRow[] } & ({ ready: true; store: Store; temporal: TemporalHandle } | { ready: false; failure: PreflightFailure });

/**
 * A worker's checks before it takes work, all made before any verdict so the table is whole:
 * Temporal and the store (essential: the worker cannot serve without them, and hands them
 * back open), then what the host offers. The first essential that fails decides the exit.
 */
export async function workerPreflight(settings: Settings, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<PreflightResult> {
  const [temporal, store, host] = await Promise.all([settle(connectTemporal(settings, log)), settle(openStore(workerStoreOptions(settings))), hostChecks(settings, env)]);
  const rows: PreflightRow[] = [
    temporal.ok ? { check: 'Temporal', state: 'ok', detail: `${temporal.value.address}, namespace ${temporal.value.namespace} (${temporal.value.mode})` } : { check: 'Temporal', state: 'failed', detail: shortly(temporal.error) },
    store.ok ? { check: 'store', state: 'ok', detail: storeKind(settings, store.value) } : { check: 'store', state: 'failed', detail: shortly(store.error) },
    ...host.rows,
  ];
  if (temporal.ok && store.ok && !host.fatal) return { rows, ready: true, store: store.value, temporal: temporal.value };
  if (temporal.ok) await temporal.value.close();
  if (store.ok) await store.value.close();
  // Anything not ours is a bug, with its stack.
  const unknown = [temporal, store].find((done) => !done.ok && !isOurs(done.error));
  if (unknown && !unknown.ok) throw unknown.error;
  const failure = (!temporal.ok && temporalFailure(temporal.error)) || (!store.ok && storeFailure(store.error)) || { exit: 1, line: host.fatal ?? '' };
  return { rows, ready: false, failure };
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** The store's kind and where it is, never a password. */
function storeKind(settings: Settings, store: Store): string {
  const schema = settings.storeSchema ? `, schema ${settings.storeSchema}` : '';
  if (settings.databaseUrl) {
    const url = new URL(settings.databaseUrl);
    return `PostgreSQL ${url.host}${url.pathname} (DATABASE_URL${schema})`;
  }
  return `PGlite ${settings.pgliteDir}${schema}${store.servedBy ? `, served by ${store.servedBy}` : ''} (this host only)`;
}

const shortly = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';

const isOurs = (err: unknown) => err instanceof TemporalUnreachableError || err instanceof ConfigError || err instanceof StoreError;

/** Unreachable: exit 69 with the line the connection wrote (it names TEMPORAL_ADDRESS or the port); refused settings: exit 1. */
function temporalFailure(err: unknown): PreflightFailure {
  return { exit: err instanceof TemporalUnreachableError ? EXIT.unreachable : 1, line: shortly(err) };
}

/**
 * A database that does not answer (or a connection dropped) is unreachable, exit 69; an
 * embedded store held elsewhere, 75; a refused login or a bad URL, 1.
 */
function storeFailure(err: unknown): PreflightFailure {
  if (err instanceof StoreBusyError) return { exit: EXIT.storeBusy, line: shortly(err) };
  if (err instanceof StoreError && err.retryable) return { exit: EXIT.unreachable, line: `${shortly(err)}: start it, or point DATABASE_URL at the PostgreSQL this cluster's clients use` };
  return { exit: 1, line: shortly(err) };
}
