import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { CompareJson } from '../../src/cli/json/compare.js';
import { COMPARE_EXIT, run as compare } from '../../src/commands/compare.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { bothForms, cells, expectDocument } from '../cli/json/support.js';
import { DRIFTS_AND_IMPROVES, seedDecidedBatch } from '../support/decidedBatch.js';

const DECIDED = 'batch-20260305T000000-decide';
const RUNNING = 'batch-20260306T000000-runnin';
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
});
