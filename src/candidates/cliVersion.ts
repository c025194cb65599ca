import { tmpdir } from 'node:os';
import type { CliAdapter } from './adapter.js';
import { executablesOf } from './agentCache.js';
import { runProcess } from './processRunner.js';
import { findExecutable } from './sessionFiles.js';

export interface CliInstallation {
  /** Absolute path of the executable found, or undefined when it is not on PATH. */
  path?: string;
  /** First line of the version command's output, or null when it could not be told. */
  version: string | null;
}

/**
 * Whether an agent CLI is installed (on `hostEnv.PATH`, in the agents cache, or the spec's executable) and its
 * version, from its version command with a short timeout.
 */
export async function findCliInstallation(
  adapter: CliAdapter,
  options: { hostEnv: NodeJS.ProcessEnv; executable?: string; timeoutMs?: number },
): Promise<CliInstallation> {
  const path = await findExecutable(options.executable ? [options.executable] : executablesOf(adapter, options.hostEnv), options.hostEnv.PATH);
  if (!path) return { version: null };
  let stdout = '';
  const result = await runProcess({
    command: path,
    args: adapter.versionArgs,
    cwd: tmpdir(),
    env: { PATH: options.hostEnv.PATH ?? '', HOME: options.hostEnv.HOME ?? tmpdir(), LANG: options.hostEnv.LANG ?? 'C.UTF-8' },
    timeoutMs: options.timeoutMs ?? 5000,
    killGraceMs: 500,
    onStdoutLine: (line) => {
      if (!stdout && line.trim()) stdout = line.trim();
    },
  });
  const ok = result.exitCode === 0 && !result.timedOut && stdout !== '';
  return { path, version: ok ? stdout.slice(0, 200) : null };
}

