import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTemporalBinary } from '../../src/temporal/binary.js';
import { isPortOpen, startDevServer, type DevServer } from '../../src/temporal/devServer.js';

/** A free TCP port on loopback (bound and released; good enough for tests on one machine). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface TestTemporal extends DevServer {
  port: number;
  uiPort: number;
  dbFilename: string;
}

/**
 * Our built `temporal` dev server on free ports with a throwaway SQLite file: the real
 * server, never a mock. One per test file.
 */
export async function startTestTemporal(): Promise<TestTemporal> {
  const binary = await locateTemporalBinary();
  const dir = await mkdtemp(join(tmpdir(), 'evalflow-temporal-'));
  // A free port is free when picked, not when the server binds it (and the server binds more
  // ports of its own): with many test files starting servers at once, another may take one
  // first. Such a start fails at once; it is tried again on other ports.
  let started: { server: Awaited<ReturnType<typeof startDevServer>>; port: number; uiPort: number; dbFilename: string } | undefined;
  for (let attempt = 1; !started; attempt++) {
    const port = await freePort();
    const uiPort = await freePort();
    const dbFilename = join(dir, `temporal-${attempt}.db`);
    try {
      started = { server: await startDevServer({ binary, dbFilename, port, uiPort }), port, uiPort, dbFilename };
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
  const { server, port, uiPort, dbFilename } = started;
  return {
    ...server,
    port,
    uiPort,
    dbFilename,
    async stop() {
      await killed(server);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Ends a test's server at once: its database is thrown away, so the graceful stop (2–3 s of
 * draining on 2 cores, once per test file) buys nothing.
 */
async function killed(server: DevServer): Promise<void> {
  try {
    process.kill(server.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  await server.stop();
}

export interface RestartableTemporal {
  port: number;
  uiPort: number;
  dbFilename: string;
  address: string;
  /** SIGKILL, as a crash or a lost host would; resolves once the process is gone. */
  kill(): Promise<void>;
  /** Starts the server again on the same ports and database file. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Our dev server on fixed free ports and one database file, so a test can kill it and bring it back. */
export async function startRestartableTemporal(): Promise<RestartableTemporal> {
  const binary = await locateTemporalBinary();
  const dir = await mkdtemp(join(tmpdir(), 'evalflow-temporal-'));
  const port = await freePort();
  const uiPort = await freePort();
  const dbFilename = join(dir, 'temporal.db');
  let server: DevServer | null = await startDevServer({ binary, dbFilename, port, uiPort });
  return {
    port,
    uiPort,
    dbFilename,
    address: server.address,
    async kill() {
      if (!server) return;
      const pid = server.pid;
      server = null;
      process.kill(pid, 'SIGKILL');
      while (isAlive(pid)) await new Promise((r) => setTimeout(r, 50));
    },
    async restart() {
      server ??= await startDevServer({ binary, dbFilename, port, uiPort });
    },
    async stop() {
      if (server) await killed(server);
      server = null;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A frontend port whose neighbours the server's other services take (−300…+10) are free too, below 32768 (Temporal's membership table). */
export async function freeTeamPorts(): Promise<{ port: number; uiPort: number }> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const needed = [port, port + 1, port + 2, port + 6, port + 10, port + 11, port - 300, port - 299, port - 298, port - 294];
    const taken = await Promise.all(needed.map((p) => isPortOpen('127.0.0.1', p)));
    if (!taken.some(Boolean)) return { port, uiPort: await freePort() };
  }
}
