// `npm run bench [-- NAME...] [--table] [--docs]`: every benchmark, one after another, each in its own process;
// each writes bench/results/<name>.json, and this prints one table of them all. Every figure
// is a ratio against a baseline measured in the same run (these machines are noisy), except
// those marked as reported only. `--table` prints the table of the results already there;
// `--docs` also writes it into docs/benchmarks.md between its bench markers.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BenchResultSchema, formatValue, RESULTS_DIR, type BenchResult } from './support/benchResult.js';

const ROOT = resolve(import.meta.dirname, '..');

/** In the order of the benchmark list in docs/benchmarks.md. */
const BENCHMARKS = [
  { name: 'orchestration', file: 'orchestration.ts' },
  { name: 'crash-cost', file: 'crashCost.ts' },
  { name: 'scale-out', file: 'scaleOut.ts' },
  { name: 'run-cost', file: 'runCost.ts' },
  { name: 'compaction', file: 'compaction.ts' },
  { name: 'summaries', file: 'summaries.ts' },
  { name: 'dashboard', file: 'dashboard.ts' },
  { name: 'edit-prediction', file: 'editPrediction.ts' },
  { name: 'startup', file: 'startup.ts' },
  { name: 'normalize', file: 'normalize.ts' },
  { name: 'isolation', file: 'isolation.ts' },
  { name: 'store-service', file: 'storeService.ts' },
  { name: 'sequential', file: 'sequential.ts' },
  { name: 'lookups', file: 'lookups.ts' },
  { name: 'view-pages', file: 'viewPages.ts' },
] as const;

const tableOnly = process.argv.includes('--table');
const intoDocs = process.argv.includes('--docs');
const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const unknown = wanted.filter((name) => !BENCHMARKS.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(`bench: unknown benchmark ${unknown.join(', ')}; expected some of ${BENCHMARKS.map((b) => b.name).join(', ')}`);
  process.exit(2);
}
const selected = BENCHMARKS.filter((b) => (wanted.length === 0 || wanted.includes(b.name)) && existsSync(join(import.meta.dirname, b.file)));

if (!tableOnly) {
  console.log('building dist/ (the start-up benchmark runs the built CLI)');
  if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) process.exit(1);
}

const started = Date.now();
const failed: string[] = [];
for (const bench of tableOnly ? [] : selected) {
  console.log(`\n== ${bench.name}`);
  const child = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, bench.file)], { cwd: ROOT, stdio: 'inherit' });
  if (child.status !== 0) failed.push(bench.name);
}

const results: BenchResult[] = selected
  .map((b) => join(RESULTS_DIR, `${b.name}.json`))
  .filter((file) => existsSync(file))
  .map((file) => BenchResultSchema.parse(JSON.parse(readFileSync(file, 'utf8'))));
console.log(`\n${table(results)}`);
if (intoDocs) writeDocsTable(table(results));
console.log(`\n${selected.length} benchmarks in ${Math.round((Date.now() - started) / 1000)} s${failed.length > 0 ? `; FAILED: ${failed.join(', ')}` : ''}`);
process.exitCode = failed.length > 0 ? 1 : 0;

/** Replaces the table between the bench markers of docs/benchmarks.md. */
function writeDocsTable(text: string): void {
  const page = join(ROOT, 'docs/benchmarks.md');
  const content = readFileSync(page, 'utf8');
  const start = '<!-- bench:start -->';
  const end = '<!-- bench:end -->';
  if (!content.includes(start) || !content.includes(end)) throw new Error(`docs/benchmarks.md: expected the markers ${start} and ${end} around the benchmark table`);
  writeFileSync(page, `${content.slice(0, content.indexOf(start) + start.length)}\n${text}\n${content.slice(content.indexOf(end))}`);
  console.log('docs/benchmarks.md: benchmark table updated');
}

/** One Markdown table, as docs/benchmarks.md carries it. */
function table(all: BenchResult[]): string {
  const lines = ['| benchmark | figure | measured | goal |', '|---|---|---|---|'];
  for (const result of all) {
    for (const r of result.rows) {
      const goal = r.goal === undefined ? 'reported' : `${r.goal}${r.unit === '×' ? '×' : ` ${r.unit}`}: ${r.met === null ? 'not measured' : r.met ? 'met' : '**missed**'}`;
      lines.push(`| ${result.title} | ${r.metric} | ${formatValue(r)} | ${goal} |`);
    }
  }
  const machine = all[0]?.machine;
  if (machine) lines.push('', `Measured ${all[0]!.measuredAt.slice(0, 10)} on ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}.`);
  return lines.join('\n');
}
