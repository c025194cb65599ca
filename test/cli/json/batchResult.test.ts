import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectBatchReport, printBatchReport, type BatchReport } from '../../../src/cli/batch/follow.js';
import { linesToStderr, memoryIo } from '../../../src/cli/io.js';
import { BatchResultJson, batchResultJson, nothingRanJson } from '../../../src/cli/json/batchResult.js';
import { openStore, type Store } from '../../../src/store/index.js';
import type { BatchGate } from '../../../src/summaries/batchGate.js';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { aRun } from '../../store/builders.js';
import { cells, expectDocument } from './support.js';

const BATCH = 'batch-20260301T000000-end';
const END = { closed: true as const, status: 'completed' as const, failure: null, total: 4 };
let root: string;
let store: Store;
let report: BatchReport;

/** Four runs of one batch: pass (started again on host b after host a), fail, needs_review, infra_error. */
beforeAll(async () => {
  root = await tempDir('evalflow-json-result-');
  store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  const outcomes = [
    ['completed', 'pass', 4],
    ['completed', 'fail', 2],
    ['needs_review', null, null],
    ['infra_error', null, null],
  ] as const;
  for (const [i, [status, result, overall]] of outcomes.entries()) {
    await store.upsertRun(aRun({ run_id: `run-c${i}-fake@20260301T000000`, batch_id: BATCH, case_id: `c${i}`, run_dir: join(root, 'runs', `r${i}`), status, result, overall, ...(status === 'infra_error' ? { error: 'sandbox gone' } : {}) }));
  }
  await store.saveRunHost({ run_id: 'run-c0-fake@20260301T000000', generation: 0, host_id: 'host-a', claimed_at: '2026-03-01T00:00:01Z' });
  await store.saveRunHost({ run_id: 'run-c0-fake@20260301T000000', generation: 1, host_id: 'host-b', claimed_at: '2026-03-01T00:02:00Z' });
  report = await collectBatchReport(store, BATCH, 4, null);
});
afterAll(async () => {
  await store?.close();
});

describe('run --json and attach --json: the final table as one document', () => {
  it('has the rows and the tally line of the table, with each run’s hosts', async () => {
    const table = memoryIo(root);
    printBatchReport(report, END, table, 'http://127.0.0.1:8233');
    const hosts = await store.getRunHosts(report.runs.map((r) => r.run_id));
    const doc = expectDocument(BatchResultJson, JSON.parse(JSON.stringify(batchResultJson(report, END, hosts, null, 'http://127.0.0.1:8233'))));
    const rows = table.stdout.slice(3, 3 + doc.runs.length).map(cells);
    expect(rows).toEqual(doc.runs.map((r) => [r.case_id, r.status, r.result ?? '-', r.overall === null ? '-' : r.overall.toFixed(1), relative(root, r.run_dir)]));
    expect(doc.runs[0]!.hosts).toEqual(['host-a', 'host-b']);
    const { totals } = doc;
    expect(totals).toEqual({ runs: 4, passed: 1, judged: 2, needs_review: 1, not_judged: 1, uncontained: 4 });
    expect(table.stdout).toContain(`${totals.runs} runs: ${totals.passed}/${totals.judged} passed, 1 needs a person's review, ${totals.not_judged} not judged (batch ${doc.batch_id})`);
    expect(doc).toMatchObject({ batch_id: BATCH, ended: 'completed', failure: null, planned: 4, all_completed: false, gate: null, web_ui: 'http://127.0.0.1:8233' });
  });

  it('carries the gate with each check as its lines name it', () => {
    const gate: BatchGate = { outcome: 'infrastructure', notes: ['1 run(s) need a person\'s review'], checks: [{ arm: 'b', name: 'max infra errors 0', met: false, detail: '1 infra_error', infrastructure: true }] };
    const doc = expectDocument(BatchResultJson, batchResultJson(report, { ...END, status: 'cancelled' }, [], gate, undefined));
    expect(doc.gate).toEqual({ outcome: 'infrastructure', notes: gate.notes, checks: [{ arm: 'b', name: 'max infra errors 0', met: false, infrastructure: true, detail: '1 infra_error' }] });
    expect(doc).toMatchObject({ ended: 'cancelled', web_ui: null });
    expect(doc.runs[0]!.hosts).toEqual([]);
  });

  it('nothing to run is a document too: no batch, no runs', () => {
    expect(expectDocument(BatchResultJson, nothingRanJson())).toMatchObject({ batch_id: null, ended: null, runs: [], all_completed: true });
  });

  it('with --json every line for people goes to stderr, stdout keeps the document alone', () => {
    const io = memoryIo(root);
    const human = linesToStderr(io);
    human.out('table line');
    human.err('progress line');
    expect(io.stdout).toEqual([]);
    expect(io.stderr).toEqual(['table line', 'progress line']);
  });
});
