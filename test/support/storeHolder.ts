import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const HOLDER = resolve(import.meta.dirname, 'holdStore.ts');

/** holdStore.ts in `cwd`: resolves once it holds (and serves) the embedded store. */
export async function startHolder(cwd: string, env: NodeJS.ProcessEnv): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', TSX, HOLDER], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`holder: not holding within 240 s; printed:\n${printed}`)), 240_000);
    const collect = (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      if (/^holding \d+$/m.test(printed)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => fail(new Error(`holder exited (${code}) before holding; printed:\n${printed}`)));
  });
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

