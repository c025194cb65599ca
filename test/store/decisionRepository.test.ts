import { describe, expect, it } from 'vitest';
import type { BatchDecision } from '../../src/store/index.js';
import { uniqueId } from './builders.js';
import { BACKENDS, useStore } from './testBackends.js';

const decision = (caseId: string, over: Partial<BatchDecision> = {}): BatchDecision => ({
  case_id: caseId,
  arm_a: 'base',
  arm_b: 'new',
  label: 'regression',
  stopped_by: 'evidence',
  why: 'e = 21.3 reached 20.0',
  runs_a_side: 5,
  pairs: 5,
  both_passed: 0,
  only_a: 5,
  only_b: 0,
  evidence: 21.3,
  difference: -1,
  low: -1,
  high: -0.48,
  alpha: 0.05,
  max_runs_per_case: 12,
  ...over,
});

describe.each(BACKENDS)('batch decisions on %s', (backend) => {
  const store = useStore(backend);

  it('keeps one set per batch: saving again replaces it, and an open case keeps no stop', async () => {
    const batchId = uniqueId('batch-decided');
    await store().saveBatchDecisions(batchId, [decision('b-case'), decision('a-case', { label: 'insufficient_data', stopped_by: null, why: 'open', difference: null, low: null, high: null, pairs: 0, only_a: 0, evidence: 1 })]);
    expect((await store().getBatchDecisions(batchId)).map((d) => [d.case_id, d.label, d.stopped_by, d.difference])).toEqual([
      ['a-case', 'insufficient_data', null, null],
      ['b-case', 'regression', 'evidence', -1],
    ]);
    await store().saveBatchDecisions(batchId, [decision('a-case', { label: 'no_change', stopped_by: 'futility' })]);
    expect(await store().getBatchDecisions(batchId)).toEqual([decision('a-case', { label: 'no_change', stopped_by: 'futility' })]);
    expect(await store().getBatchDecisions(uniqueId('batch-other'))).toEqual([]);
  });

  it('refuses a decision whose label no comparison has, naming the batch', async () => {
    await expect(store().saveBatchDecisions('batch-x', [decision('c', { label: 'worse' as never })])).rejects.toThrow('saveBatchDecisions("batch-x"): decision 0');
  });
});
