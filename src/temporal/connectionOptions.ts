import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import { ConfigError } from '../errors.js';
import type { TemporalConnection } from '../temporalSettings.js';

/** What both Connection.connect (client) and NativeConnection.connect (worker) take. */
export interface BuiltConnectionOptions {
  address: string;
  /** false: plain TCP even with an API key (TEMPORAL_TLS=false). */
  tls?: TLSConfig | false;
  /** The SDK sends it as `authorization: Bearer <key>` on every call. */
  apiKey?: string;
}

/**
 * The options for one address: TLS material read from its files now, so an unreadable
 * certificate is one line naming the setting, never a handshake error later.
 */
export function connectionOptionsOf(connection: TemporalConnection, address: string): BuiltConnectionOptions {
  const options: BuiltConnectionOptions = { address };
  if (connection.apiKey !== undefined) options.apiKey = connection.apiKey;
  const tls = connection.tls;
  if (!tls) {
    // The SDK turns TLS on for an API key unless told not to.
    if (connection.apiKey !== undefined) options.tls = false;
    return options;
  }
  const material = (what: 'server_ca_cert' | 'client_cert' | 'client_key'): Buffer | undefined => {
    const data = tls[`${what}_data`];
    if (data !== undefined) return Buffer.from(data);
    const path = tls[`${what}_path`];
    if (path === undefined) return undefined;
    try {
      return readFileSync(path);
    } catch (err) {
      const setting = connection.sources[`tls.${what}_path`] ?? `tls.${what}_path`;
      throw new ConfigError(`${setting}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); point it at a readable PEM file`);
    }
  };
  const serverRootCACertificate = material('server_ca_cert');
  const crt = material('client_cert');
  const key = material('client_key');
  if ((crt === undefined) !== (key === undefined)) {
    const [have, lack] = crt ? ['client_cert', 'client_key'] : ['client_key', 'client_cert'];
    throw new ConfigError(`${connection.sources[`tls.${have}_path`] ?? connection.sources[`tls.${have}_data`]} is set but no tls.${lack}: mTLS needs both the client certificate and its key`);
  }
  const built: TLSConfig = {};
  if (serverRootCACertificate) built.serverRootCACertificate = serverRootCACertificate;
  if (crt && key) built.clientCertPair = { crt, key };
  if (tls.server_name) built.serverNameOverride = tls.server_name;
  options.tls = built;
  return options;
}
