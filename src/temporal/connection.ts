import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import proto from '@temporalio/proto';
import type { Settings } from '../config.js';
import { allSearchAttributeKeys } from './names.js';
import { locateTemporalBinary } from './binary.js';
import { installQuietRuntime } from './runtime.js';
import { isPortOpen, startDevServer, type DevServer } from './devServer.js';

export interface TemporalHandle {
  address: string;
  namespace: string;
  /** Web UI base URL when known (embedded or local dev server). */
  uiUrl: string | undefined;
  /** How we got here: an existing cluster, a dev server already running, or one we started. */
  mode: 'cluster' | 'local' | 'embedded';
  client: Client;
  nativeConnection: NativeConnection;
  close(): Promise<void>;
}

/**
 * Connects to Temporal: TEMPORAL_ADDRESS when set (a team cluster), else a dev server already
 * listening on the configured port (`evalflow server`), else starts the embedded dev server
 * with its persistent database and stops it on close.
 */
export async function connectTemporal(settings: Settings, log: (line: string) => void): Promise<TemporalHandle> {
  const { namespace } = settings.temporal;
  let address = settings.temporal.address;
  let devServer: DevServer | null = null;
  let mode: TemporalHandle['mode'] = 'cluster';
  let uiUrl: string | undefined;
  if (!address) {
    address = `127.0.0.1:${settings.temporal.port}`;
    uiUrl = `http://127.0.0.1:${settings.temporal.uiPort}`;
    if (await isPortOpen('127.0.0.1', settings.temporal.port)) {
      mode = 'local';
    } else {
      mode = 'embedded';
      const binary = await locateTemporalBinary({ onProgress: log });
      log(`starting the Temporal dev server (${settings.temporal.dbFilename})`);
      devServer = await startDevServer({
        binary,
        dbFilename: settings.temporal.dbFilename,
        port: settings.temporal.port,
        uiPort: settings.temporal.uiPort,
        namespace,
      });
    }
  }
  installQuietRuntime();
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  await ensureSearchAttributes(connection, namespace);
  return {
    address,
    namespace,
    uiUrl,
    mode,
    client: new Client({ connection, namespace }),
    nativeConnection,
    async close() {
      await nativeConnection.close();
      await connection.close();
      await devServer?.stop();
    },
  };
}

/** Registers evalflow's search attributes on clusters that lack them (the dev server gets them as flags). */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<void> {
  const listed = await connection.operatorService.listSearchAttributes({ namespace });
  const existing = new Set(Object.keys(listed.customAttributes ?? {}));
  const missing = allSearchAttributeKeys.filter((key) => !existing.has(key.name));
  if (missing.length === 0) return;
  const { IndexedValueType } = proto.temporal.api.enums.v1;
  const types: Record<string, proto.temporal.api.enums.v1.IndexedValueType> = {
    KEYWORD: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
    DOUBLE: IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
    TEXT: IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
    INT: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  };
  await connection.operatorService.addSearchAttributes({
    namespace,
    searchAttributes: Object.fromEntries(missing.map((key) => [key.name, types[key.type]!])),
  });
}
