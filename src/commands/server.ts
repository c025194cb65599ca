import { dirname, join } from 'node:path';
import { loadSettings, type Settings } from '../config.js';
import { ConfigError } from '../errors.js';
import { locateTemporalBinary } from '../temporal/binary.js';
import { startDevServer } from '../temporal/devServer.js';
import { teamDatabaseOf } from '../temporal/teamSchema.js';
import { locateTeamBinaries, startTeamServer } from '../temporal/teamServer.js';
import type { CommandIo } from '../cli/io.js';
import { openRuntime, type EvalRuntime } from '../cli/runtime.js';

export interface ServerOptions {
  config?: string;
  /** `sqlite` (default): the dev server; `postgres`: Temporal's own server on PostgreSQL (team mode). */
  persistence?: 'sqlite' | 'postgres';
  databaseUrl?: string;
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
  let server: { address: string; uiUrl: string; stop(): Promise<void> };
  if (options.persistence === 'postgres') {
    const database = teamDatabaseOf(options.databaseUrl ?? io.env.EVALFLOW_TEMPORAL_DATABASE_URL ?? DEFAULT_TEAM_DATABASE);
    const binaries = await locateTeamBinaries(say, io.env);
    server = await startTeamServer({ binaries, database, dir: join(dirname(settings.temporal.dbFilename), 'team-server'), port: settings.temporal.port, uiPort: settings.temporal.uiPort, namespace: settings.temporal.namespace, say });
    io.out(`Temporal server on ${server.address} (namespace ${settings.temporal.namespace}), history in PostgreSQL ${database.host}:${database.port} databases ${database.database} and ${database.visibility}`);
    io.out(`workers and CLIs on other machines: TEMPORAL_ADDRESS=<this host>:${settings.temporal.port}`);
  } else {
    const binary = await locateTemporalBinary({ onProgress: say });
    server = await startDevServer({ binary, dbFilename: settings.temporal.dbFilename, port: settings.temporal.port, uiPort: settings.temporal.uiPort, namespace: settings.temporal.namespace, onLog: say });
    io.out(`Temporal dev server on ${server.address} (namespace ${settings.temporal.namespace}), history in ${settings.temporal.dbFilename}`);
  }
  io.out(`Web UI: ${server.uiUrl}`);
  let runtime: EvalRuntime | null = null;
  try {
    if (options.worker) {
      const served: Settings = { ...settings, temporal: { ...settings.temporal, address: server.address } };
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
