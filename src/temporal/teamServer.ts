import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { execa } from 'execa';
import { stringify } from 'yaml';
import { ConfigError } from '../errors.js';
import { packageRoot } from '../packageRoot.js';
import { ensureSearchAttributes } from './connection.js';
import { isPortOpen, stopChild, waitUntilHealthy } from './devServer.js';
import { prepareTeamSchemas, type TeamDatabase } from './teamSchema.js';

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
  /** Frontend gRPC port; the server's other services take the ports beside it (+1, +2, +6, −300…, +10). */
  port: number;
  uiPort: number;
  namespace: string;
  say: (line: string) => void;
  /** Days closed workflows stay in the history (the store keeps results forever anyway). */
  retentionDays?: number;
}

export interface TeamServer {
  address: string;
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
  const { port, uiPort } = options;
  const ports = [port, port + 1, port + 2, port + 6, port - 300, port - 299, port - 298, port - 294, port + 10, uiPort];
  // Temporal keeps membership ports in a smallint column.
  if (port - 300 < 1024 || port + 10 > 32_767) throw new ConfigError(`team mode: port ${port} leaves the server's other ports (${port - 300}…${port + 10}) outside 1024…32767; pick another (EVALFLOW_TEMPORAL_PORT)`);
  for (const p of ports) {
    if (await isPortOpen('127.0.0.1', p)) throw new ConfigError(`port 127.0.0.1:${p} is in use; the team server needs ${port}, the ports beside it and ${uiPort}: stop what listens there, or pick another port (EVALFLOW_TEMPORAL_PORT)`);
  }
  await prepareTeamSchemas(options.database, options.binaries, options.say);
  await writeConfigs(options);
  const address = `127.0.0.1:${port}`;
  let server = await startProcess(options.binaries.server, ['--root', options.dir, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'], options.dir, join(options.dir, 'server.log'));
  await healthy(address, server, 'the Temporal server', join(options.dir, 'server.log'));
  await registerNamespace(address, options.namespace, options.retentionDays ?? 30);
  const ui = await startProcess(options.binaries.ui, ['--root', join(options.dir, 'ui'), '--env', 'development', 'start'], options.dir, join(options.dir, 'ui.log'));
  await waitForHttp(`http://127.0.0.1:${uiPort}/`, ui.child);
  return {
    address,
    uiUrl: `http://127.0.0.1:${uiPort}`,
    namespace: options.namespace,
    get pid() {
      return server.child.pid!;
    },
    async restart() {
      if (server.child.exitCode === null && server.child.signalCode === null) return;
      server = await startProcess(options.binaries.server, ['--root', options.dir, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'], options.dir, join(options.dir, 'server.log'));
      await healthy(address, server, 'the Temporal server', join(options.dir, 'server.log'));
    },
    async stop() {
      await stopChild(ui.child, ui.exited);
      await stopChild(server.child, server.exited);
    },
  };
}

async function writeConfigs(options: TeamServerOptions): Promise<void> {
  const { database: db, port, uiPort } = options;
  const store = (name: string, maxConns: number) => ({
    sql: { pluginName: 'postgres12', databaseName: name, connectAddr: `${db.host}:${db.port}`, connectProtocol: 'tcp', user: db.user, password: db.password, maxConns, maxIdleConns: maxConns, maxConnLifetime: '1h' },
  });
  const service = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({ rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra } });
  const config = {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: 4,
      datastores: { 'postgres-default': store(db.database, 20), 'postgres-visibility': store(db.visibility, 4) },
    },
    global: { membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' } },
    services: {
      frontend: service(port, port - 300, { httpPort: port + 10 }),
      history: service(port + 1, port - 299),
      matching: service(port + 2, port - 298),
      worker: service(port + 6, port - 294),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${port}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: join(options.dir, 'config', 'dynamicconfig.yaml'), pollInterval: '10s' },
  };
  await mkdir(join(options.dir, 'config'), { recursive: true });
  await mkdir(join(options.dir, 'ui', 'config'), { recursive: true });
  await writeFile(join(options.dir, 'config', 'development.yaml'), stringify(config));
  // The same dynamic config as docker-compose.yml's server.
  await copyFile(DYNAMIC_CONFIG, join(options.dir, 'config', 'dynamicconfig.yaml'));
  await writeFile(join(options.dir, 'ui', 'config', 'development.yaml'), stringify({ temporalGrpcAddress: `127.0.0.1:${port}`, host: '127.0.0.1', port: uiPort, enableUi: true, defaultNamespace: options.namespace, cors: { allowOrigins: [`http://127.0.0.1:${uiPort}`] } }));
}

interface Process {
  child: ChildProcess;
  exited: Promise<number | null>;
}

async function startProcess(binary: string, args: string[], cwd: string, logFile: string): Promise<Process> {
  const log = openSync(logFile, 'a');
  const child = spawn(binary, args, { cwd, stdio: ['ignore', log, log] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

async function healthy(address: string, server: Process, what: string, logFile: string): Promise<void> {
  try {
    await waitUntilHealthy(address, server.child, server.exited, 90_000);
  } catch (err) {
    server.child.kill('SIGKILL');
    const tail = (await execa('tail', ['-n', '2', logFile], { reject: false })).stdout.split('\n').map((l) => l.slice(0, 400)).join('\n');
    throw new ConfigError(`${what} did not start: ${(err as Error).message} (log: ${logFile})\n${tail}`);
  }
}

/** The namespace and evalflow's search attributes; both are kept when they exist already. */
async function registerNamespace(address: string, namespace: string, retentionDays: number): Promise<void> {
  const connection = await Connection.connect({ address });
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
