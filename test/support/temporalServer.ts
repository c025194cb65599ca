import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { locateTemporalBinary } from '../../src/temporal/binary.js';
import { startDevServer, type DevServer } from '../../src/temporal/devServer.js';

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
  const port = await freePort();
  const uiPort = await freePort();
  const dbFilename = join(dir, 'temporal.db');
  const server = await startDevServer({ binary, dbFilename, port, uiPort });
  return {
    ...server,
    port,
    uiPort,
    dbFilename,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
