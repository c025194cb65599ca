import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/errors.js';
import { decideVerdict, parseJudgeAnswer } from '../../src/judge/index.js';
import { renderReview } from '../../src/run/reviewMarkdown.js';
import { buildJudgePrompt } from '../../src/judge/prompt.js';
import { parseOrThrow } from '../../src/format.js';
import { checkExpectations, checkExpectedItemsExist, listWorkflowItems, WorkflowExpectationSchema, type WorkflowUsageRow } from '../../src/workflowUsage/index.js';
import { aCheck, aJudgeInput, aRubric, GOOD_ANSWER, someFacts } from '../judge/builders.js';
import { EXAMPLE_WORKFLOW } from './usageFixture.js';

const row = (item: string, loaded: WorkflowUsageRow['loaded'], invoked: WorkflowUsageRow['invoked'], evidence: string | null = null): WorkflowUsageRow => ({
  item,
  kind: item.startsWith('skills/') ? 'skill' : item.startsWith('rules/') ? 'rule' : item.startsWith('agents/') ? 'agent' : 'command',
  name: item.split('/').slice(1).join('/'),
  loaded,
  invoked,
  first_turn: invoked === 'yes' || loaded === 'yes' ? 1 : null,
  evidence,
});

const USAGE = [row('skills/node-test', 'yes', 'yes', '[Turn 1] skill: node-test'), row('agents/reviewer', 'no', 'no'), row('rules/testing', 'unknown', 'unknown', 'rules in .claude/rules are loaded without an event')];

describe('checkExpectations', () => {
  it('a skill is used when invoked, a rule when loaded; unknown stays undecided', () => {
    const results = checkExpectations({ must_use: ['skills/node-test', 'rules/testing'], must_not_use: ['agents/reviewer'] }, USAGE);
    expect(results).toEqual([
      { item: 'uses skills/node-test (expect_workflow.must_use)', met: true, evidence: 'skills/node-test: loaded yes, invoked yes, first turn 1; [Turn 1] skill: node-test' },
      { item: 'uses rules/testing (expect_workflow.must_use)', met: null, evidence: 'rules/testing: loaded unknown, invoked unknown; rules in .claude/rules are loaded without an event' },
      { item: 'does not use agents/reviewer (expect_workflow.must_use)'.replace('must_use', 'must_not_use'), met: true, evidence: 'agents/reviewer: loaded no, invoked no' },
    ]);
    expect(checkExpectations({ must_use: ['agents/reviewer'], must_not_use: ['skills/node-test'] }, USAGE).map((r) => r.met)).toEqual([false, false]);
  });

  it('refuses an item in both lists, and a reference that is no item', () => {
    expect(() => parseOrThrow(WorkflowExpectationSchema, { must_use: ['skills/a'], must_not_use: ['skills/a'] }, 'meta.yaml')).toThrow('meta.yaml: must_not_use.0: skills/a is also in must_use; an item cannot be both');
    expect(() => parseOrThrow(WorkflowExpectationSchema, { must_use: ['node-test'] }, 'meta.yaml')).toThrow(/meta.yaml: must_use.0: expected <folder>\/<name>/);
  });

  it('an expected item missing from the snapshot is an error naming the file and field', async () => {
    const items = await listWorkflowItems(EXAMPLE_WORKFLOW);
    expect(() => checkExpectedItemsExist({ must_use: ['skills/node-test'], must_not_use: ['agents/reviewer'] }, items, 'meta.yaml')).not.toThrow();
    expect(() => checkExpectedItemsExist({ must_use: ['skills/node-tset'], must_not_use: [] }, items, 'eval_sets/x/meta.yaml')).toThrow(
      new FormatError(
        "eval_sets/x/meta.yaml: expect_workflow.must_use.0: skills/node-tset is not in the run's workflow snapshot (it has agents/reviewer, commands/add-helper, commands/fix-bug, rules/javascript-style, rules/testing, skills/node-test)",
      ),
    );
  });
});

describe('expectations in the verdict', () => {
  const base = { parsed: parseJudgeAnswer(GOOD_ANSWER), rubric: aRubric(), postconditions: [aCheck()], runId: 'run-a', caseId: 'case-a', judgeModel: 'judge' };

  it('an unmet expectation is a failed hard requirement with the usage row as evidence, forcing fail', () => {
    const expectations = checkExpectations({ must_use: ['agents/reviewer'], must_not_use: [] }, USAGE);
    const score = decideVerdict({ ...base, expectations });
    expect(score.result).toBe('fail');
    expect(score.hard_requirements.at(-1)).toEqual({ item: 'uses agents/reviewer (expect_workflow.must_use)', met: false, assessed: true, evidence: 'agents/reviewer: loaded no, invoked no' });
    expect(score.hard_requirements).toHaveLength(aRubric().hard.length + 1);
    expect(score.forced_fail_reason).toBe('workflow expectation not met: uses agents/reviewer (expect_workflow.must_use)');
    expect(score.review_reasons).toEqual([]);
  });

  it('a met expectation leaves a pass a pass; an unknown one asks a person', () => {
    expect(decideVerdict({ ...base, expectations: checkExpectations({ must_use: ['skills/node-test'], must_not_use: [] }, USAGE) })).toMatchObject({ result: 'pass', review_reasons: [] });
    const unknown = decideVerdict({ ...base, expectations: checkExpectations({ must_use: ['rules/testing'], must_not_use: [] }, USAGE) });
    expect(unknown.hard_requirements.at(-1)).toMatchObject({ met: null, assessed: false });
    expect(unknown.review_reasons).toEqual(['workflow usage the transcript cannot tell, for uses rules/testing (expect_workflow.must_use)']);
  });

  it('the judge sees the usage table and the decided expectations as evidence', () => {
    const expectations = checkExpectations({ must_use: ['skills/node-test'], must_not_use: ['agents/reviewer'] }, USAGE);
    const { user } = buildJudgePrompt(aJudgeInput({ workflowUsage: USAGE, expectations }));
    expect(user).toContain('| skills/node-test | yes | yes | 1 | [Turn 1] skill: node-test |');
    expect(user).toContain('| rules/testing | unknown | unknown | - | rules in .claude/rules are loaded without an event |');
    expect(user).toContain('- MET: uses skills/node-test (expect_workflow.must_use)\n- MET: does not use agents/reviewer (expect_workflow.must_not_use)');
    expect(user.indexOf('# Workflow used')).toBeGreaterThan(user.indexOf('# Postcondition results'));
    expect(buildJudgePrompt(aJudgeInput()).user).not.toContain('# Workflow used');
  });

  it('review.md has a "Workflow used" section with the placement', () => {
    const score = decideVerdict(base);
    const placement = { adapter: 'codex', folders: [{ folder: 'rules' as const, mode: 'inlined' as const, path: 'AGENTS.md' }, { folder: 'skills' as const, mode: 'native' as const, path: '.agents/skills' }] };
    const review = renderReview({ score, facts: someFacts(), workflowUsage: USAGE, placement });
    expect(review).toContain(
      [
        '## Workflow used',
        '1 of 3 workflow items used (placement: rules/ inlined into AGENTS.md; skills/ native at .agents/skills).',
        '',
        '| item | loaded | invoked | first turn | evidence |',
        '|---|---|---|---|---|',
        '| skills/node-test | yes | yes | 1 | [Turn 1] skill: node-test |',
      ].join('\n'),
    );
    expect(renderReview({ score, facts: someFacts() })).not.toContain('## Workflow used');
  });
});
