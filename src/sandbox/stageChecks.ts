import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { sandboxWasMade, stdioWithStatus } from '../containment/bwrapArgs.js';
import { checkRunnerCommand, createReportReader, type CheckReport } from '../containment/checkRunner.js';
import { containCommand } from '../containment/containCommand.js';
import type { SandboxView } from '../containment/sandboxView.js';
import { SandboxError } from '../errors.js';
import type { CheckResult } from '../evalset/checkResult.js';
import { runCheck, tail, type CheckCommand, type CheckOptions } from './checks.js';

/** Past the sum of the checks' own timeouts, the whole sandbox is killed: the runner stopped answering. */
const RUNNER_SLACK_MS = 60_000;

/**
 * A stage's checks (preconditions, or postconditions), in order, each with its result.
 * Contained, two or more run in one sandbox through the check runner (one bubblewrap start
 * instead of one each), each still alone in it: what a check started is killed, and /tmp
 * emptied, before the next starts, and none can reach the runner that reports the results
 * (see containment/checkRunner.ts). The sandbox has ended when this returns. Uncontained, or
 * where the runner cannot run, one at a time as `runCheck`.
 */
export async function runStageChecks(checks: CheckCommand[], options: CheckOptions): Promise<CheckResult[]> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const runner = options.view && checks.length > 1 ? checkRunnerCommand(checks.map((c) => c.check), timeoutMs) : undefined;
  if (!options.view || !runner) {
    const results: CheckResult[] = [];
    for (const check of checks) results.push(await runCheck(check, options));
    return results;
  }
  const reports = await runInOneSandbox(runner, checks.length, options.view, options, timeoutMs);
  return checks.map((check, i) => {
    const report = reports.find((r) => r.index === i);
    const timedOut = report?.timedOut ?? false;
    const output = report ? report.output.toString('utf8').replace(/\r?\n$/, '') : 'the check did not run: its sandbox ended before it (the check runner stopped)';
    return {
      description: check.description,
      check: check.check,
      severity: check.severity,
      passed: report !== undefined && report.exitCode === 0 && !timedOut,
      exit_code: report?.exitCode ?? null,
      output: (timedOut ? `timed out after ${timeoutMs} ms\n` : '') + tail(output),
      duration_ms: report?.durationMs ?? 0,
    };
  });
}

type TimedReport = CheckReport & { durationMs: number };

async function runInOneSandbox(runner: { command: string; args: string[] }, count: number, view: SandboxView, options: CheckOptions, timeoutMs: number): Promise<TimedReport[]> {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: process.env.LANG ?? 'C.UTF-8', HOME: options.home ?? '/nonexistent', ...options.env };
  const contained = await containCommand(view, { ...runner, cwd: options.cwd, env: { PATH: env.PATH }, scratchRoot: tmpdir(), asInit: true });
  // It dies with the worker (bubblewrap's --die-with-parent), so checks interrupted by a crash do not run on beside the retry.
  const child = spawn(contained.command, contained.args, { cwd: options.cwd, env, detached: true, stdio: stdioWithStatus(['ignore', 'pipe', 'pipe'], contained.statusFd) });
  let status = '';
  let stderr = '';
  child.stdio[contained.statusFd]?.on('data', (chunk: Buffer) => (status += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4_000)));
  const reports: TimedReport[] = [];
  const reader = createReportReader();
  let last = Date.now();
  let unreadable: unknown;
  child.stdout?.on('data', (chunk: Buffer) => {
    try {
      for (const report of reader.push(chunk)) {
        const now = Date.now();
        reports.push({ ...report, durationMs: now - last });
        last = now;
      }
    } catch (err) {
      unreadable = err;
    }
  });
  const timer = setTimeout(() => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  }, timeoutMs * count + RUNNER_SLACK_MS);
  try {
    let missing = false;
    const exitCode = await new Promise<number | null>((resolve) => {
      child.once('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') missing = true;
        resolve(null);
      });
      child.once('close', (code) => resolve(code));
    });
    // Checks that never ran are ours, not failed checks.
    if (!sandboxWasMade(status)) {
      throw new SandboxError(`the sandbox for a check could not be made: ${missing ? 'bwrap: not installed (apt-get install bubblewrap)' : /^bwrap: (.+)$/m.exec(stderr)?.[1] ?? (stderr.trim() || `exit ${exitCode}`)}`);
    }
    if (unreadable) throw new SandboxError(`the checks' sandbox: ${unreadable instanceof Error ? unreadable.message : String(unreadable)}`);
    return reports;
  } finally {
    clearTimeout(timer);
    await contained.close();
  }
}
