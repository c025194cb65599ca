import { describe, expect, it } from 'vitest';
import { FormatError, StoreError } from '../../src/errors.js';
import type { WorkflowUsageRow } from '../../src/workflowUsage/index.js';
import { aRun, uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

const skill: WorkflowUsageRow = { item: 'skills/node-test', kind: 'skill', name: 'node-test', loaded: 'yes', invoked: 'yes', first_turn: 2, evidence: "[Turn 2] skill: node-test 'quoted'" };
const rule: WorkflowUsageRow = { item: 'rules/testing', kind: 'rule', name: 'testing', loaded: 'unknown', invoked: 'unknown', first_turn: null, evidence: null };

describe.each(BACKENDS)('workflow usage on %s', (backend) => {
  const store = useStore(backend);

  it('replaces a run\'s rows whole and reads them back per run, by item', async () => {
    const [a, b] = [uniqueId('run-usage'), uniqueId('run-usage')];
    await store().upsertRun(aRun({ run_id: a }));
    await store().upsertRun(aRun({ run_id: b }));
    await store().saveWorkflowUsage(a, [skill, rule]);
    await store().saveWorkflowUsage(a, [skill, rule]);
    await store().saveWorkflowUsage(b, [{ ...skill, invoked: 'no', first_turn: null, evidence: null, loaded: 'no' }]);
    expect(await store().getWorkflowUsage([a])).toEqual([{ run_id: a, ...rule }, { run_id: a, ...skill }]);
    await store().saveWorkflowUsage(a, [rule]);
    expect((await store().getWorkflowUsage([a, b])).map((row) => `${row.run_id === a ? 'a' : 'b'} ${row.item} ${row.invoked}`).sort()).toEqual(['a rules/testing unknown', 'b skills/node-test no']);
    expect(await store().getWorkflowUsage([])).toEqual([]);
  });

  it('keeps the run\'s placement, replaced when prepared again', async () => {
    const runId = uniqueId('run-placement');
    await store().upsertRun(aRun({ run_id: runId }));
    expect(await store().getWorkflowPlacement(runId)).toBeNull();
    const placement = { adapter: 'codex', folders: [{ folder: 'skills' as const, mode: 'native' as const, path: '.agents/skills' }] };
    await store().saveWorkflowPlacement(runId, placement);
    await store().saveWorkflowPlacement(runId, placement);
    expect(await store().getWorkflowPlacement(runId)).toEqual(placement);
  });

  it('refuses rows of a run that is not in the store, and rows out of format', async () => {
    await expect(store().saveWorkflowUsage(uniqueId('run-nope'), [skill])).rejects.toThrow(StoreError);
    const runId = uniqueId('run-usage');
    await store().upsertRun(aRun({ run_id: runId }));
    await expect(store().saveWorkflowUsage(runId, [{ ...skill, loaded: 'maybe' as never }])).rejects.toThrow(FormatError);
  });

  it('lists, per case and item asked for, the runs that loaded or invoked it; unknown and no are not use', async () => {
    const caseA = uniqueId('case-a');
    const caseB = uniqueId('case-b');
    const [a1, a2, b1] = [uniqueId('run-a1'), uniqueId('run-a2'), uniqueId('run-b1')];
    for (const [runId, caseId] of [[a1, caseA], [a2, caseA], [b1, caseB]] as const) await store().upsertRun(aRun({ run_id: runId, case_id: caseId }));
    const other = { ...skill, item: 'skills/other', name: 'other' };
    await store().saveWorkflowUsage(a1, [skill, rule]);
    await store().saveWorkflowUsage(a2, [{ ...skill, invoked: 'no' }, other]);
    // Only unknown or no: case B never used either item.
    await store().saveWorkflowUsage(b1, [{ ...skill, loaded: 'unknown', invoked: 'unknown' }, { ...other, loaded: 'no', invoked: 'no' }, rule]);
    const use = (await store().listWorkflowItemUse(['skills/node-test', 'skills/other', 'rules/testing'])).filter((u) => u.case_id === caseA || u.case_id === caseB);
    expect(use).toEqual([
      { case_id: caseA, item: 'skills/node-test', runs: 2, example_run_id: [a1, a2].sort()[1] },
      { case_id: caseA, item: 'skills/other', runs: 1, example_run_id: a2 },
    ]);
    expect(await store().listWorkflowItemUse([])).toEqual([]);
  });
});
