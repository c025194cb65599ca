import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * A holder of the embedded store in `cwd`, as a worker would be (test/support/holdStore.ts: it
 * opens the store, so it serves it, and waits); resolves once it holds it, to a function that
 * stops it.
 */
export async function holdStore(root: string, cwd: string, env: NodeJS.ProcessEnv): Promise<() => Promise<void>> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const holder = spawn(process.execPath, ['--import', tsx, join(root, 'test/support/holdStore.ts')], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ready, fail) => {
    holder.stdout.on('data', (chunk: Buffer) => {
      if (/^holding \d+/m.test(chunk.toString('utf8'))) ready();
    });
    holder.once('exit', (code) => fail(new Error(`the holder exited (${code}) before serving`)));
  });
  return async () => {
    holder.kill('SIGTERM');
    await new Promise((gone) => holder.once('exit', gone));
  };
}
