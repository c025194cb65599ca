import { createHash } from 'node:crypto';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/** A running store service; `close` ends every connection and removes the socket. Idempotent. */
export interface StoreService {
  readonly socketPath: string;
  /** Clients connected now, and when one last connected, sent or hung up (ms since the epoch): what an idle service goes by. */
  activity(): { clients: number; lastActiveAt: number };
  close(): Promise<void>;
}

/**
 * Serves the PGlite this process holds over the PostgreSQL wire protocol on a Unix socket,
 * so other evalflow processes reach it with the `pg` driver instead of opening the data dir
 * (PGlite allows one process per data dir) and without loading the WASM engine.
 *
 * PGlite has a single session, so the service is a gate: each client's messages run up to
 * a Sync or a simple Query in one piece, and a client inside a transaction block keeps the
 * session (and this process's own queries wait) until the block ends. A client that
 * disconnects inside a transaction has it rolled back.
 *
 * The socket's directory is created 0700 and the socket made 0600: only this user reaches it.
 */
export async function serveStore(db: PGlite, socketPath: string): Promise<StoreService> {
  // Both the socket's folder and its parent private: the parent may be shared in tmpdir.
  await mkdir(dirname(socketPath), { recursive: true, mode: 0o700 });
  await chmod(dirname(dirname(socketPath)), 0o700);
  await chmod(dirname(socketPath), 0o700);
  // A socket file left by a crashed holder would make listen fail with EADDRINUSE.
  await rm(socketPath, { force: true });
  const connections = new Map<Socket, Connection>();
  let lastActiveAt = Date.now();
  const active = (): void => {
    lastActiveAt = Date.now();
  };
  const server = createServer((socket) => {
    active();
    connections.set(socket, serveConnection(db, socket));
    socket.on('data', active);
    socket.on('close', () => {
      connections.delete(socket);
      active();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  await chmod(socketPath, 0o600);
  let closing: Promise<void> | undefined;
  return {
    socketPath,
    activity: () => ({ clients: connections.size, lastActiveAt }),
    close: () => {
      closing ??= (async () => {
        // Answer what is running before hanging up, so a client never loses the answer to a
        // write that landed; what a client sends from now on waits for the next holder.
        const served = [...connections.entries()];
        for (const [socket] of served) socket.pause();
        const stopped = closeServer(server);
        await settled(served.map(([, connection]) => connection.idle()));
        for (const [socket] of served) socket.destroy();
        // A client's transaction left open is rolled back before PGlite closes.
        await settled(served.map(([, connection]) => connection.idle()));
        await stopped;
        await rm(socketPath, { force: true });
      })();
      return closing;
    },
  };
}

/** How long a closing service waits for the statements it runs (one waiting for another client's transaction could wait long). */
const DRAIN_MS = 2_000;

async function settled(work: Promise<void>[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(work), new Promise<void>((done) => (timer = setTimeout(done, DRAIN_MS)))]);
  clearTimeout(timer);
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolveClose) => server.close(() => resolveClose()));
}

/** Unix socket paths longer than this do not fit in `sockaddr_un` on Linux and macOS. */
const MAX_SOCKET_PATH = 100;

/**
 * The socket a store service for `dataDir` listens on: `<serviceDir>/<hash>/.s.PGSQL.5432`
 * (the name `pg` derives from a folder), in a folder of its own per data dir. When that path is
 * too long for a socket, a private folder in the system's temporary dir (hidden from
 * candidates as well); undefined when even that does not fit.
 */
export function serviceSocketPath(dataDir: string, serviceDir?: string): string | undefined {
  const key = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  const candidates = [
    join(serviceDir ?? `${dataDir}.service`, key, '.s.PGSQL.5432'),
    join(tmpdir(), `evalflow-${userInfo().uid}`, key, '.s.PGSQL.5432'),
  ];
  return candidates.find((path) => Buffer.byteLength(path) <= MAX_SOCKET_PATH);
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;

/** A served client; `idle` settles once what it sent so far has run and been answered. */
interface Connection {
  idle(): Promise<void>;
}

/** One client connection: frames its byte stream into messages and runs them through the gate. */
function serveConnection(db: PGlite, socket: Socket): Connection {
  let buffered = Buffer.alloc(0);
  let started = false;
  let pending: Buffer[] = [];
  let release: (() => void) | undefined;
  let chain = Promise.resolve();

  const run = (batch: Buffer): Promise<void> =>
    (chain = chain.then(async () => {
      if (socket.destroyed) return;
      release ??= await holdSession(db);
      // Hung up while waiting for the session: the client will not read an answer, so run nothing.
      if (socket.destroyed && !db.isInTransaction()) {
        release();
        release = undefined;
        return;
      }
      const reply = await db._runExclusiveQuery(() => db.execProtocolRaw(new Uint8Array(batch)));
      if (!db.isInTransaction()) {
        release();
        release = undefined;
      }
      if (reply.length > 0 && !socket.destroyed) socket.write(reply);
    }));

  const fail = (): void => {
    socket.destroy();
  };

  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    for (;;) {
      const headerLength = started ? 5 : 4;
      if (buffered.length < headerLength) return;
      const length = started ? buffered.readInt32BE(1) + 1 : buffered.readInt32BE(0);
      if (buffered.length < length) return;
      const message = buffered.subarray(0, length);
      buffered = buffered.subarray(length);
      if (!started) {
        const code = message.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          socket.write('N');
          continue;
        }
        if (code === CANCEL_REQUEST) {
          socket.end();
          return;
        }
        started = true;
        run(message).catch(fail);
        continue;
      }
      const type = String.fromCharCode(message[0] ?? 0);
      if (type === 'X') {
        socket.end();
        return;
      }
      pending.push(message);
      // The backend answers a simple Query or a Sync with ReadyForQuery, and a Flush with
      // what it has: the points where a client waits, so where a batch ends.
      if (type === 'Q' || type === 'S' || type === 'H') {
        const batch = Buffer.concat(pending);
        pending = [];
        run(batch).catch(fail);
      }
    }
  });
  socket.on('error', () => undefined);
  socket.on('close', () => {
    chain = chain
      .then(async () => {
        if (release === undefined) return;
        if (db.isInTransaction()) await db._runExclusiveQuery(() => db.execProtocolRaw(simpleQuery('ROLLBACK')));
      })
      .catch(() => undefined)
      .finally(() => {
        release?.();
        release = undefined;
      });
  });
  return { idle: () => chain.catch(() => undefined) };
}

/** Takes PGlite's transaction lock (which its own query, exec and transaction take) until released. */
function holdSession(db: PGlite): Promise<() => void> {
  return new Promise((resolveHeld) => {
    void db._runExclusiveTransaction(() => new Promise<void>((releaseHeld) => resolveHeld(releaseHeld)));
  });
}

function simpleQuery(text: string): Uint8Array {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const header = Buffer.alloc(5);
  header.write('Q', 0);
  header.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([header, body]));
}
