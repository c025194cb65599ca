import { describe, expect, it } from 'vitest';
import type { EvalCase } from '../../src/evalset/schema.js';
import { changedOnlyLines, pickChangedCases } from '../../src/run/changedOnly.js';
import { describeChangedOnly } from '../../src/vocabulary/changedOnly.js';

/** Only the fields the pick reads: the id and the expectation. */
function aCase(id: string, expectWorkflow?: { must_use?: string[]; must_not_use?: string[] }): EvalCase {
  return { id, meta: { ...(expectWorkflow ? { expect_workflow: { must_use: [], must_not_use: [], ...expectWorkflow } } : {}) } } as EvalCase;
}

const CHANGED = { commit: 'abcdef0123456789', items: ['skills/alpha', 'rules/style'] };

describe('pickChangedCases', () => {
  it('picks the cases that expect a changed item or whose recorded runs used one, and says why for every case', () => {
    const cases = [aCase('expects-alpha', { must_use: ['skills/alpha'] }), aCase('avoids-alpha', { must_not_use: ['skills/alpha'] }), aCase('used-style'), aCase('expects-beta', { must_use: ['skills/beta'] }), aCase('plain')];
    const use = [
      { case_id: 'used-style', item: 'rules/style', runs: 3, example_run_id: 'run-used-style-x@1' },
      { case_id: 'expects-beta', item: 'skills/beta', runs: 2, example_run_id: 'run-expects-beta-x@1' },
    ];
    const scope = pickChangedCases(cases, 'HEAD~1', CHANGED, use);
    expect(scope).toEqual({
      since: 'HEAD~1',
      commit: CHANGED.commit,
      changed: CHANGED.items,
      picked: [
        { case_id: 'expects-alpha', why: 'expect_workflow.must_use names skills/alpha' },
        { case_id: 'avoids-alpha', why: 'expect_workflow.must_not_use names skills/alpha' },
        { case_id: 'used-style', why: '3 recorded runs used rules/style (e.g. run-used-style-x@1)' },
      ],
      skipped: [
        { case_id: 'expects-beta', why: 'expects none of the changed items, and no recorded run used one' },
        { case_id: 'plain', why: 'expects none of the changed items, and no recorded run used one' },
      ],
    });
    expect(describeChangedOnly(scope)).toBe('--changed-only HEAD~1 (abcdef0): 3 of 5 cases, those a change of skills/alpha, rules/style can affect');
    expect(changedOnlyLines(scope)).toEqual([
      '--changed-only HEAD~1 (abcdef0): changed skills/alpha, rules/style',
      '  runs   expects-alpha: expect_workflow.must_use names skills/alpha',
      '  runs   avoids-alpha: expect_workflow.must_not_use names skills/alpha',
      '  runs   used-style: 3 recorded runs used rules/style (e.g. run-used-style-x@1)',
      '  skips  expects-beta: expects none of the changed items, and no recorded run used one',
      '  skips  plain: expects none of the changed items, and no recorded run used one',
    ]);
  });

  it('skips every case when no workflow item changed', () => {
    const scope = pickChangedCases([aCase('expects-alpha', { must_use: ['skills/alpha'] })], 'main', { commit: 'c0ffee0', items: [] }, []);
    expect(scope.picked).toEqual([]);
    expect(scope.skipped).toEqual([{ case_id: 'expects-alpha', why: 'no workflow item changed' }]);
  });
});
