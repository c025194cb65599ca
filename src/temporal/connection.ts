import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import proto from '@temporalio/proto';
import { TemporalUnreachableError } from '../errors.js';
import { allSearchAttributeKeys } from './names.js';
import { locateTemporalBinary } from './binary.js';
import { installQuietRuntime } from './runtime.js';
import { isPortOpen, startDevServer, type DevServer } from './devServer.js';
import { isUnreachable } from './unreachable.js';
import { connectionOptionsOf, type BuiltConnectionOptions } from './connectionOptions.js';
import type { TemporalSettings } from '../temporalSettings.js';
import { ConfigError } from '../errors.js';

/**
 * grpc-js backs off to two minutes between reconnects; after a long outage the client would
 * notice the server's return that late. A few seconds is cheap on one connection.
 */
const RECONNECT_BACKOFF_MAX_MS = 5_000;

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
 * with its persistent database and stops it on close (unless `startEmbedded` is false: then
 * no server running is a TemporalUnreachableError too). A server that does not answer is a
 * TemporalUnreachableError naming the address and what to do.
 */
export async function connectTemporal(settings: { temporal: TemporalSettings }, log: (line: string) => void, options: { startEmbedded?: boolean } = {}): Promise<TemporalHandle> {
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
    } else if (options.startEmbedded === false) {
      throw new TemporalUnreachableError(`Temporal is not running: nothing listens on ${address}`, address);
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
  // TLS and the API key belong to the configured cluster; a local dev server is plain TCP.
  const built: BuiltConnectionOptions = mode === 'cluster' ? connectionOptionsOf(settings.temporal.connection, address) : { address };
  let connection: Connection | undefined;
  let nativeConnection: NativeConnection | undefined;
  try {
    connection = await Connection.connect({ ...built, channelArgs: { 'grpc.max_reconnect_backoff_ms': RECONNECT_BACKOFF_MAX_MS } });
    // Only now: a native runtime that never got a connection would keep the process alive.
    installQuietRuntime();
    nativeConnection = await NativeConnection.connect(built);
    await ensureSearchAttributes(connection, namespace, log);
  } catch (err) {
    await nativeConnection?.close().catch(() => undefined);
    await connection?.close().catch(() => undefined);
    await devServer?.stop();
    if (isUnreachable(err)) throw unreachable(address, mode, settings, err);
    const refused = refusal(err, settings);
    if (refused) throw refused;
    throw err;
  }
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

function unreachable(address: string, mode: TemporalHandle['mode'], settings: { temporal: TemporalSettings }, cause: unknown): TemporalUnreachableError {
  const from = settings.temporal.connection.sources.address ?? 'TEMPORAL_ADDRESS';
  const tlsHint = settings.temporal.connection.tls ? ' (TLS is on: check the server speaks TLS and its certificate matches tls.server_ca_cert_path / tls.server_name)' : '';
  const what =
    mode === 'cluster'
      ? `Temporal at ${address} (${from}) is unreachable${tlsHint}: start that server or point ${from} at a running one (unset it to use the embedded dev server)`
      : `Temporal at ${address} is unreachable: port ${settings.temporal.port} is open but does not answer as a Temporal server; stop what listens there, or pick another port (EVALFLOW_TEMPORAL_PORT or temporal.port)`;
  return new TemporalUnreachableError(what, address, { cause });
}

/** gRPC codes a server answers when this client may not do something (not an outage). */
const PERMISSION_DENIED = 7;
const UNIMPLEMENTED = 12;
const UNAUTHENTICATED = 16;
const NOT_FOUND = 5;

const grpcCode = (err: unknown): number | undefined => (err as { code?: number }).code;

/** A wrong API key, a certificate the server refuses, a namespace that does not exist: one line saying which setting. */
function refusal(err: unknown, settings: { temporal: TemporalSettings }): ConfigError | undefined {
  const { connection, namespace } = settings.temporal;
  const code = grpcCode(err);
  const detail = ((err as Error).message ?? '').split('\n')[0] ?? '';
  if (code === UNAUTHENTICATED || code === PERMISSION_DENIED) {
    const how = connection.apiKey !== undefined ? `the API key (${connection.sources.api_key})` : connection.tls?.client_cert_path || connection.tls?.client_cert_data ? `the client certificate (${connection.sources['tls.client_cert_path'] ?? connection.sources['tls.client_cert_data']})` : 'no API key or client certificate (TEMPORAL_API_KEY, TEMPORAL_TLS_CLIENT_CERT_PATH)';
    return new ConfigError(`Temporal at ${connection.address} refused ${how} for namespace ${namespace}: ${detail}; check the key or certificate and the namespace's access`, { cause: err });
  }
  if (code === NOT_FOUND && /namespace/i.test(detail)) return new ConfigError(`namespace ${namespace} (${connection.sources.namespace ?? 'default'}) does not exist on ${connection.address}: create it or set TEMPORAL_NAMESPACE`, { cause: err });
  return undefined;
}

/** The one line a user needs when evalflow may not register its search attributes (a Cloud namespace, a restricted role). */
export function searchAttributeCommands(namespace: string, keys: readonly { name: string; type: string }[]): string {
  const cliType = (type: string) => type.charAt(0) + type.slice(1).toLowerCase();
  const local = `temporal operator search-attribute create --namespace ${namespace} ${keys.map((k) => `--name ${k.name} --type ${cliType(k.type)}`).join(' ')}`;
  const cloud = `tcld namespace search-attributes add --namespace ${namespace} ${keys.map((k) => `--search-attribute ${k.name}=${cliType(k.type)}`).join(' ')}`;
  return `evalflow may not register its search attributes on namespace ${namespace}; register them once with: ${local} (Temporal Cloud: ${cloud})`;
}

/** Registers evalflow's search attributes on clusters that lack them (the dev server gets them as flags). */
export async function ensureSearchAttributes(connection: Connection, namespace: string, log: (line: string) => void = () => undefined): Promise<void> {
  let listed;
  try {
    listed = await connection.operatorService.listSearchAttributes({ namespace });
  } catch (err) {
    const code = grpcCode(err);
    // Cannot look: runs will say so when they upsert; the line tells how to make sure.
    if (code === PERMISSION_DENIED || code === UNIMPLEMENTED) return log(searchAttributeCommands(namespace, allSearchAttributeKeys));
    throw err;
  }
  const existing = new Set(Object.keys(listed.customAttributes ?? {}));
  const missing = allSearchAttributeKeys.filter((key) => !existing.has(key.name));
  if (missing.length === 0) return;
  try {
    await addSearchAttributes(connection, namespace, missing);
  } catch (err) {
    const code = grpcCode(err);
    if (code === PERMISSION_DENIED || code === UNIMPLEMENTED || code === UNAUTHENTICATED) throw new ConfigError(searchAttributeCommands(namespace, missing), { cause: err });
    throw err;
  }
}

async function addSearchAttributes(connection: Connection, namespace: string, missing: readonly { name: string; type: string }[]): Promise<void> {
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
  // Each service of the server reads them from its own cache, refreshed every 2 s: wait until
  // the frontend lists them all, then one refresh more, so the first run's upsert is accepted.
  for (let i = 0; i < 50; i++) {
    const now = await connection.operatorService.listSearchAttributes({ namespace });
    if (missing.every((key) => key.name in (now.customAttributes ?? {}))) break;
    await sleep(200);
  }
  await sleep(SEARCH_ATTRIBUTE_CACHE_REFRESH_MS + 1_000);
}

/** How often a Temporal server's services refresh their namespace cache (its default). */
const SEARCH_ATTRIBUTE_CACHE_REFRESH_MS = 2_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
