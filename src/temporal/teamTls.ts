import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import { UsageError } from '../errors.js';

/** `evalflow server --tls-cert --tls-key [--tls-ca] [--tls-client-ca]`: PEM files. */
export interface TeamTlsFiles {
  /** The server's certificate (its chain may follow it in the file). */
  cert: string;
  key: string;
  /** The CA that signed `cert`, which clients trust; absent: the system's CAs (a public CA). */
  ca?: string | undefined;
  /** Given: mutual TLS, only clients with a certificate signed by this CA get in. */
  clientCa?: string | undefined;
}

/** The files, checked, and the name clients verify the certificate against. */
export interface TeamTls extends TeamTlsFiles {
  serverName: string;
}

const flagOf = { cert: '--tls-cert', key: '--tls-key', ca: '--tls-ca', clientCa: '--tls-client-ca' } as const;

function read(what: keyof TeamTlsFiles, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new UsageError(`${flagOf[what]} ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give a readable PEM file`);
  }
}

function certificate(what: 'cert' | 'ca' | 'clientCa', path: string): X509Certificate {
  try {
    return new X509Certificate(read(what, path));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${flagOf[what]} ${path}: not a PEM certificate (expected -----BEGIN CERTIFICATE-----)`);
  }
}

/**
 * Checks the files now (readable, PEM, the key belongs to the certificate, the certificate names
 * a host), so a mistake is one line naming the flag rather than a server that dies in its log.
 */
export function resolveTeamTls(files: TeamTlsFiles): TeamTls {
  const cert = certificate('cert', files.cert);
  let key;
  try {
    key = createPrivateKey(read('key', files.key));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${flagOf.key} ${files.key}: not a PEM private key (an encrypted key cannot be used: the server starts unattended)`);
  }
  if (!cert.checkPrivateKey(key)) throw new UsageError(`${flagOf.key} ${files.key}: not the key of ${flagOf.cert} ${files.cert}; give the key the certificate was made from`);
  if (files.ca) certificate('ca', files.ca);
  if (files.clientCa) certificate('clientCa', files.clientCa);
  const serverName = nameOf(cert);
  if (!serverName) throw new UsageError(`${flagOf.cert} ${files.cert}: the certificate names no host (no subjectAltName DNS or IP entry), so no client can verify it; make it with the names clients use (docs/scale-out.md)`);
  return { ...files, serverName };
}

/** The first DNS name, else the first IP address, of the certificate's subjectAltName. */
function nameOf(cert: X509Certificate): string | undefined {
  const entries = (cert.subjectAltName ?? '').split(',').map((e) => e.trim());
  const dns = entries.find((e) => e.startsWith('DNS:'));
  if (dns) return dns.slice(4);
  const ip = entries.find((e) => e.startsWith('IP Address:'));
  return ip?.slice('IP Address:'.length);
}

/**
 * The server config's `global.tls`. Clients reach the frontend (gRPC and HTTP) with the given
 * certificate; the services inside the server speak to each other over mutual TLS too, trusting
 * the server's own certificate only (Go accepts a leaf in its pool), so a port other than the
 * frontend's lets nobody in. The system worker and the UI present the server's certificate when
 * clients must have one, hence it is trusted as a client as well.
 */
export function serverTlsSection(tls: TeamTls): Record<string, unknown> {
  const roots = tls.ca ? { rootCaFiles: [tls.ca] } : { forceTLS: true };
  const client = { serverName: tls.serverName, ...roots };
  return {
    internode: {
      server: { certFile: tls.cert, keyFile: tls.key, requireClientAuth: true, clientCaFiles: [tls.cert] },
      client,
    },
    frontend: {
      server: { certFile: tls.cert, keyFile: tls.key, requireClientAuth: tls.clientCa !== undefined, ...(tls.clientCa ? { clientCaFiles: [tls.clientCa, tls.cert] } : {}) },
      client,
    },
    systemWorker: { certFile: tls.cert, keyFile: tls.key, client },
  };
}

/** The Web UI server's `tls`: how it reaches the frontend (it serves plain HTTP itself). */
export function uiTlsSection(tls: TeamTls): Record<string, unknown> {
  return {
    ...(tls.ca ? { caFile: tls.ca } : {}),
    ...(tls.clientCa ? { certFile: tls.cert, keyFile: tls.key } : {}),
    serverName: tls.serverName,
    enableHostVerification: true,
  };
}

/** How a client on this machine reaches the frontend: evalflow's own start-up calls and `--worker`. */
export function localClientTls(tls: TeamTls): TLSConfig {
  const config: TLSConfig = { serverNameOverride: tls.serverName };
  if (tls.ca) config.serverRootCACertificate = readFileSync(tls.ca);
  if (tls.clientCa) config.clientCertPair = { crt: readFileSync(tls.cert), key: readFileSync(tls.key) };
  return config;
}

/** The settings a client elsewhere needs, as the `TEMPORAL_TLS_*` variables every Temporal client reads. */
export function clientTlsEnv(tls: TeamTls): string {
  const parts = [...(tls.ca ? [`TEMPORAL_TLS_SERVER_CA_CERT_PATH=${tls.ca}`] : ['TEMPORAL_TLS=true']), `TEMPORAL_TLS_SERVER_NAME=${tls.serverName}`];
  if (tls.clientCa) parts.push('TEMPORAL_TLS_CLIENT_CERT_PATH=<its certificate> TEMPORAL_TLS_CLIENT_KEY_PATH=<its key>');
  return parts.join(' ');
}
