import { describe, expect, it } from 'vitest';
import { planEntries } from '../../src/run/batchPlan.js';
import { roundOffsets, roundResults } from '../../src/run/decisionRounds.js';
import { startDecisions } from '../../src/run/untilDecided.js';

describe('decision rounds over the plan', () => {
  const cases = ['alpha', 'beta', 'gamma'].map((id) => ({ id, dir: `/bank/${id}`, sha256: `h-${id}` }));

  it('finds each open case’s attempt of a round in the plan, both arms side by side', () => {
    const plan = planEntries(cases, 5, ['A', 'B']);
    const decisions = startDecisions(cases.map((c) => c.id));
    decisions[1] = { ...decisions[1]!, stopped: { label: 'regression', stoppedBy: 'evidence', why: 'w' } };
    const offsets = roundOffsets(decisions, 3, 5, 2);
    expect(offsets.map((o) => o.caseId)).toEqual(['alpha', 'gamma']);
    for (const { caseId, offset } of offsets) {
      expect(plan.slice(offset, offset + 2).map((e) => [e.case_id, e.k, e.arm])).toEqual([
        [caseId, 3, 'A'],
        [caseId, 3, 'B'],
      ]);
    }
    expect(() => roundOffsets(decisions, 6, 5, 2)).toThrow('round 6 is not in 1..5');
  });

  it('pairs a round’s runs by arm, a side without a judged run as null', () => {
    expect(
      roundResults(
        [
          { caseId: 'alpha', arm: 'B', result: 'fail' },
          { caseId: 'alpha', arm: 'A', result: 'pass' },
          { caseId: 'beta', arm: 'A', result: null },
          { caseId: 'beta', arm: 'B', result: 'pass' },
        ],
        'A',
        'B',
      ),
    ).toEqual([
      { caseId: 'alpha', a: 'pass', b: 'fail' },
      { caseId: 'beta', a: null, b: 'pass' },
    ]);
  });
});
