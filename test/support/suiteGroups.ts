import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * What makes a test file run alone: it starts real servers or processes (Temporal, PostgreSQL,
 * agent CLIs, Chromium, bubblewrap, the CLI as a child), whose timeouts assume the machine's
 * two cores are theirs. Every other file runs two at a time.
 */
const RUNS_ALONE = /child_process|execa|runProcess|processRunner|startCli|startTsProcess|chromium|playwright|startDevServer|startTestTemporal|startRestartableTemporal|bwrap|bubblewrap|@temporalio\/testing|Worker\.create|DATABASE_URL|postgres/i;

/**
 * A file that runs alone but mostly waits (on Temporal's clock, a heartbeat or host-loss
 * window, a real minute boundary) says so on a line of its own; it then runs beside the
 * `alone` group, one such file at a time, instead of in it. Measured: such a file keeps less
 * than half a core busy, so the file it runs beside barely slows.
 */
const RUNS_BESIDE = /^\/\/ suite group: beside\b/m;

const RELATIVE_IMPORT = /from\s+'(\.{1,2}\/[^']+)'/g;

/**
 * The test files (relative to `root`) that run alone: those whose own text matches, or that
 * import, directly or through other test modules, a module under `test/` that does.
 */
export function testFilesThatRunAlone(root: string): string[] {
  const testDir = join(root, 'test');
  const sources = new Map(listTs(testDir).map((file) => [file, readFileSync(file, 'utf8')]));
  const alone = new Map<string, boolean>();
  const runsAlone = (file: string, visiting: Set<string>): boolean => {
    const known = alone.get(file);
    if (known !== undefined) return known;
    const text = sources.get(file);
    if (text === undefined || visiting.has(file)) return false;
    visiting.add(file);
    const imported = [...text.matchAll(RELATIVE_IMPORT)].map((match) => resolve(dirname(file), (match[1] ?? '').replace(/\.js$/, '.ts')));
    const answer = RUNS_ALONE.test(text) || imported.some((module) => runsAlone(module, visiting));
    visiting.delete(file);
    alone.set(file, answer);
    return answer;
  };
  return [...sources.keys()]
    .filter((file) => file.endsWith('.test.ts') && runsAlone(file, new Set()))
    .map((file) => relative(root, file))
    .sort();
}

/** The files (relative to `root`) that run alone but say they mostly wait: they run beside the others. */
export function testFilesThatRunBeside(root: string): string[] {
  return testFilesThatRunAlone(root).filter((file) => RUNS_BESIDE.test(readFileSync(join(root, file), 'utf8')));
}

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : listTs(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
