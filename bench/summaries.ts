// How `writeSummaries` scales with history: the same summaries rebuilt from a store of 1,000
// judged runs and of 100,000 (the first store copied 100 times, batches included, so the last batch stays
// the same size while score-history.yaml grows 100×). Each size is measured in its own child
// process, so the peak memory reported is that size's alone.
//
//   node --import tsx bench/summaries.ts (npm run bench:summaries)
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.js';
import { writeSummaries } from '../src/dashboard/writeSummaries.js';
import { pagesOfRunsWithVerdicts } from '../src/summaries/loadRuns.js';
import { aHistoryRun, statusOf, type Outcome } from '../test/support/historyRun.js';
import { row, writeResult } from './support/benchResult.js';
import { replicate } from './support/replicateStore.js';
import { seedHistory } from './support/seedHistory.js';

/** 1,250 runs, 1,000 of them judged: the history rows. */
const SEED_RUNS = 1_250;
const STATUSES: Outcome[] = ['pass', 'pass', 'fail', 'pass', 'infra_error', 'pass', 'fail', 'pass', 'aborted', 'pass'];

/** SEED_RUNS runs over 10 batches, 10 cases, 5 revs, 2 candidates and 2 arms. */
async function seed(dir: string): Promise<void> {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  await seedHistory(dir, {
    runs: SEED_RUNS,
    batchCreatedAt: () => new Date(clock).toISOString(),
    async seedRun(store, { batch: b, batchId, index: i, runId: runIdOf }) {
      const caseId = `case-${i % 10}`;
      const outcome = STATUSES[i % STATUSES.length]!;
      const status = statusOf(outcome);
      const runId = runIdOf(caseId);
      await store.upsertRun(
        aHistoryRun({
          run_id: runId,
          batch_id: batchId,
          case_id: caseId,
          candidate: b % 2 === 0 ? 'cand-a' : 'cand-b',
          workflow_rev: `rev-${b % 5}`,
          status,
          arm: i % 2 === 0 ? 'A' : 'B',
          attempt_index: 1 + Math.floor(i / 10),
          run_dir: join(dir, 'runs', runId),
        }),
      );
      if (status !== 'completed') return;
      await store.saveScore(runId, {
        result: outcome as 'pass' | 'fail',
        compliance: outcome === 'pass' ? 4 : 2,
        execution_quality: outcome === 'pass' ? 4 : 1,
        overall: outcome === 'pass' ? 4 : 1.5,
        summary: 'The agent did what was asked and ran the tests.',
        hard_requirements: [{ item: 'the tests pass', met: outcome === 'pass', evidence: 'ran npm test' }],
        suggestions: [`[workflow] Suggestion ${i % 7} about running the tests first.`],
        judge_model: 'judge-model',
        judged_at: new Date((clock += 1_000)).toISOString(),
        raw: '',
        salvaged: false,
      });
    },
  });
}

/**
 * In a child: the median of 3 rebuilds, and the peak growth of RSS (PGlite's WebAssembly memory
 * included, which grows and is never given back) and of the JS heap, sampled every 5 ms.
 */
async function measureChild(dir: string): Promise<void> {
  const store = await openStore({ pgliteDir: dir });
  const out = await mkdtemp(join(tmpdir(), 'evalflow-bench-summaries-'));
  const before = process.memoryUsage();
  let peak = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const sampler = setInterval(sample, 5);
  const times: number[] = [];
  let history = 0;
  for (let i = 0; i < 3; i++) {
    const start = process.hrtime.bigint();
    await writeSummaries({ store, summariesDir: out, prices: {} });
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    sample();
  }
  clearInterval(sampler);
  // How much of it is reading the history out of the store, page by page.
  const readStart = process.hrtime.bigint();
  for await (const page of pagesOfRunsWithVerdicts(store, { status: 'completed' })) history += page.length;
  const readMs = Number(process.hrtime.bigint() - readStart) / 1e6;
  await store.close();
  await rm(out, { recursive: true, force: true });
  console.log(JSON.stringify({ ms: times.sort((a, b) => a - b)[1], readMs, peakMb: (peak - before.rss) / 2 ** 20, heapMb: (peakHeap - before.heapUsed) / 2 ** 20, history }));
}

async function main(): Promise<void> {
  if (process.argv[2] === '--child') return measureChild(process.argv[3]!);
  const started = Date.now();
  const root = await mkdtemp(join(tmpdir(), 'evalflow-bench-store-'));
  try {
    const small = join(root, 'small');
    const large = join(root, 'large');
    await seed(small);
    execFileSync('cp', ['-a', small, large]);
    await replicate(large, 100);
    const child = (dir: string) => JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--child', dir], { encoding: 'utf8' })) as { ms: number; readMs: number; peakMb: number; heapMb: number; history: number };
    const a = child(small);
    const b = child(large);
    writeResult(
      {
        name: 'summaries',
        title: 'Summaries from 100,000 history rows against 1,000',
        rows: [
          row('summaries time, 100k rows', b.ms / a.ms, '×', { against: '1k rows (100× the rows)', goal: '<= 120', detail: `${b.ms.toFixed(0)} ms vs ${a.ms.toFixed(0)} ms; reading the store ${b.readMs.toFixed(0)} ms vs ${a.readMs.toFixed(0)} ms` }),
          row('peak RSS growth, 100k rows', b.peakMb, 'MiB', { detail: `JS heap +${b.heapMb.toFixed(0)} MiB; at 1k rows +${a.peakMb.toFixed(0)} MiB` }),
        ],
        notes: [`history rows: ${a.history} and ${b.history}`],
      },
      started,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
