import { ConfigError } from '../errors.js';
import { createBatchRepository } from './batchRepository.js';
import { createDecisionRepository } from './decisionRepository.js';
import { createEditPredictionRepository } from './editPredictionRepository.js';
import { createHostRepository } from './hostRepository.js';
import { createCalibrationRepository } from './calibrationRepository.js';
import { createCasePackRepository } from './casePackRepository.js';
import { openEmbeddedStore, openPglite, type ServiceWishes } from './embeddedStore.js';
import { changeMark } from './changeMark.js';
import { migrate, schemaVersion } from './migrate.js';
import { createPgExecutor } from './pgExecutor.js';
import { createReviewRepository } from './reviewRepository.js';
import { createScheduleRepository } from './scheduleRepository.js';
import { createWorkflowUsageRepository } from './workflowUsageRepository.js';
import { runDirs, type RunDirAnchor } from './runDirs.js';
import type { LingerOptions } from './startLingeringService.js';
import { createRunRepository } from './runRepository.js';
import { createRunStateRepository } from './runStateRepository.js';
import { createComparisonStatsRepository } from './comparisonStatsRepository.js';
import { createRevisionStatsRepository } from './revisionStatsRepository.js';
import { createScoreRepository } from './scoreRepository.js';
import { createStepRepository } from './stepRepository.js';
import type { SqlExecutor } from './sqlExecutor.js';
import type { Store } from './store.js';
import { redactConnectionString, storeFailure, storeOperation } from './storeOperation.js';
import { createTranscriptRepository } from './transcriptRepository.js';

export interface OpenStoreOptions {
  /** PostgreSQL connection string (DATABASE_URL). Set and non-empty → PostgreSQL through `pg`. */
  databaseUrl?: string;
  /**
   * PGlite data directory (e.g. `.evalflow/pglite`), used when there is no databaseUrl.
   * Omitted → an in-memory PGlite, gone at close (tests). Only one process opens a data dir
   * (see `pgliteLock.ts`); it serves the store to the others, which connect to it and take it
   * over when it exits (see `embeddedStore.ts`).
   */
  pgliteDir?: string;
  /**
   * Where the store service's socket goes (EVALFLOW_HOME: hidden from candidates, like the
   * store). Default: next to the PGlite data dir.
   */
  serviceDir?: string;
  /**
   * A look-up (a short command) sets it: when the PGlite data dir is free, a lingering store
   * service is started to hold it and this process is served by it (see
   * `startLingeringService.ts`). Omitted: this process opens PGlite itself and holds it.
   */
  linger?: LingerOptions;
  /**
   * A command that holds the store for a while (run, worker, view) sets it: when it closes a
   * PGlite data dir it held itself, a lingering store service is started to hold it for the
   * look-ups that follow (see `startLingeringService.ts`), so the first of them is served too.
   */
  handOver?: LingerOptions;
  /** PostgreSQL schema to keep every table in; created if missing. Isolates tests and teams. */
  schema?: string;
  /** Apply missing migrations while opening (default true). */
  migrate?: boolean;
  /**
   * The workspace run dirs are kept relative to, so a moved or copied workspace reads its own
   * run dirs (see runDirs.ts). Omitted: run dirs are stored and read as they are given.
   */
  runDirs?: RunDirAnchor;
}

