import { execa } from 'execa';
import { SandboxError } from '../errors.js';

/**
 * Runs git with a fixed identity and no user config, so runs behave the same on every
 * machine; failures become SandboxError with git's own message.
 */
export async function git(cwd: string, args: string[], options: { env?: Record<string, string>; input?: string; allowFail?: boolean; timeoutMs?: number } = {}): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const result = await execa('git', args, {
    cwd,
    reject: false,
    ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
    ...(options.input !== undefined ? { input: options.input } : {}),
    env: {
      GIT_AUTHOR_NAME: 'evalflow',
      GIT_AUTHOR_EMAIL: 'evalflow@localhost',
      GIT_COMMITTER_NAME: 'evalflow',
      GIT_COMMITTER_EMAIL: 'evalflow@localhost',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      ...options.env,
    },
  });
  const exitCode = result.exitCode ?? 1;
  if (exitCode !== 0 && !options.allowFail) {
    throw new SandboxError(`git ${args.join(' ')} failed in ${cwd}: ${String(result.stderr).trim() || String(result.stdout).trim()}`);
  }
  return { stdout: String(result.stdout), stderr: String(result.stderr), exitCode };
}
