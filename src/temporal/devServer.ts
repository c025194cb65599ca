import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import { dirname } from 'node:path';
import { Connection, type TLSConfig } from '@temporalio/client';
import { ConfigError } from '../errors.js';
import { allSearchAttributeKeys } from './names.js';

export interface DevServerOptions {
  binary: string;
  /** SQLite file that keeps workflow history across restarts. */
  dbFilename: string;
  ip?: string;
  port?: number;
  uiPort?: number;
  namespace?: string;
  /** Forward the server's own log lines (warnings and errors). */
  onLog?: (line: string) => void;
  readyTimeoutMs?: number;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  namespace: string;
  /** The server process (tests kill it with SIGKILL, as a crash would). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` with a persistent database, the Web UI and evalflow's
 * search attributes, and waits until the frontend answers health checks.
 */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const ip = options.ip ?? '127.0.0.1';
  const port = options.port ?? 7233;
  const uiPort = options.uiPort ?? 8233;
  const namespace = options.namespace ?? 'default';
  await mkdir(dirname(options.dbFilename), { recursive: true });
  for (const p of [port, uiPort]) {
    if (await isPortOpen(ip, p)) {
      throw new ConfigError(
        `port ${ip}:${p} is already in use; stop the process using it, pass other ports, or point TEMPORAL_ADDRESS at the running server`,
      );
    }
  }
  const args = [
    'server', 'start-dev',
    '--db-filename', options.dbFilename,
    '--ip', ip,
    '--port', String(port),
    '--ui-port', String(uiPort),
    '--namespace', namespace,
    '--log-level', 'warn',
    // WAL keeps the single SQLite file fast under many concurrent runs (as the SDK's stress CI does).
    '--sqlite-pragma', 'journal_mode=WAL',
    '--sqlite-pragma', 'synchronous=NORMAL',
    // Latency of each step (bench/orchestration.ts): the transfer queue, which hands new
    // activity and workflow tasks to matching, is read at most 20 times a second by default,
    // so every task waited about 40 ms; and one partition per task queue, since a single
    // local server gains nothing from four and a task landing in a partition without a
    // poller waits to be forwarded.
    '--dynamic-config-value', 'history.transferProcessorMaxPollRPS=1000',
    '--dynamic-config-value', 'matching.numTaskqueueReadPartitions=1',
    '--dynamic-config-value', 'matching.numTaskqueueWritePartitions=1',
    // The CLI turns this on so search attributes added at run time are usable at once; it makes
    // every read of them (each upsert, each visibility write) a database read under one lock.
    // Ours are created with the database (the flags below), and ensureSearchAttributes waits
    // for any it adds later.
    '--dynamic-config-value', 'system.forceSearchAttributesCacheRefreshOnRead=false',
    // An activity on the workflow's own queue (the examiner and judge calls) comes back in the
    // reply to the workflow task that scheduled it, without a trip through matching.
    '--dynamic-config-value', 'system.enableActivityEagerExecution=true',
    ...allSearchAttributeKeys.flatMap((key) => ['--search-attribute', `${key.name}=${searchAttributeTypeName(key.type)}`]),
  ];
  const child = spawn(options.binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const logTail: string[] = [];
  const onData = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      logTail.push(line);
      if (logTail.length > 30) logTail.shift();
      options.onLog?.(line);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const address = `${ip}:${port}`;
  try {
    await waitUntilHealthy(address, child, exited, options.readyTimeoutMs ?? 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new ConfigError(`the Temporal dev server did not start: ${(err as Error).message}\n${logTail.join('\n')}`);
  }
  return {
    address,
    uiUrl: `http://${ip}:${uiPort}`,
    namespace,
    pid: child.pid!,
    stop: () => stopChild(child, exited),
  };
}

function searchAttributeTypeName(type: string): string {
  // SDK enum values are upper-case names (KEYWORD, DOUBLE); the CLI wants Keyword, Double.
  const lower = type.toLowerCase();
  return lower === 'keyword_list' ? 'KeywordList' : lower.charAt(0).toUpperCase() + lower.slice(1);
}

export async function waitUntilHealthy(address: string, child: ChildProcess, exited: Promise<number | null>, timeoutMs: number, tls?: TLSConfig): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (Date.now() < deadline) {
    if (exitCode !== undefined || child.exitCode !== null) throw new Error(`the server exited with code ${exitCode ?? child.exitCode}`);
    const [host, port] = address.split(':');
    if (await isPortOpen(host!, Number(port))) {
      try {
        const connection = await Connection.connect({ address, connectTimeout: 2_000, ...(tls ? { tls } : {}) });
        try {
          await connection.healthService.check({});
          return;
        } finally {
          await connection.close();
        }
      } catch {
        // not ready yet
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no healthy frontend on ${address} after ${timeoutMs} ms`);
}

export function isPortOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
