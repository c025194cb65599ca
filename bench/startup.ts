// 8. CLI start-up: `evalflow --help`, `evalflow validate eval_sets` and `evalflow ep read FILE`
// (the built CLI, as a user runs it) against `node -e 0`, alternated in one run. Goal ≤ 3×:
// a command loads only what it uses (test/client.test.ts checks which modules load).
//
//   node --import tsx bench/startup.ts
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeResult, row } from './support/benchResult.js';
import { alternate } from './support/measure.js';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = 15;
const started = Date.now();

if (!existsSync(join(ROOT, 'dist/cli/client.js'))) throw new Error('bench/startup.ts: dist/ is missing; run `npm run build` first');

const node = (args: string[]) => () => execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'ignore' });
const bare = node(['-e', '0']);
const commands: [string, string[]][] = [
  ['evalflow --help', ['--help']],
  ['evalflow validate eval_sets', ['validate', 'eval_sets']],
  ['evalflow ep read FILE', ['ep', 'read', 'test/fixtures/editprediction/zed-evals/codex-acp--add-derive.md']],
];
const rows = [];
for (const [name, args] of commands) {
  const m = await alternate(node(['bin/evalflow.js', ...args]), bare, ROUNDS);
  rows.push(row(name, m.ratio, '×', { against: 'node -e 0', goal: '<= 3', detail: `${m.subjectMs.toFixed(0)} ms vs ${m.baselineMs.toFixed(0)} ms (medians of ${ROUNDS})` }));
}
writeResult({ name: 'startup', title: 'CLI start-up', rows, notes: [] }, started);
