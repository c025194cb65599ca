import { describe, expect, it } from 'vitest';
import { triggerQuality, triggerQualityLines, type TriggerObservation } from '../../src/summaries/index.js';
import type { UsageFlag, WorkflowUsageRow } from '../../src/workflowUsage/index.js';

const invoked = (item: string, state: UsageFlag): WorkflowUsageRow => ({ item, kind: 'skill', name: item.slice('skills/'.length), loaded: state, invoked: state, first_turn: state === 'yes' ? 1 : null, evidence: null });
const run = (must_use: string[], must_not_use: string[], rows: WorkflowUsageRow[]): TriggerObservation => ({ expectation: { must_use, must_not_use }, usage: rows });

describe('triggerQuality', () => {
  it('counts a small bank by hand: precision 2/3, recall 2/4, F1 4/7', () => {
    const bank: TriggerObservation[] = [
      run(['skills/hotfix'], ['skills/release'], [invoked('skills/hotfix', 'yes'), invoked('skills/release', 'no')]), // hotfix TP, release TN
      run(['skills/hotfix'], [], [invoked('skills/hotfix', 'no')]), // FN
      run(['skills/hotfix', 'rules/testing'], [], [invoked('skills/hotfix', 'yes')]), // TP; the rule is not a skill
      run(['skills/hotfix'], [], [invoked('skills/hotfix', 'no')]), // FN
      run([], ['skills/hotfix'], [invoked('skills/hotfix', 'yes')]), // FP: the near miss fired
      run([], ['skills/hotfix'], [invoked('skills/hotfix', 'no')]), // TN
      run([], ['skills/hotfix'], [invoked('skills/hotfix', 'unknown')]), // inlined: in no count
      { expectation: undefined, usage: [invoked('skills/hotfix', 'yes')] }, // a case silent on the skill says nothing
    ];
    const quality = triggerQuality(bank);
    expect(Object.keys(quality)).toEqual(['skills/hotfix', 'skills/release']);
    expect(quality['skills/hotfix']).toEqual({ truePositives: 2, falsePositives: 1, falseNegatives: 2, trueNegatives: 1, unknown: 1, precision: 2 / 3, recall: 0.5, f1: expect.closeTo(4 / 7, 12) });
    // Only a true negative: nothing fired, so precision and recall have nothing under them.
    expect(quality['skills/release']).toEqual({ truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 1, unknown: 0, precision: null, recall: null, f1: null });
    expect(triggerQualityLines('with_workflow', quality)).toEqual([
      'trigger quality (with_workflow):',
      '  skills/hotfix  precision 0.67  recall 0.50  F1 0.57  (tp 2 fp 1 fn 2 tn 1, 1 unknown)',
      '  skills/release  precision –  recall –  F1 –  (tp 0 fp 0 fn 0 tn 1, 0 unknown)',
    ]);
  });

  it('a skill that never fires where it must has recall 0 and F1 0', () => {
    const quality = triggerQuality([run(['skills/a'], [], [invoked('skills/a', 'no')]), run([], ['skills/a'], [invoked('skills/a', 'yes')])]);
    expect(quality['skills/a']).toMatchObject({ precision: 0, recall: 0, f1: 0 });
  });

  it('counts an observation of several runs as that many runs', () => {
    const fired = run(['skills/a'], ['skills/b'], [invoked('skills/a', 'yes'), invoked('skills/b', 'unknown')]);
    const missed = run(['skills/a'], [], [invoked('skills/a', 'no')]);
    expect(triggerQuality([{ ...fired, runs: 3 }, { ...missed, runs: 2 }])).toEqual(triggerQuality([fired, fired, fired, missed, missed]));
    expect(triggerQuality([{ ...fired, runs: 3 }])['skills/a']).toMatchObject({ truePositives: 3 });
  });
});
