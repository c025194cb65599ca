// Looking while a batch runs: `evalflow runs --batch ID` (the built CLI) while another process
// holds the embedded store and serves it (see docs/store-service.md), against `node -e 0`,
// alternated in one run. Goal ≤ 5× node start (issue 25): a served command loads neither the
// PGlite engine nor Temporal. For scale, the same command when it must open PGlite itself.
//
//   node --import tsx bench/storeService.ts
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeResult, row } from './support/benchResult.js';
import { alternate } from './support/measure.js';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = 10;
const OWN_ROUNDS = 3;
const started = Date.now();

if (!existsSync(join(ROOT, 'dist/cli/client.js'))) throw new Error('bench/storeService.ts: dist/ is missing; run `npm run build` first');

const workspace = await mkdtemp(join(tmpdir(), 'evalflow-bench-served-'));
const env: NodeJS.ProcessEnv = { ...process.env, EVALFLOW_HOME: join(workspace, '.evalflow'), EVALFLOW_STORE_LINGER: '0' };
delete env.DATABASE_URL;
const node = (args: string[]) => () => execFileSync(process.execPath, args, { cwd: workspace, env, stdio: 'ignore' });
const bare = node(['-e', '0']);
const runs = node([join(ROOT, 'bin/evalflow.js'), 'runs', '--batch', 'batch-held']);

// The holder seeds a batch of 3 runs and serves the store until SIGTERM.
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const holder = spawn(process.execPath, ['--import', tsx, join(ROOT, 'test/support/holdStore.ts')], { cwd: workspace, env, stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise<void>((ready, fail) => {
  holder.stdout.on('data', (chunk: Buffer) => {
    if (/^holding \d+/m.test(chunk.toString('utf8'))) ready();
  });
  holder.once('exit', (code) => fail(new Error(`the holder exited (${code}) before serving`)));
});
const served = await alternate(runs, bare, ROUNDS);
holder.kill('SIGTERM');
await new Promise((gone) => holder.once('exit', gone));
const own = await alternate(runs, bare, OWN_ROUNDS);
await rm(workspace, { recursive: true, force: true });

writeResult(
  {
    name: 'store-service',
    title: 'Store service',
    rows: [
      row('evalflow runs --batch, served by another process', served.ratio, '×', { against: 'node -e 0', goal: '<= 5', detail: `${served.subjectMs.toFixed(0)} ms vs ${served.baselineMs.toFixed(0)} ms (medians of ${ROUNDS})` }),
      row('evalflow runs --batch, opening PGlite itself', own.ratio, '×', { against: 'node -e 0', detail: `${own.subjectMs.toFixed(0)} ms vs ${own.baselineMs.toFixed(0)} ms (medians of ${OWN_ROUNDS})` }),
    ],
    notes: ['a 3-run store; the issue asks the same of 10,000 and 100,000 runs, not measured here yet'],
  },
  started,
);
