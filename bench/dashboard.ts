// How dashboard.html scales with history: built from a store of 1,000 runs and of 100,000 (the
// first copied 100 times in SQL, batches included): build time, file size, and time to
// interactive in Debian's headless chromium (navigation start to the KPI cards and the
// timeline drawn), plus the time a filter takes to redraw. Goals: ≤ 5 MB and ≤ 2 s at 100,000.
//
//   node --import tsx bench/dashboard.ts
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { buildDashboard, renderDashboard } from '../src/dashboard/index.js';
import { openStore } from '../src/store/index.js';
import { aHistoryRun, statusOf, type Outcome } from '../test/support/historyRun.js';
import { row, writeResult } from './support/benchResult.js';
import { replicate } from './support/replicateStore.js';
import { seedHistory } from './support/seedHistory.js';

const SEED_RUNS = 1_000;
const OUTCOMES: Outcome[] = ['pass', 'pass', 'fail', 'pass', 'infra_error', 'pass', 'fail', 'pass', 'aborted', 'judge_failed', 'pass', 'needs_review', 'pass', 'cancelled', 'fail', 'pass'];

/** SEED_RUNS runs over 10 batches, 20 cases, 5 revs, 2 candidates and 2 arms. */
async function seed(dir: string): Promise<void> {
  let clock = Date.parse('2026-01-01T00:00:00Z');
  await seedHistory(dir, {
    runs: SEED_RUNS,
    batchCreatedAt: () => new Date(clock).toISOString(),
    async seedRun(store, { batch: b, batchId, index: i, runId: runIdOf }) {
      const caseId = `case-${i % 20}`;
      const outcome = OUTCOMES[(i + b) % OUTCOMES.length]!;
      const status = statusOf(outcome);
      const runId = runIdOf(caseId);
      clock += 60_000;
      await store.upsertRun(aHistoryRun({
        run_id: runId, batch_id: batchId, case_id: caseId,
        candidate: b % 2 === 0 ? 'cand-a' : 'cand-b',
        workflow_rev: `rev-${Math.floor(b / 2)}`, status, arm: i % 2 === 0 ? 'A' : 'B', attempt_index: 1 + Math.floor(i / 20),
        run_dir: join(dir, 'runs', runId), spec: { evalCase: { category: i % 3 === 0 ? 'bugfix' : 'feature' } },
        started_at: new Date(clock).toISOString(), finished_at: new Date(clock + 30_000).toISOString(), created_at: new Date(clock).toISOString(),
      }));
      if (status !== 'completed' && status !== 'needs_review') return;
      await store.saveScore(runId, {
        result: status === 'needs_review' ? null : (outcome as 'pass' | 'fail'),
        compliance: outcome === 'pass' ? 4 : 2, execution_quality: outcome === 'pass' ? 4 : 1, overall: outcome === 'pass' ? 4 : 1.5,
        summary: 'The agent did what was asked, ran the tests and explained the change in two sentences.',
        suggestions: [`[workflow] Suggestion ${i % 7} about running the tests first.`],
        judge_model: 'judge-model', judged_at: new Date(clock + 40_000).toISOString(),
      });
    },
  });
}

async function measure(dir: string, out: string): Promise<{ runs: number; buildMs: number; bytes: number; interactiveMs: number; filterMs: number }> {
  const store = await openStore({ pgliteDir: dir });
  const start = process.hrtime.bigint();
  const model = await buildDashboard({ store, prices: { 'ex-model': { input: 1, output: 2 }, 'cand-model': { input: 3, output: 15 }, 'judge-model': { input: 5, output: 25 } } });
  const html = renderDashboard(model);
  const buildMs = Number(process.hrtime.bigint() - start) / 1e6;
  await store.close();
  const file = join(out, `dashboard-${model.runs}.html`);
  await writeFile(file, html);
  const browser = await chromium.launch({ executablePath: process.env.EVALFLOW_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const times: number[] = [];
    let filterMs = 0;
    for (let i = 0; i < 3; i++) {
      const page = await (await browser.newContext()).newPage();
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('svg.timeline .mark');
      times.push(await page.evaluate(() => performance.now()));
      filterMs = await page.evaluate(() => {
        const t0 = performance.now();
        location.hash = 'case=case-3';
        window.dispatchEvent(new HashChangeEvent('hashchange'));
        return performance.now() - t0;
      });
      await page.context().close();
    }
    return { runs: model.runs, buildMs, bytes: Buffer.byteLength(html), interactiveMs: times.sort((a, b) => a - b)[1]!, filterMs };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const root = await mkdtemp(join(tmpdir(), 'evalflow-bench-dashboard-'));
  try {
    const small = join(root, 'small');
    const large = join(root, 'large');
    const phase = (what: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${what}`);
    phase('seeding 1,000 runs');
    await seed(small);
    execFileSync('cp', ['-a', small, large]);
    phase('copying them to 100,000');
    await replicate(large, 100);
    phase('measuring 1,000');
    const a = await measure(small, root);
    phase('measuring 100,000');
    const b = await measure(large, root);
    for (const m of [a, b]) {
      console.log(`${m.runs} runs: dashboard.html ${(m.bytes / 1024).toFixed(0)} KB, built in ${m.buildMs.toFixed(0)} ms, interactive in ${m.interactiveMs.toFixed(0)} ms (median of 3), a filter redraws in ${m.filterMs.toFixed(0)} ms`);
    }
    writeResult(
      {
        name: 'dashboard',
        title: 'dashboard.html from 100,000 runs against 1,000',
        rows: [
          row('dashboard.html size, 100k runs', b.bytes / 2 ** 20, 'MiB', { goal: '<= 5', detail: `${(a.bytes / 1024).toFixed(0)} KiB at 1k runs` }),
          row('size, 100k runs', b.bytes / a.bytes, '×', { against: '1k runs (100× the runs)' }),
          row('time to interactive in headless chromium, 100k runs', b.interactiveMs, 'ms', { goal: '<= 2000', detail: `${a.interactiveMs.toFixed(0)} ms at 1k runs (median of 3 loads)` }),
          row('time to interactive, 100k runs', b.interactiveMs / a.interactiveMs, '×', { against: '1k runs' }),
          row('build time, 100k runs', b.buildMs / a.buildMs, '×', { against: '1k runs (100× the runs)', goal: '<= 120', detail: `${b.buildMs.toFixed(0)} ms vs ${a.buildMs.toFixed(0)} ms` }),
          row('a filter redraws, 100k runs', b.filterMs, 'ms', { detail: `${a.filterMs.toFixed(0)} ms at 1k runs` }),
        ],
        notes: [`runs: ${a.runs} and ${b.runs}`],
      },
      started,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
