import { dirname, join } from 'node:path';
import { loadSettings, type Settings } from '../config.js';
import { ConfigError } from '../errors.js';
import { locateTemporalBinary } from '../temporal/binary.js';
import { startDevServer } from '../temporal/devServer.js';
import { teamDatabaseOf } from '../temporal/teamSchema.js';
import { locateTeamBinaries, startTeamServer } from '../temporal/teamServer.js';
import { advertisedAddress, describeTeamPorts, isLoopback, parsePortsFlag } from '../temporal/teamPorts.js';
import type { CommandIo } from '../cli/io.js';
import type { EvalRuntime } from '../cli/runtime.js';

export interface ServerOptions {
  config?: string;
  /** `sqlite` (default): the dev server; `postgres`: Temporal's own server on PostgreSQL (team mode). */
  persistence?: 'sqlite' | 'postgres';
  databaseUrl?: string;
  /** The address every service binds (default 127.0.0.1); 0.0.0.0 for all interfaces. */
  bind?: string;
  /** `--ports history=7234,metrics=9090`: team-mode ports placed by hand. */
  ports?: string;
  /** Also run a worker in this process (schedules fire only while one runs). */
  worker?: boolean;
}

const DEFAULT_TEAM_DATABASE = 'postgres://postgres@127.0.0.1:5432/temporal';

/**
 * `evalflow server`: Temporal with its Web UI in the foreground until Ctrl-C: the dev server
 * on SQLite, or with `--persistence postgres` the full server with its history in PostgreSQL;
 * with `--worker`, a worker too.
 */
export async function run(options: ServerOptions, io: CommandIo): Promise<number> {
  const settings = await loadSettings(io.cwd, io.env, options.config ? { configPath: options.config } : {});
  if (settings.temporal.address) throw new ConfigError(`TEMPORAL_ADDRESS is set (${settings.temporal.address}): that server runs already; unset it to run one here`);
  const say = (line: string) => io.err(line);
  const bind = options.bind ?? '127.0.0.1';
  if (options.ports && options.persistence !== 'postgres') throw new ConfigError('--ports places the team server\'s ports: use it with --persistence postgres (the dev server takes EVALFLOW_TEMPORAL_PORT and EVALFLOW_TEMPORAL_UI_PORT)');
  const given = options.ports ? parsePortsFlag(options.ports) : {};
  let server: { address: string; uiUrl: string; stop(): Promise<void> };
  if (options.persistence === 'postgres') {
    const database = teamDatabaseOf(options.databaseUrl ?? io.env.EVALFLOW_TEMPORAL_DATABASE_URL ?? DEFAULT_TEAM_DATABASE);
    const binaries = await locateTeamBinaries(say, io.env);
    const team = await startTeamServer({ binaries, database, dir: join(dirname(settings.temporal.dbFilename), 'team-server'), port: settings.temporal.port, uiPort: settings.temporal.uiPort, ports: given, bind, namespace: settings.temporal.namespace, say });
    server = team;
    io.out(`Temporal server on ${server.address} (namespace ${settings.temporal.namespace}), history in PostgreSQL ${database.host}:${database.port} databases ${database.database} and ${database.visibility}`);
    for (const line of describeTeamPorts(bind, team.ports)) io.out(line);
  } else {
    const binary = await locateTemporalBinary({ onProgress: say });
    server = await startDevServer({ binary, dbFilename: settings.temporal.dbFilename, port: settings.temporal.port, uiPort: settings.temporal.uiPort, ip: bind, namespace: settings.temporal.namespace, onLog: say });
    io.out(`Temporal dev server on ${server.address} (namespace ${settings.temporal.namespace}), history in ${settings.temporal.dbFilename}`);
  }
  if (isLoopback(bind)) {
    io.out(`reachable from this machine only (--bind ${bind}); --bind 0.0.0.0 or this host's address lets workers on other machines in`);
  } else {
    io.out(`workers and CLIs on other machines: TEMPORAL_ADDRESS=${advertisedAddress(bind)}:${settings.temporal.port}`);
    // Reaching Temporal means running commands on every worker (a batch carries them).
    io.err(`warning: bound to ${bind} without TLS or authentication: anyone who reaches port ${settings.temporal.port} can run commands on your workers; keep it on a private network (docs/scale-out.md)`);
  }
  io.out(`Web UI: ${server.uiUrl}`);
  let runtime: EvalRuntime | null = null;
  try {
    if (options.worker) {
      const served: Settings = { ...settings, temporal: { ...settings.temporal, address: server.address } };
      // Loaded only here: the worker's native engine has no business in a server-only process.
      const { openRuntime } = await import('../cli/runtime.js');
      runtime = await openRuntime(served, io, { worker: true });
      io.out('a worker runs here too: batches and schedules run while this process does');
    }
    io.out('evalflow commands in other terminals use this server; Ctrl-C stops it.');
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  } finally {
    await runtime?.close();
    io.err('stopping the Temporal server');
    await server.stop();
  }
  return 0;
}
