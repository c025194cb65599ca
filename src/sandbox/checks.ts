import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { sandboxWasMade, stdioWithStatus } from '../containment/bwrapArgs.js';
import { containCommand } from '../containment/containCommand.js';
import type { SandboxView } from '../containment/sandboxView.js';
import { SandboxError } from '../errors.js';
import type { CheckResult } from '../evalset/checkResult.js';
import { dieWithParent } from './dieWithParent.js';

export interface CheckCommand {
  description: string;
  check: string;
  severity: 'hard' | 'soft';
}

const OUTPUT_LIMIT = 4_000;

/** Where and how checks run: in the sandbox, with the case variables; contained in `view` when the run is. */
export interface CheckOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  /**
   * Contained: the command sees only this view, and of the worker's environment only PATH and
   * LANG (with `home` as HOME): checks run what the candidate wrote.
   */
  view?: SandboxView;
  home?: string;
}

/**
 * Runs one check (a precondition or postcondition) with bash in the sandbox. The command
 * already has ${SANDBOX_DIR}, ${RUN_DIR}, ${CASE_DIR} expanded; they are also exported.
 */
export async function runCheck(check: CheckCommand, options: CheckOptions): Promise<CheckResult> {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 300_000;
  const result = await runShell(check.check, options, timeoutMs);
  return {
    description: check.description,
    check: check.check,
    severity: check.severity,
    passed: result.exitCode === 0 && !result.timedOut,
    exit_code: result.exitCode,
    output: (result.timedOut ? `timed out after ${timeoutMs} ms\n` : '') + tail(result.output),
    duration_ms: Date.now() - started,
  };
}

/** Runs setup or cleanup commands in order; stops at the first failure. */
export async function runCommands(commands: string[], options: CheckOptions): Promise<{ command: string; exitCode: number | null; output: string }[]> {
  const done: { command: string; exitCode: number | null; output: string }[] = [];
  for (const command of commands) {
    const result = await runShell(command, options, options.timeoutMs ?? 600_000);
    done.push({ command, exitCode: result.exitCode, output: tail(result.output) });
    if (result.exitCode !== 0) break;
  }
  return done;
}

/** Output kept while a command runs: its tail is all a result shows. */
const KEPT_OUTPUT = 64 * 1024;

/**
 * bash in its own process group; on timeout the whole group is killed, because children that
 * inherited the output pipe (`server &`, test runners) would otherwise keep us waiting. Plain
 * `spawn`, stdout and stderr into one buffer as they come: checks run many times per run, and
 * a process-running library's own work per call was a good part of a short check's time.
 */
async function runShell(command: string, options: CheckOptions, timeoutMs: number): Promise<{ exitCode: number | null; output: string; timedOut: boolean }> {
  const { cwd, view } = options;
  const env = view
    ? { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: process.env.LANG ?? 'C.UTF-8', HOME: options.home ?? '/nonexistent', ...options.env }
    : { ...process.env, ...options.env };
  const contained = view ? await containCommand(view, { command: 'bash', args: ['-c', command], cwd, env: { PATH: env.PATH ?? '' }, scratchRoot: tmpdir() }) : undefined;
  // It dies with the worker, so a check interrupted by a crash does not run on beside its retry
  // (contained, bubblewrap's --die-with-parent sees to it: no setpriv in front).
  const launched = contained ?? dieWithParent('bash', ['-c', command]);
  const child = spawn(launched.command, launched.args, { cwd, env, detached: true, stdio: contained ? stdioWithStatus(['ignore', 'pipe', 'pipe'], contained.statusFd) : ['ignore', 'pipe', 'pipe'] });
  let status = '';
  if (contained) child.stdio[contained.statusFd]?.on('data', (chunk: Buffer) => (status += chunk.toString('utf8')));
  let chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: Buffer) => {
    chunks.push(chunk);
    size += chunk.length;
    if (size > 2 * KEPT_OUTPUT) {
      chunks = [Buffer.concat(chunks).subarray(-KEPT_OUTPUT)];
      size = KEPT_OUTPUT;
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  }, timeoutMs);
  try {
    let missing = false;
    const exitCode = await new Promise<number | null>((resolve) => {
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') missing = true;
        resolve(null);
      });
      child.once('close', (code) => resolve(code));
    });
    const output = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
    // A check that never ran is ours, not a failed check.
    if (contained && !timedOut && !sandboxWasMade(status)) {
      throw new SandboxError(`the sandbox for a check could not be made: ${missing ? 'bwrap: not installed (apt-get install bubblewrap)' : /^bwrap: (.+)$/m.exec(output)?.[1] ?? (output.trim() || `exit ${exitCode}`)}`);
    }
    return { exitCode: timedOut ? null : exitCode, output, timedOut };
  } finally {
    clearTimeout(timer);
    await contained?.close();
  }
}

/** The end of a check's output, as its result keeps it. */
export function tail(text: string): string {
  return text.length > OUTPUT_LIMIT ? `…${text.slice(-OUTPUT_LIMIT)}` : text;
}
