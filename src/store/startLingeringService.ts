import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StoreError } from '../errors.js';
import { currentHolder, isAlive } from './pgliteLock.js';

/** A look-up's wish: when the embedded store is free, start a lingering store service rather than opening PGlite here. */
export interface LingerOptions {
  /** Seconds the service stays after its last client (EVALFLOW_STORE_LINGER). */
  seconds: number;
  /** node's arguments that run this CLI again (its flags and entry script); `store-service …` follows. */
  launch: readonly string[];
  /** The service's log, appended to. */
  logFile: string;
}

/** How long a service may take to serve: PGlite's first open of a new data dir takes 1.5–3 s, and was seen to take 32 s on 2 loaded cores. */
const START_PATIENCE_MS = 120_000;
const POLL_MS = 25;

/**
 * Starts a detached `evalflow store-service` for `dataDir` (see `lingeringService.ts`) and
 * waits until a live process holds the store and serves it: that service, or the one another
 * look-up started at the same moment (the lock decides which). Returns 'unavailable' when the
 * process could not be spawned at all (the caller then opens PGlite itself); a service that
 * starts and then fails, or does not hold the store in time, is a StoreError naming its log.
 */
export async function startLingeringService(dataDir: string, socket: string, schema: string | undefined, linger: LingerOptions): Promise<'serving' | 'unavailable'> {
  const service = await spawnStoreService(dataDir, socket, schema, linger);
  if (!service) return 'unavailable';

  const deadline = Date.now() + START_PATIENCE_MS;
  for (;;) {
    if (service.spawnFailed) return 'unavailable';
    const holder = await currentHolder(dataDir);
    const live = typeof holder === 'object' && isAlive(holder) ? holder : undefined;
    // Its socket appears once PGlite is open: from then on the holder answers at once.
    if (live?.socket && existsSync(live.socket)) return 'serving';
    // Ours left because another holds the store (a service started at the same moment, still
    // opening PGlite): wait for that one; one that does not serve is the caller's to report.
    if (service.exitCode !== undefined && live && !live.socket) return 'serving';
    if (service.exitCode !== undefined && !live) {
      throw new StoreError(`store: the store service for ${dataDir} exited (code ${service.exitCode}) before serving it; see its log ${linger.logFile}, or set EVALFLOW_STORE_LINGER=0 to open the store in each command`);
    }
    if (Date.now() > deadline) {
      service.child.kill('SIGTERM');
      throw new StoreError(`store: the store service for ${dataDir} did not serve it within ${START_PATIENCE_MS / 1000} s; see its log ${linger.logFile}, or set EVALFLOW_STORE_LINGER=0 to open the store in each command`);
    }
    await new Promise((wait) => setTimeout(wait, POLL_MS));
  }
}

/**
 * Starts a lingering store service for `dataDir` and returns at once: a command that held the
 * store itself (run, worker, view) hands it over as it exits, so the look-ups after it are
 * served rather than each opening PGlite. Nothing is reported: a service that cannot start
 * leaves the store free, and the next look-up starts one or opens it itself.
 */
export async function handOverStore(dataDir: string, socket: string, schema: string | undefined, linger: LingerOptions): Promise<void> {
  await spawnStoreService(dataDir, socket, schema, linger);
}

/** A spawned service, as its events tell: set from the moment it is spawned, so no event is missed. */
interface SpawnedService {
  child: ChildProcess;
  spawnFailed: boolean;
  /** Its exit code (-1 when a signal ended it), null when it left without one; undefined while it runs. */
  exitCode: number | null | undefined;
}

/** A detached `evalflow store-service` for `dataDir`, logging to its log file; undefined when it cannot be spawned. */
async function spawnStoreService(dataDir: string, socket: string, schema: string | undefined, linger: LingerOptions): Promise<SpawnedService | undefined> {
  const args = [...linger.launch, 'store-service', '--data-dir', dataDir, '--socket', socket, '--linger', String(linger.seconds), ...(schema ? ['--schema', schema] : [])];
  try {
    await mkdir(dirname(linger.logFile), { recursive: true });
    const log = openSync(linger.logFile, 'a');
    try {
      // Detached, in its own session, with no pipe back: it outlives this command. In this
      // folder: node resolves a bare `--import` (tsx in development) from it.
      const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], cwd: process.cwd(), env: process.env });
      const service: SpawnedService = { child, spawnFailed: false, exitCode: undefined };
      child.once('error', () => (service.spawnFailed = true));
      child.once('exit', (code, signal) => (service.exitCode = code ?? (signal ? -1 : null)));
      child.unref();
      return service;
    } finally {
      closeSync(log);
    }
  } catch {
    return undefined;
  }
}
