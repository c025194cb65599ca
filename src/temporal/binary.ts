import { execa } from 'execa';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import { packageRoot } from '../packageRoot.js';

/** scripts/temporal-binary.sh, the one implementation of "find or build the Temporal CLI". */
const SCRIPT = join(packageRoot(), 'scripts/temporal-binary.sh');

/**
 * Path of the `temporal` CLI: $EVALFLOW_TEMPORAL_BIN, PATH, the cache, else built with Go
 * (3–6 minutes cold). Build progress is forwarded to `onProgress`.
 */
export async function locateTemporalBinary(options: { onProgress?: (line: string) => void; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  // A given env is the whole environment (a command's io.env), not additions to process.env.
  const child = execa('bash', [SCRIPT], { env: options.env ?? process.env, extendEnv: false, reject: false, stderr: 'pipe', stdout: 'pipe' });
  child.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) options.onProgress?.(line);
  });
  const result = await child;
  const path = String(result.stdout).trim().split('\n').pop() ?? '';
  if (result.exitCode !== 0 || !path) {
    throw new ConfigError(`could not find or build the Temporal CLI:\n${String(result.stderr).trim()}`);
  }
  return path;
}
