import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatCounts } from '../../../src/cli/batch/counts.js';
import { memoryIo } from '../../../src/cli/io.js';
import { BatchesJson } from '../../../src/cli/json/batches.js';
import { CompareJson } from '../../../src/cli/json/compare.js';
import { HistoryJson } from '../../../src/cli/json/history.js';
import { PlanJson } from '../../../src/cli/json/plan.js';
import { RunsJson } from '../../../src/cli/json/runs.js';
import { ShowJson } from '../../../src/cli/json/show.js';
import { run as batches } from '../../../src/commands/batches.js';
import { run as compare } from '../../../src/commands/compare.js';
import { run as history } from '../../../src/commands/history.js';
import { run as plan } from '../../../src/commands/plan.js';
import { run as runs } from '../../../src/commands/runs.js';
import { run as show } from '../../../src/commands/show.js';
import { openStore } from '../../../src/store/index.js';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { aRun, aScore } from '../../store/builders.js';
import { bothForms, cells, expectDocument } from './support.js';

const OLD = 'batch-20260301T000000-old';
const NEW = 'batch-20260302T000000-new';
let root: string;

/**
 * Two batches of two cases on two workflow revisions. old (rev aaaa): c1 pass, pass, fail;
 * c2 pass. new (rev bbbb): c1 pass ×3; c2 fail, and one infra_error that enters no rate.
 */
beforeAll(async () => {
  root = await tempDir('evalflow-json-');
  const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  let n = 0;
  const seed = async (batchId: string, at: string, rev: string, outcomes: [string, 'pass' | 'fail' | 'infra_error'][]) => {
    await store.upsertBatch({ batch_id: batchId, status: 'completed', created_at: at, spec: { candidate: 'fake', total: outcomes.length }, counts: { finished: outcomes.length, passed: outcomes.filter(([, o]) => o === 'pass').length, failed: outcomes.filter(([, o]) => o === 'fail').length, infra_error: outcomes.filter(([, o]) => o === 'infra_error').length } });
    for (const [caseId, outcome] of outcomes) {
      n += 1;
      const runId = `run-${caseId}-fake@2026030${n % 10}T00000${n % 10}-${n}`;
      const result = outcome === 'infra_error' ? null : outcome;
      const runDir = join(root, 'runs', runId);
      await mkdir(runDir, { recursive: true });
      await store.upsertRun(aRun({ run_id: runId, batch_id: batchId, case_id: caseId, run_dir: runDir, workflow_rev: rev, status: result ? 'completed' : 'infra_error', result, overall: result ? (result === 'pass' ? 4 : 2) : null, ...(result ? {} : { error: 'sandbox gone' }), created_at: new Date(Date.parse(at) + n * 1000).toISOString() }));
      if (result) {
        await store.saveScore(runId, aScore({ judged_at: '2026-03-02T10:00:00.000Z', result, overall: result === 'pass' ? 4 : 2 }));
        await writeFile(join(runDir, 'review.md'), `# ${runId}\n\nverdict ${result}\n`);
      }
    }
  };
  try {
    await seed(OLD, '2026-03-01T00:00:00.000Z', 'aaaa', [['c1', 'pass'], ['c1', 'pass'], ['c1', 'fail'], ['c2', 'pass']]);
    await seed(NEW, '2026-03-02T00:00:00.000Z', 'bbbb', [['c1', 'pass'], ['c1', 'pass'], ['c1', 'pass'], ['c2', 'fail'], ['c2', 'infra_error']]);
  } finally {
    await store.close();
  }
});

