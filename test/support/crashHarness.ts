import { Connection, type TLSConfig } from '@temporalio/client';
import { openStore, type Store } from '../../src/store/index.js';
import type { CliProcess } from './cliProcess.js';
import { createCrashFixture, type CrashFixture, type CrashFixtureOptions } from './crashFixture.js';
import { dropSchema, randomSchema } from './postgres.js';
import { startTestTemporal } from './temporalServer.js';

/** The Temporal server of a harness: the dev server by default, or a team server over TLS. */
export interface HarnessTemporal {
  address: string;
  /** What every worker adds to its environment to reach it (its TLS settings). */
  env?: NodeJS.ProcessEnv;
  /** The harness's own client connection's TLS. */
  tls?: TLSConfig;
  stop(): Promise<void>;
}

/** A crash fixture with what its tests hold open around separate `evalflow worker` processes. */
export interface CrashHarness {
  temporal: HarnessTemporal;
  fixture: CrashFixture;
  /** The store on the fixture's own PostgreSQL schema, as the workers see it. */
  store: Store;
  connection: Connection;
  /** A worker process (see `CrashFixture.startWorker`; `env` adds to its environment), killed by `close` if still running. */
  startWorker(hostId?: string, args?: string[], env?: NodeJS.ProcessEnv): Promise<CliProcess>;
  /** Kills the workers, closes the store and the fixture, stops Temporal, drops the schema. */
  close(): Promise<void>;
}

/** A Temporal server (a real dev server unless `startTemporal` gives another) and a fresh PostgreSQL schema, under a crash fixture. */
export async function startCrashHarness(options: Omit<CrashFixtureOptions, 'temporalAddress' | 'schema'>, startTemporal: () => Promise<HarnessTemporal> = startTestTemporal): Promise<CrashHarness> {
  const temporal = await startTemporal();
  const schema = randomSchema();
  const workers: CliProcess[] = [];
  const opened: { fixture?: CrashFixture; store?: Store; connection?: Connection } = {};
  async function close(): Promise<void> {
    for (const worker of workers) worker.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
    await opened.connection?.close();
    await opened.store?.close();
    await opened.fixture?.close();
    await temporal.stop();
    await dropSchema(schema);
  }
  try {
    const fixture = (opened.fixture = await createCrashFixture({ ...options, temporalAddress: temporal.address, schema }));
    const store = (opened.store = await openStore({ databaseUrl: fixture.env.DATABASE_URL!, schema }));
    const connection = (opened.connection = await Connection.connect({ address: temporal.address, ...(temporal.tls ? { tls: temporal.tls } : {}) }));
    return {
      temporal,
      fixture,
      store,
      connection,
      async startWorker(hostId, args, env) {
        const worker = await fixture.startWorker(hostId, args, { ...temporal.env, ...env });
        workers.push(worker);
        return worker;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
