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
});