describe('--json of the commands that read the store', () => {
  it('runs: the page of the table, row for row, with the cursor of the next page', async () => {
    const { table, json, jsonStderr } = await bothForms(runs, { limit: 6 }, root);
    const doc = expectDocument(RunsJson, json);
    expect(doc.runs).toHaveLength(6);
    const rows = table.slice(2).map(cells);
    expect(rows).toHaveLength(doc.runs.length);
    for (const [i, run] of doc.runs.entries()) {
      expect(rows[i]).toEqual([run.case_id, run.status, run.result ?? '-', run.overall === null ? '-' : run.overall.toFixed(1), run.hosts.join('→') || '-', relative(root, run.run_dir)]);
    }
    expect(doc.next_after).toBe(doc.runs.at(-1)!.run_id);
    expect(jsonStderr).toEqual([`more: evalflow runs --limit 6 --json --after ${doc.next_after}`]);
    const last = expectDocument(RunsJson, await jsonOf(runs, { limit: 6, after: doc.next_after! }));
    expect(last.runs.map((r) => r.run_id)).not.toContain(doc.next_after);
    expect(last.runs).toHaveLength(3);
    expect(last.next_after).toBeNull();
  });

  it('runs: a batch with no run matching is an empty document; an unknown batch prints nothing and exits 3', async () => {
    expect(expectDocument(RunsJson, await jsonOf(runs, { batch: OLD, status: 'cancelled' }))).toEqual({ schema_version: 1, runs: [], next_after: null, not_in_store: [] });
    const io = memoryIo(root, {});
    expect(await runs({ batch: 'batch-nope', json: true }, io)).toBe(3);
    expect(io.stdout).toEqual([]);
  });

  it('batches: the rows of the table', async () => {
    const { table, json } = await bothForms(batches, {}, root);
    const doc = expectDocument(BatchesJson, json);
    expect(doc.batches.map((b) => b.batch_id)).toEqual([NEW, OLD]);
    expect(doc.batches[0]).toMatchObject({ status: 'completed', planned: 5, candidate: 'fake', counts: { finished: 5, passed: 3, failed: 1, infra_error: 1 } });
    for (const [i, b] of doc.batches.entries()) expect(cells(table[i + 2]!).slice(0, 4)).toEqual([b.batch_id, b.status, formatCounts(b.counts, b.planned), b.candidate]);
    expect(expectDocument(BatchesJson, await jsonOf(batches, { status: 'failed' })).batches).toEqual([]);
  });

  it('history: one entry per revision with the numbers of the table', async () => {
    const { table, json } = await bothForms(history, {}, root);
    const doc = expectDocument(HistoryJson, json);
    expect(doc.revisions.map((r) => [r.workflow_rev, r.runs, r.judged, r.pass_rate?.passes])).toEqual([
      ['aaaa', 4, 4, 3],
      ['bbbb', 5, 4, 3],
    ]);
    for (const [i, r] of doc.revisions.entries()) {
      const row = cells(table[i + 2]!);
      expect(row[0]).toBe(r.workflow_rev);
      expect(row[2]).toBe(`${r.judged}/${r.runs}`);
      expect(row[3]).toBe(`${Math.round(r.pass_rate!.rate * 100)}% (${Math.round(r.pass_rate!.low * 100)}–${Math.round(r.pass_rate!.high * 100)})`);
      expect(row[4]).toBe(r.mean_overall!.toFixed(2));
    }
    expect(doc.revisions[0]!.versus_previous).toBeNull();
    expect(doc.revisions[1]!.versus_previous).toMatchObject({ regressions: 0, improvements: 0 });
  });

  it('show: the run, its verdict, files and review.md as the text shows them', async () => {
    const listed = expectDocument(RunsJson, await jsonOf(runs, { batch: NEW, status: 'completed', limit: 1 }));
    const runId = listed.runs[0]!.run_id;
    const { table, json } = await bothForms(show, { runId }, root);
    const doc = expectDocument(ShowJson, json);
    expect(doc.run).toEqual(listed.runs[0]);
    expect(table).toContain(`run       ${doc.run.run_id}`);
    expect(table).toContain(`status    ${doc.run.status}, ${doc.run.result}, overall ${doc.run.overall}`);
    const score = doc.score!;
    expect(table).toContain(`scores    compliance ${score.compliance}, execution quality ${score.execution_quality}, overall ${score.overall} (judge ${score.judge_model})`);
    expect(doc.isolation).toBe('none');
    for (const file of doc.files) expect(table).toContain(`  ${file.exists ? '✓' : '✗'} ${relative(root, file.path)}`);
    expect(doc.files.filter((f) => f.exists).map((f) => f.name)).toEqual(['review.md']);
    expect(doc.review_md).toBe(`# ${runId}\n\nverdict ${doc.run.result}\n`);
  });

  it('compare: every case with the label, judged counts and difference of its table row; the exit code of the table', async () => {
    const { table, json, code } = await bothForms(compare, { a: OLD, b: NEW }, root);
    expect(code).toBe(0);
    const doc = expectDocument(CompareJson, json);
    expect(doc.a).toMatchObject({ label: OLD, runs: 4, completed: 4, passes: 3 });
    expect(doc.b).toMatchObject({ label: NEW, runs: 5, completed: 4, passes: 3, uncounted: { infra_error: 1 } });
    expect(doc.cases.map((c) => c.case_id).sort()).toEqual(['c1', 'c2']);
    for (const c of doc.cases) {
      const row = cells(table.find((line) => cells(line)[1] === c.case_id)!);
      expect(row[0]).toBe(c.label);
      expect(row[2]).toBe(`${c.a?.completed ?? 0}/${c.b?.completed ?? 0}`);
      expect(c.reason).toBeNull();
    }
    expect(doc.labels).toMatchObject({ insufficient_data: 2 });
    expect(doc.trigger_quality).toEqual({ a: {}, b: {} });
  });

  it('plan: the runs per side and cost of each case of the table', async () => {
    const { table, json } = await bothForms(plan, { detect: 0.3 }, root);
    const doc = expectDocument(PlanJson, json);
    expect(doc).toMatchObject({ batch_id: NEW, arm: null, detect: 0.3, power: 0.8, alpha: 0.05 });
    for (const c of doc.cases) {
      const row = cells(table.find((line) => line.startsWith(`${c.case_id} `))!);
      expect(row[1]).toBe(c.pass_rate === null ? '–' : `${Math.round(c.pass_rate * 100)}% (${c.passes}/${c.judged})`);
      expect(row[2]).toBe(c.runs_per_side === null ? '–' : String(c.runs_per_side));
    }
    expect(cells(table.find((line) => line.startsWith('total '))!)[1]).toBe(String(doc.totals.runs_per_side));
  });
});

async function jsonOf<O extends { json?: boolean }>(command: (options: O, io: ReturnType<typeof memoryIo>) => Promise<number>, options: NoInfer<O>): Promise<unknown> {
  const io = memoryIo(root, {});
  expect(await command({ ...options, json: true }, io)).toBe(0);
  return JSON.parse(io.stdout.join('\n'));
}
