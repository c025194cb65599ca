import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { CompareJson } from '../../src/cli/json/compare.js';
import { COMPARE_EXIT, run as compare } from '../../src/commands/compare.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { bothForms, cells, expectDocument } from '../cli/json/support.js';
import { DRIFTS_AND_IMPROVES, seedDecidedBatch } from '../support/decidedBatch.js';
import { aHistoryRun } from '../support/historyRun.js';

const DECIDED = 'batch-20260305T000000-decide';
const RUNNING = 'batch-20260306T000000-runnin';
/** Ran until decided and ended before batches kept their decisions. */
const OLD = 'batch-20260301T000000-old';
/** A plain batch, 8 runs of each case, to compare an until-decided arm against. */
const PLAIN = 'batch-20260307T000000-plain';
let root: string;

/**
 * `evalflow compare --batch` of a batch run until decided, over an embedded store: the labels are
 * the sequential test's as stored when the batch ended (drifts undecided at its limit, where
 * Fisher's test on its 12/12 → 7/12 would say regression), read either way round.
 */
beforeAll(async () => {
  root = await tempDir('evalflow-decided-');
  const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  try {
    await seedDecidedBatch(store, root, DECIDED, DRIFTS_AND_IMPROVES);
    // Still running: its row names its limits, and it stored no decision yet.
    await store.upsertBatch({ batch_id: RUNNING, status: 'running', spec: { until_decided: { a: 'base', b: 'new', max_runs_per_case: 12 } } });
    await store.upsertRun({ run_id: 'run-c-x@20260306T000000-1+base', batch_id: RUNNING, case_id: 'c', case_version: 'v1', case_hash: 'h', candidate: 'x', candidate_adapter: 'command', run_dir: join(root, 'r1'), arm: 'base', status: 'completed' });
    await store.upsertRun({ run_id: 'run-c-x@20260306T000000-1+new', batch_id: RUNNING, case_id: 'c', case_version: 'v1', case_hash: 'h', candidate: 'x', candidate_adapter: 'command', run_dir: join(root, 'r2'), arm: 'new', status: 'completed' });
    await store.upsertBatch({ batch_id: OLD, status: 'completed', spec: { until_decided: { a: 'base', b: 'new', max_runs_per_case: 12 } } });
    await store.upsertBatch({ batch_id: PLAIN, status: 'completed', spec: {} });
    for (const [batchId, arms] of [[OLD, ['base', 'new']], [PLAIN, [undefined]]] as const) {
      for (const caseId of ['drifts', 'improves']) {
        for (const arm of arms) {
          for (let i = 1; i <= 8; i++) {
            const runId = `run-${caseId}-${batchId}-${i}${arm ? `+${arm}` : ''}`;
            await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'x', status: 'completed', attempt_index: i, run_dir: join(root, 'runs', runId), ...(arm ? { arm } : {}) }));
            await store.saveScore(runId, { result: i <= 4 ? 'pass' : 'fail', overall: 3, judge_model: 'j', judged_at: new Date(Date.UTC(2026, 2, 7, 0, 0, i)).toISOString() });
          }
        }
      }
    }
    // drifts was calibrated (the version both batches ran): 8 of 10 runs passed.
    await store.saveCalibration({ batch_id: 'batch-aa', case_id: 'drifts', case_hash: 'h-drifts', candidate: 'x', workflow_rev: null, runs: 10, passes: 8, judged_twice: 0, judge_flip: null, cost_per_run: null, calibrated_at: '2026-03-04T00:00:00.000Z' });
  } finally {
    await store.close();
  }
});

