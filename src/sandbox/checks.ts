import { execa } from 'execa';
import type { CheckResult } from '../evalset/checkResult.js';

export interface CheckCommand {
  description: string;
  check: string;
  severity: 'hard' | 'soft';
}

const OUTPUT_LIMIT = 4_000;

/**
 * Runs one check (a precondition or postcondition) with bash in the sandbox. The command
 * already has ${SANDBOX_DIR}, ${RUN_DIR}, ${CASE_DIR} expanded; they are also exported.
 */
export async function runCheck(check: CheckCommand, options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<CheckResult> {
  const started = Date.now();
  const result = await execa('bash', ['-c', check.check], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: true,
    reject: false,
    all: true,
    timeout: options.timeoutMs ?? 300_000,
    killSignal: 'SIGKILL',
    stdin: 'ignore',
  });
  const output = String(result.all ?? '');
  return {
    description: check.description,
    check: check.check,
    severity: check.severity,
    passed: result.exitCode === 0 && !result.timedOut,
    exit_code: result.timedOut ? null : (result.exitCode ?? null),
    output: (result.timedOut ? `timed out after ${options.timeoutMs ?? 300_000} ms\n` : '') + tail(output),
    duration_ms: Date.now() - started,
  };
}

/** Runs setup or cleanup commands in order; stops at the first failure. */
export async function runCommands(commands: string[], options: { cwd: string; env: Record<string, string>; timeoutMs?: number }): Promise<{ command: string; exitCode: number | null; output: string }[]> {
  const done: { command: string; exitCode: number | null; output: string }[] = [];
  for (const command of commands) {
    const result = await execa('bash', ['-c', command], {
      cwd: options.cwd,
      env: options.env,
      reject: false,
      all: true,
      timeout: options.timeoutMs ?? 600_000,
      killSignal: 'SIGKILL',
      stdin: 'ignore',
    });
    done.push({ command, exitCode: result.timedOut ? null : (result.exitCode ?? null), output: tail(String(result.all ?? '')) });
    if (result.exitCode !== 0) break;
  }
  return done;
}

function tail(text: string): string {
  return text.length > OUTPUT_LIMIT ? `…${text.slice(-OUTPUT_LIMIT)}` : text;
}
