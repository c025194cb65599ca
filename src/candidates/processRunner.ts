import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { sandboxWasMade, stdioWithStatus } from '../containment/bwrapArgs.js';
import { containCommand } from '../containment/containCommand.js';
import type { SandboxView } from '../containment/sandboxView.js';
import { createLineReader, type LineCut } from './lineReader.js';
import { dieWithParent } from '../sandbox/dieWithParent.js';
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
  /** Each line of stdout; a line over 1 MB arrives shortened, and `cut` says how (see createLineReader). */
  onStdoutLine?: (line: string, cut?: LineCut) => void;
  onStderrLine?: (line: string, cut?: LineCut) => void;
  /** Called per line of output (stdout or stderr): the heartbeat of long tool runs. */
  onActivity?: () => void;
  /**
   * Called once the process exists, with its pid (also its process group id): the caller
   * records it, so a later attempt can kill the group if this one's worker dies.
   */
  onSpawn?: (pgid: number) => void;
  /** Between SIGTERM and SIGKILL when the turn is stopped. */
  killGraceMs?: number;
  /** Size of the stdout and stderr tails kept as evidence. */
  stderrTailBytes?: number;
  /**
   * `loopback`: run inside a new network namespace with only `lo` up
   * (`unshare -n sh -c 'ip link set lo up && exec "$@"' evalflow-netns cmd args`): the agent can
   * reach nothing but `forwardPorts` (relayed from the host's loopback). Needs root (or user
   * namespaces) and `unshare`/`ip` on PATH.
   */
  network?: 'host' | 'loopback';
  /** With `loopback` or a view: host loopback ports that stay reachable inside (the model server's). */
  forwardPorts?: number[];
  /**
   * Run contained in this view (bubblewrap: its own namespaces, only its clone and HOME
   * writable); `network` is then the view's. Without it, as the worker's user.
   */
  view?: SandboxView;
}

export interface ProcessResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  stderrTail: string;
  /** The last few KB of stdout: evidence beside stderr when the turn failed. */
  stdoutTail: string;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: string;
  durationMs: number;
}

/** After the main process exits, how long its stdout may stay open (orphaned children). */
const DRAIN_MS = 1000;

/**
 * Run one agent process in its own process group (`detached`), feed its stdout line by line,
 * keep bounded stdout and stderr tails, and on timeout or abort kill the whole group: SIGTERM,
 * then SIGKILL after a grace period. Whatever the group left running is killed once the main
 * process has exited. Never rejects: every outcome is in the result.
 */
export async function runProcess(request: ProcessRequest): Promise<ProcessResult> {
  if (request.view) {
    const contained = await containCommand(request.view, { ...request, scratchRoot: tmpdir() });
    try {
      return await runDirect(request, contained.command, contained.args, contained.statusFd);
    } finally {
      await contained.close();
    }
  }
  if (request.network !== 'loopback') return runDirect(request, request.command, request.args);
  const namespace = await wrapInLoopbackNamespace(request.command, request.args, request.forwardPorts);
  try {
    return await runDirect(request, namespace.command, namespace.args);
  } finally {
    await namespace.close();
  }
}

function runDirect(request: ProcessRequest, command: string, args: string[], statusFd?: number): Promise<ProcessResult> {
  const started = Date.now();
  const tailBytes = request.stderrTailBytes ?? 4096;
  return new Promise((resolve) => {
    let stderrTail = '';
    let stdoutTail = '';
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: string | null } | undefined;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    // A contained command is bubblewrap, which arms its own parent-death signal (--die-with-parent).
    const launched = statusFd === undefined ? dieWithParent(command, args) : { command, args };
    const child = spawn(launched.command, launched.args, {
      cwd: request.cwd,
      env: request.env,
      detached: true,
      // stdin is always a pipe, ended at once when there is no input: the agent sees EOF.
      // A contained process's sandbox reports on the pipe after them whether it was made.
      stdio: statusFd === undefined ? ['pipe', 'pipe', 'pipe'] : stdioWithStatus(['pipe', 'pipe', 'pipe'], statusFd),
    });
    let sandboxStatus = '';
    const status = statusFd === undefined ? undefined : child.stdio[statusFd];
    status?.on('data', (chunk: Buffer) => (sandboxStatus += chunk.toString('utf8')));
    status?.on('error', () => undefined);

    if (child.pid !== undefined) request.onSpawn?.(child.pid);

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

    const finish = (result: Omit<ProcessResult, 'durationMs' | 'stderrTail' | 'stdoutTail' | 'timedOut' | 'aborted'>) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      stdout.flush();
      stderr.flush();
      killGroup('SIGKILL');
      if (statusFd === undefined) {
        // setpriv could not exec the command: the same as a spawn error without it.
        const failedExec = launched.command !== command && (result.exitCode === 126 || result.exitCode === 127) ? /setpriv: failed to execute .*?: (.+)$/m.exec(stderrTail) : null;
        if (failedExec) {
          const reason = failedExec[1]!.trim();
          result = { exitCode: null, signal: null, spawnError: /no such file/i.test(reason) ? `${request.command}: not found` : `${request.command}: ${reason}` };
        }
      } else if (result.spawnError === undefined && !sandboxWasMade(sandboxStatus) && !aborted && !timedOut) {
        result = { exitCode: null, signal: null, spawnError: whySandboxFailed(stderrTail) };
      }
      resolve({ ...result, stderrTail, stdoutTail, timedOut, aborted, durationMs: Date.now() - started });
    };

    const stdout = createLineReader((line, cut) => {
      request.onActivity?.();
      request.onStdoutLine?.(line, cut);
    });
    const stderr = createLineReader((line, cut) => {
      request.onActivity?.();
      request.onStderrLine?.(line, cut);
    });
    let openStreams = 2;
    const streamClosed = () => {
      openStreams--;
      if (openStreams === 0 && exit) finish({ exitCode: exit.code, signal: exit.signal });
    };
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdoutTail = (stdoutTail + chunk.slice(-tailBytes)).slice(-tailBytes);
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-tailBytes);
      stderr.push(chunk);
    });
    child.stdout.on('close', streamClosed);
    child.stderr.on('close', streamClosed);

    child.on('error', (err: NodeJS.ErrnoException) => {
      const missing = statusFd === undefined ? `${request.command}: not found` : 'the sandbox could not be made: bwrap: not installed (apt-get install bubblewrap)';
      finish({ exitCode: null, signal: null, spawnError: err.code === 'ENOENT' ? missing : err.message });
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

/** Why a contained process's sandbox was not made, from what bubblewrap said. */
function whySandboxFailed(stderrTail: string): string {
  const said = /^bwrap: (.+)$/m.exec(stderrTail)?.[1]?.trim();
  return `the sandbox could not be made (bubblewrap${said ? `: ${said}` : ' said nothing'})`;
}
