import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { claimPgliteDir, currentHolder, describeHolder, sameHolder, type LockHolder } from './pgliteLock.js';
import { serveStore } from './storeService.js';

/** What the lock names a lingering service as, so a busy message reads well. */
export const LINGERING_SERVICE_COMMAND = 'evalflow store service';

export interface LingeringServiceOptions {
  /** The PGlite data dir (absolute). */
  dataDir: string;
  /** The socket to serve on (`serviceSocketPath`). */
  socket: string;
  /** Validated schema name, set as PGlite's search_path. */
  schema?: string;
  /** Seconds without a client or a query before the service exits. */
  lingerS: number;
  /** One line of the service's log. */
  log(line: string): void;
}

/** How the service ended: idle, stopped by a signal, its data dir gone, or another process held the store. */
export type ServiceEnd = 'idle' | 'signal' | 'data dir gone' | 'held elsewhere';

/**
 * Holds the PGlite data dir for look-ups: takes the lock, opens PGlite and serves it (see
 * `storeService.ts`) until no client has been connected or sent anything for `lingerS`
 * seconds, SIGTERM or SIGINT arrives, or the data dir disappears; then closes cleanly (the
 * socket removed, the lock let go). Why: a look-up that opens PGlite itself pays 13–28× a node
 * start and ~350 MiB each time; one served by a holder, a few node starts.
 *
 * When another process holds the dir already (two look-ups started a service at once), this
 * one leaves at once: the lock decides, and the look-ups connect to whoever won.
 */
export async function runLingeringService(options: LingeringServiceOptions): Promise<ServiceEnd> {
  const { dataDir, socket, log } = options;
  const claim = await claimPgliteDir(dataDir, socket, LINGERING_SERVICE_COMMAND);
  if ('holder' in claim) {
    log(`${dataDir} is held by ${describeHolder(claim.holder)}; not serving it`);
    return 'held elsewhere';
  }
  const self: LockHolder = { pid: process.pid, host: hostname() };
  // Listened for from here: a signal while PGlite opens still ends with the lock let go.
  const signalled = new Promise<ServiceEnd>((done) => {
    process.once('SIGTERM', () => done('signal'));
    process.once('SIGINT', () => done('signal'));
  });
  const { PGlite } = await import('@electric-sql/pglite');
  let db: InstanceType<typeof PGlite> | undefined;
  try {
    db = await PGlite.create({ dataDir });
    // One session for every client: the schema is the session's search_path.
    if (options.schema) await db.exec(`SET search_path TO ${options.schema}`);
    const service = await serveStore(db, socket);
    log(`serving ${dataDir} on ${socket} (pid ${process.pid}); leaving after ${options.lingerS} s without a client`);
    const end = await new Promise<ServiceEnd>((done) => {
      const finish = (why: ServiceEnd): void => {
        clearInterval(timer);
        done(why);
      };
      const timer = setInterval(() => {
        if (!existsSync(dataDir)) return finish('data dir gone');
        const { clients, lastActiveAt } = service.activity();
        if (clients === 0 && Date.now() - lastActiveAt >= options.lingerS * 1000) finish('idle');
      }, tickMs(options.lingerS));
      void signalled.then(finish);
    });
    log(`leaving (${end})`);
    await service.close();
    return end;
  } finally {
    await db?.close().catch(() => undefined);
    // A data dir removed with its lock, or a lock taken by another since: not ours to remove.
    const now = await currentHolder(dataDir);
    if (typeof now === 'object' && sameHolder(now, self)) await claim.lock.release();
  }
}

/** Often enough to leave within a second of the linger time, rarely enough to cost nothing. */
function tickMs(lingerS: number): number {
  return Math.min(1000, Math.max(100, lingerS * 250));
}
