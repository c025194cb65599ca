import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Connection, type TLSConfig } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { execa } from 'execa';
import { stringify } from 'yaml';
import { ConfigError } from '../errors.js';
import { packageRoot } from '../packageRoot.js';
import { ensureSearchAttributes } from './connection.js';
import { isPortOpen, stopChild, waitUntilHealthy } from './devServer.js';
import { prepareTeamSchemas, type TeamDatabase } from './teamSchema.js';
import { advertisedAddress, isWildcard, teamPortsOf, type TeamPorts } from './teamPorts.js';
import { localClientTls, serverTlsSection, uiTlsSection, type TeamTls } from './teamTls.js';

/** The server reads the database password from here (its config is a template), never from a file. */
const PASSWORD_ENV = 'EVALFLOW_TEAM_DB_PASSWORD';

/** scripts/team-binaries.sh: the one implementation of "find or build the team server's binaries". */
const SCRIPT = join(packageRoot(), 'scripts/team-binaries.sh');
const DYNAMIC_CONFIG = join(packageRoot(), 'deploy/compose/dynamicconfig/evalflow.yaml');

export interface TeamBinaries {
  server: string;
  sql: string;
  ui: string;
  schemaDir: string;
}

/** The server, its SQL tool and the UI server, built with Go into the cache the first time (progress to `say`). */
export async function locateTeamBinaries(say: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<TeamBinaries> {
  const child = execa('bash', [SCRIPT], { env, extendEnv: false, reject: false });
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) say(line);
  });
  const result = await child;
  const [server, sql, ui, schemaDir] = String(result.stdout).trim().split('\n');
  if (result.exitCode !== 0 || !schemaDir) throw new ConfigError(String(result.stderr).trim().split('\n').pop() ?? 'could not build the team server');
  return { server: server!, sql: sql!, ui: ui!, schemaDir };
}

export interface TeamServerOptions {
  binaries: TeamBinaries;
  database: TeamDatabase;
  /** Config files and logs go here. */
  dir: string;
  /** Frontend gRPC port; the server's other services take the ports beside it (+1, +2, +6, −300…, +10, +11) unless `ports` places them. */
  port: number;
  uiPort: number;
  ports?: Partial<TeamPorts>;
  /** The address every service binds (default 127.0.0.1: this machine only). */
  bind?: string;
  namespace: string;
  /** Checked certificate files (resolveTeamTls): the frontend and every service inside speak TLS. */
  tls?: TeamTls | undefined;
  say: (line: string) => void;
  /** Days closed workflows stay in the history (the store keeps results forever anyway). */
  retentionDays?: number;
}

