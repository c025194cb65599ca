import { spawn } from 'node:child_process';
import { wrapInLoopbackNamespace } from './loopbackNamespace.js';

export interface ProcessRequest {
  command: string;
  args: string[];
  cwd: string;
  /** The complete environment of the child: nothing of the host is inherited. */
  env: Record<string, string>;
  /** Written to stdin, which is then closed; without it stdin is closed at once. */
  stdin?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  onStdoutLine?: (line: string) => void;
  onStderrLine?: (line: string) => void;
  /** Called per line of output (stdout or stderr): the heartbeat of long tool runs. */
  onActivity?: () => void;
  /** Between SIGTERM and SIGKILL when the turn is stopped. */
  killGraceMs?: number;
  stderrTailBytes?: number;
  /**
   * `loopback`: run inside a new network namespace with only `lo` up
   * (`unshare -n sh -c 'ip link set lo up && exec "$@"' evalflow-netns cmd args`): the agent can
   * reach nothing but `forwardPorts` (relayed from the host's loopback). Needs root (or user
   * namespaces) and `unshare`/`ip` on PATH.
   */
  network?: 'host' | 'loopback';
  /** With `loopback`: host loopback ports that stay reachable inside (the model server's). */
  forwardPorts?: number[];
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  stderrTail: string;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: string;
  durationMs: number;
}

/** Lines longer than this are cut (a runaway line must not exhaust memory). */
const MAX_LINE = 8 * 1024 * 1024;
/** After the main process exits, how long its stdout may stay open (orphaned children). */
const DRAIN_MS = 1000;

/**
 * Run one agent process in its own process group (`detached`), feed its stdout line by line,
 * keep a bounded stderr tail, and on timeout or abort kill the whole group: SIGTERM, then
 * SIGKILL after a grace period. Whatever the group left running is killed once the main
 * process has exited. Never rejects: every outcome is in the result.
 */
export async function runProcess(request: ProcessRequest): Promise<ProcessResult> {
  if (request.network !== 'loopback') return runDirect(request, request.command, request.args);
  const namespace = await wrapInLoopbackNamespace(request.command, request.args, request.forwardPorts);
  try {
    return await runDirect(request, namespace.command, namespace.args);
  } finally {
    await namespace.close();
  }
}

function runDirect(request: ProcessRequest, command: string, args: string[]): Promise<ProcessResult> {
  const started = Date.now();
  const tailBytes = request.stderrTailBytes ?? 4096;
  return new Promise((resolve) => {
    let stderrTail = '';
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const child = spawn(command, args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      // stdin is always a pipe, ended at once when there is no input: the agent sees EOF.
      stdio: ['pipe', 'pipe', 'pipe'],
    });

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // The group is already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      timers.push(setTimeout(() => killGroup('SIGKILL'), request.killGraceMs ?? 3000));
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };

    const finish = (result: Omit<ProcessResult, 'durationMs' | 'stderrTail' | 'timedOut' | 'aborted'>) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      stdout.flush();
      stderr.flush();
      killGroup('SIGKILL');
      resolve({ ...result, stderrTail, timedOut, aborted, durationMs: Date.now() - started });
    };

    const stdout = lineSplitter((line) => {
      request.onActivity?.();
      request.onStdoutLine?.(line);
    });
    const stderr = lineSplitter((line) => {
      request.onActivity?.();
      request.onStderrLine?.(line);
    });
    let openStreams = 2;
    const streamClosed = () => {
      openStreams--;
      if (openStreams === 0 && exit) finish({ exitCode: exit.code, signal: exit.signal });
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => stdout.push(chunk));
    child.stderr.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-tailBytes);
      stderr.push(chunk);
    });
    child.stdout.on('close', streamClosed);
    child.stderr.on('close', streamClosed);

    child.on('error', (err: NodeJS.ErrnoException) => {
      finish({ exitCode: null, signal: null, spawnError: err.code === 'ENOENT' ? `${request.command}: not found` : err.message });
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (openStreams === 0) finish({ exitCode: code, signal });
      // Orphans that inherited stdout keep it open: stop waiting for them after a moment.
      else timers.push(setTimeout(() => finish({ exitCode: code, signal }), DRAIN_MS));
    });

    child.stdin.on('error', () => undefined);
    child.stdin.end(request.stdin ?? '');
    timers.push(
      setTimeout(() => {
        timedOut = true;
        stop();
      }, request.timeoutMs),
    );
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Split a text stream into lines; `flush` emits a last line without newline. */
function lineSplitter(onLine: (line: string) => void): { push(chunk: string): void; flush(): void } {
  let buffer = '';
  return {
    push(chunk) {
      // Search only the new chunk: a long line arriving in many chunks stays linear.
      let newline = chunk.indexOf('\n');
      if (newline !== -1) newline += buffer.length;
      buffer += chunk;
      while (newline !== -1) {
        onLine(buffer.slice(0, newline).replace(/\r$/, ''));
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf('\n');
      }
      if (buffer.length > MAX_LINE) {
        onLine(buffer.slice(0, MAX_LINE));
        buffer = '';
      }
    },
    flush() {
      if (buffer) onLine(buffer.replace(/\r$/, ''));
      buffer = '';
    },
  };
}