describe('compare --batch of a batch run until decided', () => {
  it("labels each case by the sequential test, says so, and keeps Fisher's p out", async () => {
    const { table, json, code } = await bothForms(compare, { a: 'base', b: 'new', batch: DECIDED }, root);
    expect(code).toBe(COMPARE_EXIT.ok);
    const doc = expectDocument(CompareJson, json);
    expect(doc.method).toBe('sequential_test');
    expect(doc.sequential).toEqual({ alpha: 0.05, max_runs_per_case: 12 });
    expect(doc.mcnemar).toBeNull();
    expect(doc.cases.map((c) => [c.case_id, c.label, c.p, c.decision?.stopped_by, c.decision?.runs_a_side])).toEqual([
      ['improves', 'improvement', null, 'evidence', 11],
      ['drifts', 'insufficient_data', null, 'limit', 12],
    ]);
    expect(doc.cases[1]!.a).toMatchObject({ completed: 12, passes: 12 });
    expect(doc.cases[1]!.b).toMatchObject({ completed: 12, passes: 7 });
    expect(table.join('\n')).toContain('labels from the sequential test (α 0.05, at most 12 runs a side per case; docs/how-many-runs.md)');
    const drifts = cells(table.find((line) => cells(line)[1] === 'drifts')!);
    expect(drifts[0]).toBe('insufficient_data');
    expect(drifts.at(-1)).toMatch(/^12 runs a side, per-case limit: reached the limit of 12 pairs/);
  });

  it('turns the labels and differences around when B is named first', async () => {
    const io = memoryIo(root, {});
    await compare({ a: 'new', b: 'base', batch: DECIDED, json: true }, io);
    const doc = CompareJson.parse(JSON.parse(io.stdout.join('\n')));
    const improves = doc.cases.find((c) => c.case_id === 'improves')!;
    expect(improves.label).toBe('regression');
    expect(improves.difference).toBeLessThan(0);
    expect(improves.difference_interval!.high).toBeLessThan(0);
    expect(improves.decision).toMatchObject({ only_a: 6, only_b: 0 });
  });

  it('reads batch:arm sides the same way, and anything but the two arms with Fisher as before', async () => {
    const method = async (a: string, b: string) => {
      const io = memoryIo(root, {});
      await compare({ a, b, json: true }, io);
      return CompareJson.parse(JSON.parse(io.stdout.join('\n'))).method;
    };
    expect(await method(`${DECIDED}:base`, `${DECIDED}:new`)).toBe('sequential_test');
    expect(await method(`${DECIDED}:base`, `${DECIDED}:base`)).toBe('fisher_exact');
  });

  it('refuses a batch run until decided that stored no decision yet, instead of testing its runs so far', async () => {
    const io = memoryIo(root, {});
    expect(await compare({ a: 'base', b: 'new', batch: RUNNING }, io)).toBe(COMPARE_EXIT.nothingComparable);
    expect(io.stderr).toEqual([`error: compare: batch ${RUNNING} runs until decided and has stored no decisions yet (status running); its labels come from the sequential test as it ends (\`evalflow attach ${RUNNING}\`)`]);
  });

  it('refuses a batch that ran until decided and ended without storing decisions, saying it has none', async () => {
    const io = memoryIo(root, {});
    expect(await compare({ a: 'base', b: 'new', batch: OLD }, io)).toBe(COMPARE_EXIT.nothingComparable);
    expect(io.stderr).toEqual([
      `error: compare: batch ${OLD} ran until decided and stored no sequential decisions (status completed: it ended before evalflow kept them); its arms get no labels from a test of their accumulated runs (see summaries/compare-${OLD}.md if it wrote one)`,
    ]);
  });

  it("labels an until-decided arm against another batch by Fisher's test and says so, naming the comparison the stored decisions answer", async () => {
    const { table, json } = await bothForms(compare, { a: `${DECIDED}:new`, b: PLAIN }, root);
    const doc = expectDocument(CompareJson, json);
    expect(doc.method).toBe('fisher_exact');
    expect(doc.cases.every((c) => c.decision === null && c.p !== null)).toBe(true);
    const note = `side A (${DECIDED}:new) is of batch ${DECIDED}, run until decided: its runs stopped when the sequential test of its own arms decided (\`evalflow compare ${DECIDED}:base ${DECIDED}:new\` gives those labels); these labels are Fisher's exact test on its runs, which that stopping skews: read them as approximate`;
    expect(doc.method_notes).toEqual([note]);
    expect(table).toContain(`note: ${note}`);
  });

  it('says an until-decided batch without stored decisions has none when its runs are compared with Fisher', async () => {
    const io = memoryIo(root, {});
    await compare({ a: PLAIN, b: `${OLD}:new`, json: true }, io);
    const doc = CompareJson.parse(JSON.parse(io.stdout.join('\n')));
    expect(doc.method).toBe('fisher_exact');
    expect(doc.method_notes).toEqual([
      `side B (${OLD}:new) is of batch ${OLD}, run until decided, and stored no sequential decisions (it ended before evalflow kept them); these labels are Fisher's exact test on its runs, whose counts were chosen while looking: read them as approximate`,
    ]);
    // Two batches that did not run until decided: nothing to say.
    const plain = memoryIo(root, {});
    await compare({ a: PLAIN, b: PLAIN, json: true }, plain);
    expect(CompareJson.parse(JSON.parse(plain.stdout.join('\n'))).method_notes).toEqual([]);
  });

  it('gives the calibrated noise floor in --json as the text does', async () => {
    const { table, json } = await bothForms(compare, { a: 'base', b: 'new', batch: DECIDED }, root);
    const doc = expectDocument(CompareJson, json);
    // 8 of 10: 16 of 45 pairs disagree; drifts ran 12 runs a side, improves was never calibrated.
    expect(doc.noise_floor.map((f) => [f.case_id, f.case_hash, f.calibrated_by, f.runs_a, f.runs_b, f.judge_flip])).toEqual([['drifts', 'h-drifts', 'batch-aa', 12, 12, null]]);
    expect(doc.noise_floor[0]!.flip_rate).toBeCloseTo(16 / 45, 12);
    const spread = 1.959964 * Math.sqrt((16 / 45 / 2) * (2 / 12));
    expect(doc.noise_floor[0]!.spread).toBeCloseTo(spread, 5);
    expect(table).toContain(`  drifts  flips 36% of pairs (11%…50%): two identical sides with 12/12 runs differ by up to ±${Math.round(100 * spread)} points (calibrated by batch-aa)`);
  });
});