export interface TeamServer {
  address: string;
  ports: TeamPorts;
  uiUrl: string;
  namespace: string;
  /** The Temporal server process (tests kill it with SIGKILL). */
  pid: number;
  /** Starts the Temporal server again after it died (same configs and data). */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Team mode without Docker: Temporal's own server on PostgreSQL and the Web UI server,
 * prepared (schemas, configs), started, waited for, given the namespace and evalflow's
 * search attributes. Workers and CLIs anywhere reach it through TEMPORAL_ADDRESS.
 */
export async function startTeamServer(options: TeamServerOptions): Promise<TeamServer> {
  const ports = teamPortsOf(options.port, options.uiPort, options.ports);
  const bind = options.bind ?? '127.0.0.1';
  const local = isWildcard(bind) ? '127.0.0.1' : bind;
  for (const [name, p] of Object.entries(ports)) {
    if (await isPortOpen(local, p)) throw new ConfigError(`port ${local}:${p} (${name}) is in use: stop what listens there, or place it elsewhere (--ports ${name}=PORT, or another frontend port: EVALFLOW_TEMPORAL_PORT)`);
  }
  await prepareTeamSchemas(options.database, options.binaries, options.say);
  await writeConfigs(options, ports, bind);
  const address = `${local}:${ports.frontend}`;
  const serverEnv = { ...process.env, [PASSWORD_ENV]: options.database.password };
  const startServer = () => startProcess(options.binaries.server, ['--root', options.dir, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'], options.dir, join(options.dir, 'server.log'), serverEnv);
  let server = await startServer();
  const tls = options.tls ? localClientTls(options.tls) : undefined;
  await healthy(address, server, 'the Temporal server', join(options.dir, 'server.log'), tls);
  await registerNamespace(address, tls, options.namespace, options.retentionDays ?? 30);
  const ui = await startProcess(options.binaries.ui, ['--root', join(options.dir, 'ui'), '--env', 'development', 'start'], options.dir, join(options.dir, 'ui.log'));
  const uiHost = uiHostOf(bind, options.tls);
  await waitForHttp(`http://${uiHost}:${ports.ui}/`, ui.child);
  return {
    address,
    ports,
    uiUrl: `http://${uiHost}:${ports.ui}`,
    namespace: options.namespace,
    get pid() {
      return server.child.pid!;
    },
    async restart() {
      if (server.child.exitCode === null && server.child.signalCode === null) return;
      server = await startServer();
      await healthy(address, server, 'the Temporal server', join(options.dir, 'server.log'), tls);
    },
    async stop() {
      await stopChild(ui.child, ui.exited);
      await stopChild(server.child, server.exited);
    },
  };
}

/**
 * With TLS the UI stays on this machine: it serves plain HTTP and acts on the server with the
 * server's own certificate, so reaching it from elsewhere would bypass the TLS of the frontend.
 */
const uiHostOf = (bind: string, tls: TeamTls | undefined) => (tls || isWildcard(bind) ? '127.0.0.1' : bind);

async function writeConfigs(options: TeamServerOptions, ports: TeamPorts, bind: string): Promise<void> {
  const { database: db } = options;
  const advertised = advertisedAddress(bind);
  const store = (name: string, maxConns: number) => ({
    sql: { pluginName: 'postgres12', databaseName: name, connectAddr: `${db.host}:${db.port}`, connectProtocol: 'tcp', user: db.user, password: PASSWORD_PLACEHOLDER, maxConns, maxIdleConns: maxConns, maxConnLifetime: '1h' },
  });
  const service = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({ rpc: { grpcPort, membershipPort, bindOnIP: bind, ...extra } });
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: 4,
      datastores: { 'postgres-default': store(db.database, 20), 'postgres-visibility': store(db.visibility, 4) },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: advertised },
      metrics: { prometheus: { framework: 'tally', listenAddress: `${bind}:${ports.metrics}` } },
      ...(options.tls ? { tls: serverTlsSection(options.tls) } : {}),
    },
    services: {
      frontend: service(ports.frontend, ports.frontend_membership, { httpPort: ports.http }),
      history: service(ports.history, ports.history_membership),
      matching: service(ports.matching, ports.matching_membership),
      worker: service(ports.worker, ports.worker_membership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `${advertised}:${ports.frontend}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: join(options.dir, 'config', 'dynamicconfig.yaml'), pollInterval: '10s' },
  };
  await mkdir(join(options.dir, 'config'), { recursive: true });
  await mkdir(join(options.dir, 'ui', 'config'), { recursive: true });
  // `# enable-template`: the server renders the file as a Go template, so the password comes from its environment.
  await writeFile(join(options.dir, 'config', 'development.yaml'), `# enable-template\n${stringify(config).replaceAll(PASSWORD_PLACEHOLDER, `{{ env "${PASSWORD_ENV}" }}`)}`, { mode: 0o600 });
  // The same dynamic config as docker-compose.yml's server.
  await copyFile(DYNAMIC_CONFIG, join(options.dir, 'config', 'dynamicconfig.yaml'));
  const ui = {
    temporalGrpcAddress: `${isWildcard(bind) ? '127.0.0.1' : bind}:${ports.frontend}`,
    host: options.tls ? '127.0.0.1' : bind,
    port: ports.ui,
    enableUi: true,
    defaultNamespace: options.namespace,
    cors: { allowOrigins: [`http://${advertised}:${ports.ui}`, `http://127.0.0.1:${ports.ui}`] },
    ...(options.tls ? { tls: uiTlsSection(options.tls) } : {}),
  };
  await writeFile(join(options.dir, 'ui', 'config', 'development.yaml'), stringify(ui));
}

interface Process {
  child: ChildProcess;
  exited: Promise<number | null>;
}

const PASSWORD_PLACEHOLDER = '__EVALFLOW_DB_PASSWORD__';

async function startProcess(binary: string, args: string[], cwd: string, logFile: string, env: NodeJS.ProcessEnv = process.env): Promise<Process> {
  const log = openSync(logFile, 'a');
  const child = spawn(binary, args, { cwd, env, stdio: ['ignore', log, log] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

async function healthy(address: string, server: Process, what: string, logFile: string, tls: TLSConfig | undefined): Promise<void> {
  try {
    await waitUntilHealthy(address, server.child, server.exited, 90_000, tls);
  } catch (err) {
    server.child.kill('SIGKILL');
    const tail = (await execa('tail', ['-n', '2', logFile], { reject: false })).stdout.split('\n').map((l) => l.slice(0, 400)).join('\n');
    throw new ConfigError(`${what} did not start: ${(err as Error).message} (log: ${logFile})\n${tail}`);
  }
}

/** The namespace and evalflow's search attributes; both are kept when they exist already. */
async function registerNamespace(address: string, tls: TLSConfig | undefined, namespace: string, retentionDays: number): Promise<void> {
  const connection = await Connection.connect({ address, ...(tls ? { tls } : {}) });
  try {
    try {
      await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(retentionDays * 86_400_000) });
    } catch (err) {
      if ((err as { code?: number }).code !== 6) throw err; // ALREADY_EXISTS
    }
    // A namespace just registered takes a moment to be served.
    for (let i = 0; ; i++) {
      try {
        await ensureSearchAttributes(connection, namespace);
        return;
      } catch (err) {
        if (i >= 50) throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  } finally {
    await connection.close();
  }
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null) throw new ConfigError(`the Temporal Web UI server exited with code ${child.exitCode}`);
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new ConfigError(`the Temporal Web UI server did not answer on ${url}`);
}
