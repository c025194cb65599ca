import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { locateTemporalBinary } from '../../src/temporal/binary.js';
import { isPortOpen, startDevServer } from '../../src/temporal/devServer.js';
import { allSearchAttributeKeys } from '../../src/temporal/names.js';
import { freePort, startTestTemporal, type TestTemporal } from '../support/temporalServer.js';

async function listenOn(port: number): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

const closeServer = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('startDevServer: before starting', () => {
  it.each(['port', 'uiPort'] as const)('refuses a %s already in use, naming it', async (which) => {
    const ports = { port: await freePort(), uiPort: await freePort() };
    const busy = await listenOn(ports[which]);
    try {
      const dbFilename = join(await mkdtemp(join(tmpdir(), 'evalflow-temporal-')), 'temporal.db');
      // The binary is never run: the port check comes first.
      const err = await startDevServer({ binary: '/nonexistent/temporal', dbFilename, ...ports }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toBe(
        `port 127.0.0.1:${ports[which]} is already in use; stop the process using it, pass other ports, or point TEMPORAL_ADDRESS at the running server`,
      );
    } finally {
      await closeServer(busy);
    }
  });

  it('reports a server that exits at once as a ConfigError with its exit code', async () => {
    const dbFilename = join(await mkdtemp(join(tmpdir(), 'evalflow-temporal-')), 'temporal.db');
    const err = await startDevServer({ binary: '/bin/false', dbFilename, port: await freePort(), uiPort: await freePort(), readyTimeoutMs: 10_000 }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/^the Temporal dev server did not start: the server exited with code 1/);
  });

  it('isPortOpen tells a listening port from a closed one', async () => {
    const port = await freePort();
    expect(await isPortOpen('127.0.0.1', port)).toBe(false);
    const server = await listenOn(port);
    try {
      expect(await isPortOpen('127.0.0.1', port)).toBe(true);
    } finally {
      await closeServer(server);
    }
  });
});

describe('startDevServer: the real dev server', () => {
  let server: TestTemporal;
  beforeAll(async () => {
    server = await startTestTemporal();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers on the address it reports, with the Web UI on its port', async () => {
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    expect(server.uiUrl).toBe(`http://127.0.0.1:${server.uiPort}`);
    expect(await isPortOpen('127.0.0.1', server.uiPort)).toBe(true);
  });

  it('registers our search attributes with their types (Keyword, Double)', async () => {
    const connection = await Connection.connect({ address: server.address });
    try {
      const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: server.namespace });
      const types = temporal.api.enums.v1.IndexedValueType;
      expect(customAttributes?.EvalCase).toBe(types.INDEXED_VALUE_TYPE_KEYWORD);
      expect(customAttributes?.EvalOverall).toBe(types.INDEXED_VALUE_TYPE_DOUBLE);
      expect(customAttributes?.EvalArm).toBe(types.INDEXED_VALUE_TYPE_KEYWORD);
      for (const key of allSearchAttributeKeys) {
        const expected = key.type === 'DOUBLE' ? types.INDEXED_VALUE_TYPE_DOUBLE : types.INDEXED_VALUE_TYPE_KEYWORD;
        expect(customAttributes?.[key.name], key.name).toBe(expected);
      }
    } finally {
      await connection.close();
    }
  });

  it('stops, freeing its port', async () => {
    const extra = await startDevServer({
      binary: await locateTemporalBinary(),
      dbFilename: join(await mkdtemp(join(tmpdir(), 'evalflow-temporal-')), 'temporal.db'),
      port: await freePort(),
      uiPort: await freePort(),
    });
    const [, port] = extra.address.split(':');
    expect(await isPortOpen('127.0.0.1', Number(port))).toBe(true);
    await extra.stop();
    expect(await isPortOpen('127.0.0.1', Number(port))).toBe(false);
    await extra.stop();
  });
});
