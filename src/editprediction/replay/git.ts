import { execa } from 'execa';
import { SandboxError } from '../../errors.js';

/**
 * Run git in `cwd` and return its stdout (trimmed). Failures become a SandboxError naming
 * the command and the end of git's stderr. Git never prompts (no credentials are asked for),
 * and never rewrites line endings on its own (`core.autocrlf` is off whatever the user's
 * configuration says; a repository's own `.gitattributes` still apply), so checked-out files
 * hold the repository's bytes on every machine.
 */
export async function runGit(cwd: string, args: string[], input?: string): Promise<string> {
  const result = await execa('git', ['-c', 'core.autocrlf=false', ...args], {
    cwd,
    input,
    reject: false,
    env: { GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', LC_ALL: 'C' },
  });
  if (result.exitCode !== 0) {
    const stderr = String(result.stderr ?? '').trim().split('\n').slice(-5).join('\n');
    throw new SandboxError(`git ${args.join(' ')} failed in ${cwd} (exit ${result.exitCode ?? 'signal'}): ${stderr}`);
  }
  return String(result.stdout ?? '').trim();
}

/** Like {@link runGit}, but reports failure as `undefined` instead of throwing. */
export async function tryGit(cwd: string, args: string[]): Promise<string | undefined> {
  try {
    return await runGit(cwd, args);
  } catch {
    return undefined;
  }
}
