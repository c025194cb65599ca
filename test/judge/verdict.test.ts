import { stringify, parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { decideVerdict, NOT_ASSESSED, parseJudgeAnswer, type ParsedJudgeAnswer, type VerdictInput } from '../../src/judge/index.js';
import { aCheck, aRubric, GOOD_ANSWER } from './builders.js';
import { ScoreSchema } from '../../src/vocabulary/score.js';

function verdictInput(overrides: Partial<VerdictInput> = {}): VerdictInput {
  return {
    parsed: parseJudgeAnswer(GOOD_ANSWER),
    rubric: aRubric(),
    postconditions: [aCheck()],
    runId: 'run-case-a-fake@20250101T000000',
    caseId: 'case-a',
    judgeModel: 'judge-model-1',
    ...overrides,
  };
}

function withAnswer(edit: (parsed: ParsedJudgeAnswer) => void): ParsedJudgeAnswer {
  const parsed = parseJudgeAnswer(GOOD_ANSWER);
  edit(parsed);
  return parsed;
}

describe('decideVerdict', () => {
  it('keeps a consistent pass and adds the evalflow fields', () => {
    const score = decideVerdict(verdictInput());
    expect(score).toMatchObject({
      result: 'pass',
      compliance: 4,
      execution_quality: 3.5,
      overall: 4,
      run_id: 'run-case-a-fake@20250101T000000',
      case_id: 'case-a',
      judge_model: 'judge-model-1',
      salvaged: false,
      notes: [],
    });
    expect(score.forced_fail_reason).toBeUndefined();
    expect('forced_fail_reason' in score).toBe(false);
  });

  it('forces fail when a hard postcondition failed, whatever the judge said', () => {
    const score = decideVerdict(
      verdictInput({
        postconditions: [
          aCheck({ description: 'the build succeeds' }),
          aCheck({ description: 'tests pass', passed: false, exit_code: 1 }),
          aCheck({ description: 'binary exists', passed: false, exit_code: null }),
        ],
      }),
    );
    expect(score.result).toBe('fail');
    expect(score.forced_fail_reason).toBe('hard postcondition failed: tests pass (exit 1); hard postcondition failed: binary exists (no exit code)');
    expect(score.hard_requirements.every((item) => item.met)).toBe(true);
  });

  it('does not force fail for a failing soft postcondition', () => {
    const score = decideVerdict(verdictInput({ postconditions: [aCheck({ severity: 'soft', passed: false, exit_code: 1 })] }));
    expect(score.result).toBe('pass');
    expect(score.forced_fail_reason).toBeUndefined();
  });

  it('turns a pass with an unmet hard item into fail, and notes it', () => {
    const parsed = withAnswer((p) => {
      const second = p.answer.hard_requirements[1];
      if (second) second.met = false;
    });
    const score = decideVerdict(verdictInput({ parsed }));
    expect(score.result).toBe('fail');
    expect(score.notes).toEqual(['judge said pass but hard requirement 2 is not met; result set to fail']);
    expect(score.forced_fail_reason).toBeUndefined();
  });

  it('keeps a fail the judge gave even when every item is met', () => {
    const parsed = withAnswer((p) => {
      p.answer.result = 'fail';
    });
    expect(decideVerdict(verdictInput({ parsed })).result).toBe('fail');
  });

  it('clamps scores to 0–5 and notes it', () => {
    const parsed = withAnswer((p) => {
      p.answer.compliance = 7;
      p.answer.overall = -1;
    });
    const score = decideVerdict(verdictInput({ parsed }));
    expect([score.compliance, score.execution_quality, score.overall]).toEqual([5, 3.5, 0]);
    expect(score.notes).toEqual(['compliance 7 is outside 0–5; clamped to 5', 'overall -1 is outside 0–5; clamped to 0']);
  });

  it('records rubric items the judge did not assess as not assessed, keeps its pass and asks for a person', () => {
    const parsed = withAnswer((p) => {
      p.answer.hard_requirements = p.answer.hard_requirements.slice(0, 1);
    });
    const score = decideVerdict(verdictInput({ parsed, requests: 3 }));
    expect(score.hard_requirements[1]).toEqual({ item: 'Edits only greet.go', met: null, assessed: false, evidence: NOT_ASSESSED });
    expect(score.result).toBe('pass');
    expect(score.notes).toEqual(['judge assessed 1 of 2 hard requirements; the missing one is recorded as not assessed (2)']);
    expect(score.review_reasons).toEqual(['hard requirement not assessed by the judge in 3 requests: 2. Edits only greet.go']);
  });

  it('finds which item a short list skipped by its text', () => {
    const parsed = withAnswer((p) => {
      p.answer.hard_requirements = p.answer.hard_requirements.slice(1).map((item) => ({ ...item, item: `2. ${item.item.toUpperCase()}.` }));
    });
    const score = decideVerdict(verdictInput({ parsed }));
    expect(score.hard_requirements.map((item) => [item.item, item.met])).toEqual([
      ['Runs the tests before answering', null],
      ['2. EDITS ONLY GREET.GO.', true],
    ]);
    expect(score.review_reasons).toEqual(['hard requirement not assessed by the judge in 1 request: 1. Runs the tests before answering']);
  });

  it('still fails a pass whose assessed items include one not met, beside items not assessed', () => {
    const parsed = withAnswer((p) => {
      p.answer.hard_requirements = [{ ...p.answer.hard_requirements[0]!, met: false }];
    });
    const score = decideVerdict(verdictInput({ parsed }));
    expect(score.result).toBe('fail');
    expect(score.hard_requirements.map((item) => item.met)).toEqual([false, null]);
    expect(score.review_reasons).toHaveLength(1);
  });

  it('needs no person when a failing hard postcondition forces fail, whatever the judge left out', () => {
    const parsed = parseJudgeAnswer('result: pass\ncompliance: 4\nexecution_quality: 4\noverall: 4\nsummary: it worked: mostly\n');
    const score = decideVerdict(verdictInput({ parsed, postconditions: [aCheck({ passed: false, exit_code: 1 })] }));
    expect(score.result).toBe('fail');
    expect(score.hard_requirements.every((item) => !item.assessed)).toBe(true);
    expect(score.review_reasons).toEqual([]);
  });

  it('asks for a person when salvage found no result', () => {
    const score = decideVerdict(verdictInput({ parsed: parseJudgeAnswer('result: maybe\noverall: 3\n') }));
    expect(score.result).toBeNull();
    expect(score.review_reasons).toContain("the judge's answer gave no result; only its scores could be read");
    expect(ScoreSchema.parse(parse(stringify(score)))).toEqual(score);
  });

  it('keeps extra items the judge added, with a note', () => {
    const score = decideVerdict(verdictInput({ rubric: aRubric({ hard: ['Runs the tests before answering'] }) }));
    expect(score.hard_requirements).toHaveLength(2);
    expect(score.result).toBe('pass');
    expect(score.notes).toEqual(['judge assessed 2 hard requirements, the rubric has 1; extra items kept']);
  });

  it('carries salvage notes and the salvaged flag, keeps the salvaged pass and asks for a person', () => {
    const parsed = parseJudgeAnswer('result: pass\ncompliance: 4\nexecution_quality: 4\noverall: 4\nsummary: it worked: mostly\n');
    const score = decideVerdict(verdictInput({ parsed, requests: 3 }));
    expect(score.salvaged).toBe(true);
    expect(score.notes[0]).toMatch(/^judge answer is not valid YAML/);
    expect(score.result).toBe('pass');
    expect(score.hard_requirements.map((item) => [item.met, item.assessed])).toEqual([
      [null, false],
      [null, false],
    ]);
    expect(score.review_reasons[0]).toMatch(/^the judge's answer could not be read whole in 3 requests \(judge answer is not valid YAML: .*\); its verdict was salvaged field by field$/);
    expect(score.review_reasons[1]).toBe('hard requirements not assessed by the judge in 3 requests: 1. Runs the tests before answering; 2. Edits only greet.go');
  });

  it('produces a score that survives score.yaml', () => {
    const score = decideVerdict(verdictInput({ postconditions: [aCheck({ passed: false, exit_code: 2 })] }));
    expect(ScoreSchema.parse(parse(stringify(score)))).toEqual(score);
  });
});
