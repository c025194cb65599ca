import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSConfig } from '@temporalio/client';
import { startCli, type CliProcess } from './cliProcess.js';
import { postgresUrl, rawPostgres } from './postgres.js';
import { freeTeamPorts } from './temporalServer.js';
import { throwawayCa } from './throwawayCa.js';

/** The name the server's certificate is issued for (and 127.0.0.1). */
const SERVER_NAME = 'temporal.test';

export interface TlsTeamServer {
  address: string;
  /** What a worker or CLI adds to its environment to reach it over TLS. */
  env: NodeJS.ProcessEnv;
  /** The same, for a client connection made in the test. */
  tls: TLSConfig;
  process: CliProcess;
  /** Ctrl-C, then drops its databases and folder. */
  stop(): Promise<void>;
}

/**
 * `evalflow server --persistence postgres` over TLS, as docs/scale-out.md sets it up: a
 * throwaway CA signs the server's certificate; its history goes to two fresh databases on the
 * test PostgreSQL. Needs the provisioned team binaries.
 */
export async function startTlsTeamServer(): Promise<TlsTeamServer> {
  const dir = await mkdtemp(join(tmpdir(), 'evalflow-tls-team-'));
  const database = `evalflow_team_${randomBytes(4).toString('hex')}`;
  let server: CliProcess | undefined;
  const stop = async () => {
    if (server && server.exitSignal === null && server.child.exitCode === null) {
      server.kill('SIGINT');
      await server.exited;
    }
    for (const name of [database, `${database}_visibility`]) await rawPostgres(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ca = await throwawayCa(dir);
    await ca.issue('server', [`DNS:${SERVER_NAME}`, 'IP:127.0.0.1']);
    const { port, uiPort } = await freeTeamPorts();
    const url = new URL(await postgresUrl());
    url.pathname = `/${database}`;
    // The real HOME: the provisioned binaries live in its cache.
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, EVALFLOW_HOME: join(dir, 'state'), EVALFLOW_TEMPORAL_PORT: String(port), EVALFLOW_TEMPORAL_UI_PORT: String(uiPort) };
    server = startCli(['server', '--persistence', 'postgres', '--database-url', url.toString(), '--tls-cert', 'server.pem', '--tls-key', 'server.key', '--tls-ca', 'ca.pem'], { cwd: dir, env });
    await server.waitForLine(/Ctrl-C stops it/, 240_000);
    return {
      address: `127.0.0.1:${port}`,
      env: { TEMPORAL_TLS_SERVER_CA_CERT_PATH: ca.ca, TEMPORAL_TLS_SERVER_NAME: SERVER_NAME },
      tls: { serverRootCACertificate: await readFile(ca.ca), serverNameOverride: SERVER_NAME },
      process: server,
      stop,
    };
  } catch (err) {
    server?.kill('SIGKILL');
    await stop();
    throw err;
  }
}