/**
 * Opens the store: PostgreSQL when `databaseUrl` is given, else embedded PGlite; then brings
 * its schema up to date. Fails with StoreError (never showing a password) when the database
 * cannot be reached, and ConfigError for a bad schema name or a DATABASE_URL that is not a
 * `postgres://` / `postgresql://` URL. With `schema`, pooled connections get it as their
 * search_path through the `options` startup parameter (overriding any `options` in the URL).
 *
 * Cost, measured on 2 shared cores: opening PGlite dominates. A new on-disk data dir takes
 * 1.5–3 s (WASM compile and initdb), reopening one about 0.3 s (0.6 s under load), an
 * in-memory one 1–2 s. Applying all migrations takes 50–120 ms; a no-op migrate about 2 ms.
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const schema = options.schema === undefined ? undefined : checkSchemaName(options.schema);
  const opened = options.databaseUrl ? await openPostgres(options.databaseUrl, schema) : await openEmbedded(options.pgliteDir, options.serviceDir, schema, { linger: options.linger, handOver: options.handOver });
  const { sql, servedBy } = opened;
  try {
    if (options.migrate ?? true) await migrate(sql, schema);
  } catch (err) {
    await sql.close().catch(() => undefined);
    throw err;
  }

  const dirs = runDirs(options.runDirs);
  let closing: Promise<void> | undefined;
  return {
    backend: sql.backend,
    // A getter: a served process that takes the store over holds it from then on.
    get servedBy() {
      return servedBy();
    },
    migrate: () => migrate(sql, schema),
    schemaVersion: () => schemaVersion(sql),
    changeMark: () => changeMark(sql),
    ...createRunRepository(sql, dirs),
    ...createRunStateRepository(sql),
    ...createRevisionStatsRepository(sql),
    ...createComparisonStatsRepository(sql, dirs),
    ...createTranscriptRepository(sql),
    ...createScoreRepository(sql),
    ...createReviewRepository(sql),
    ...createScheduleRepository(sql),
    ...createWorkflowUsageRepository(sql),
    ...createBatchRepository(sql),
    ...createDecisionRepository(sql),
    ...createStepRepository(sql),
    ...createEditPredictionRepository(sql),
    ...createHostRepository(sql),
    ...createCalibrationRepository(sql),
    ...createCasePackRepository(sql),
    close: () => {
      closing ??= storeOperation(sql, 'close', () => sql.close());
      return closing;
    },
  };
}

interface Opened {
  /** For an embedded store, `close` also lets its data dir go. */
  sql: SqlExecutor;
  servedBy(): string | null;
}

const heldHere = (): null => null;

async function openPostgres(databaseUrl: string, schema: string | undefined): Promise<Opened> {
  checkDatabaseUrl(databaseUrl);
  const sql = createPgExecutor({ connectionString: databaseUrl, ...(schema ? { schema } : {}) });
  try {
    await sql.query('SELECT 1');
  } catch (err) {
    await sql.close().catch(() => undefined);
    throw storeFailure(sql, `connect to PostgreSQL at ${redactConnectionString(databaseUrl)}`, err);
  }
  return { sql, servedBy: heldHere };
}

async function openEmbedded(dataDir: string | undefined, serviceDir: string | undefined, schema: string | undefined, services: ServiceWishes): Promise<Opened> {
  if (dataDir === undefined) return { sql: await openPglite({ ...(schema ? { schema } : {}) }, 'in-memory PGlite'), servedBy: heldHere };
  return openEmbeddedStore(dataDir, serviceDir, schema, services);
}

/** Only URL forms: pg would read anything else as a host or socket name and fail obscurely. */
function checkDatabaseUrl(databaseUrl: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(databaseUrl).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol === 'postgres:' || protocol === 'postgresql:') return;
  // Never echo the value: it may hold a password.
  const found = protocol === undefined ? 'a value that does not parse as a URL' : `a ${protocol}// URL`;
  throw new ConfigError(`store: DATABASE_URL is not a PostgreSQL URL: expected postgres://user[:password]@host[:port]/database, found ${found}`);
}

/** Schema names go into SQL unquoted, so only plain lower-case identifiers are allowed. */
function checkSchemaName(schema: string): string {
  if (/^[a-z_][a-z0-9_]{0,62}$/.test(schema) && !schema.startsWith('pg_')) return schema;
  throw new ConfigError(
    `store: schema ${JSON.stringify(schema)} is not allowed: expected lower-case letters, digits and _ (not starting with a digit or pg_), at most 63 characters`,
  );
}
