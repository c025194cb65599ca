import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HistoryJson } from '../../src/cli/json/history.js';
import { run as history } from '../../src/commands/history.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { bothForms, expectDocument } from '../cli/json/support.js';
import { DRIFTS_AND_IMPROVES, seedDecidedBatch } from '../support/decidedBatch.js';
import { aHistoryRun } from '../support/historyRun.js';

const DECIDED = 'batch-20260305T000000-decide';
let root: string;

/**
 * `evalflow history` over a batch run until decided (all its runs on revision abc1234) and two
 * plain batches after it (def5678, then 0aa1234): def5678 against abc1234 is Fisher's test on
 * runs whose counts the sequential test chose, and says so; 0aa1234 against def5678 takes in
 * none of them, and has no note.
 */
beforeAll(async () => {
  root = await tempDir('evalflow-history-decided-');
  const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
  try {
    await seedDecidedBatch(store, root, DECIDED, DRIFTS_AND_IMPROVES);
    for (const [batchId, rev] of [['batch-20260306T000000-plain', 'def5678'], ['batch-20260307T000000-later', '0aa1234']] as const) {
      await store.upsertBatch({ batch_id: batchId, status: 'completed', spec: {} });
      for (const caseId of ['drifts', 'improves']) {
        for (let i = 1; i <= 4; i++) {
          const runId = `run-${caseId}-${batchId}-${i}`;
          await store.upsertRun(aHistoryRun({ run_id: runId, batch_id: batchId, case_id: caseId, candidate: 'x', status: 'completed', attempt_index: i, workflow_rev: rev, run_dir: join(root, 'runs', runId) }));
          await store.saveScore(runId, { result: 'pass', overall: 4, judge_model: 'j', judged_at: '2026-03-07T00:00:00.000Z' });
        }
      }
    }
  } finally {
    await store.close();
  }
});

describe('history over a batch run until decided', () => {
  it("notes that the comparison taking in its runs is Fisher's test, approximate, in the table and --json", async () => {
    const { table, json } = await bothForms(history, {}, root);
    const doc = expectDocument(HistoryJson, json);
    expect(doc.revisions.map((r) => r.workflow_rev)).toEqual(['abc1234', 'def5678', '0aa1234']);
    const notes = doc.revisions.map((r) => r.versus_previous?.method_notes ?? null);
    expect(notes[0]).toBeNull();
    expect(notes[2]).toEqual([]);
    expect(notes[1]).toHaveLength(1);
    const note = notes[1]![0]!;
    expect(note).toMatch(new RegExp(`^side revision abc1234 \\(previous\\) takes in runs of batch ${DECIDED}, run until decided: `));
    expect(note).toContain(`\`evalflow compare ${DECIDED}:base ${DECIDED}:new\``);
    expect(note).toContain('read them as approximate');
    expect(table.filter((line) => line.startsWith('note: '))).toEqual([`note: ${note}`]);
  });
});
