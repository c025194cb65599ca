import { describe, expect, it } from 'vitest';
import { parseOrThrow } from '../../src/format.js';
import { aScore } from './builders.js';
import { ScoreSchema } from '../../src/vocabulary/score.js';
import { suggestionTag } from '../../src/vocabulary/suggestions.js';

describe('suggestionTag', () => {
  it('reads the three tags and nothing else', () => {
    expect(suggestionTag('[workflow] add a rule')).toBe('workflow');
    expect(suggestionTag('[eval] clarify the task')).toBe('eval');
    expect(suggestionTag('[capability]model cannot count')).toBe('capability');
    expect(suggestionTag('[Workflow] add a rule')).toBeUndefined();
    expect(suggestionTag('[tooling] add a rule')).toBeUndefined();
    expect(suggestionTag('[eval]   ')).toBeUndefined();
    expect(suggestionTag('add a rule [workflow]')).toBeUndefined();
  });
});

describe('ScoreSchema', () => {
  it('accepts a complete score and defaults notes', () => {
    const { notes: _notes, ...withoutNotes } = aScore();
    expect(ScoreSchema.parse(withoutNotes).notes).toEqual([]);
  });

  it('rejects scores outside 0–5 and untagged suggestions, naming the field', () => {
    expect(() => parseOrThrow(ScoreSchema, aScore({ overall: 6, suggestions: ['do better'] }), 'runs/r/score.yaml')).toThrow(
      "runs/r/score.yaml: overall: Too big: expected number to be <=5\nruns/r/score.yaml: suggestions.0: expected a suggestion starting with [workflow], [eval] or [capability], found 'do better'",
    );
  });

  it('requires the evalflow fields on disk', () => {
    const { judge_model: _model, salvaged: _salvaged, ...partial } = aScore();
    const parsed = ScoreSchema.safeParse(partial);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['judge_model', 'salvaged']);
  });

  it('reads score.yaml of earlier versions: boolean met, no assessed, no attempts or reasons', () => {
    const old = { ...aScore(), hard_requirements: [{ item: 'Runs the tests', met: false, evidence: 'not assessed by the judge' }] } as Record<string, unknown>;
    delete old.review_reasons;
    delete old.judge_attempts;
    const read = ScoreSchema.parse(old);
    expect(read.hard_requirements).toEqual([{ item: 'Runs the tests', met: false, assessed: true, evidence: 'not assessed by the judge' }]);
    expect(read.review_reasons).toEqual([]);
    expect(read.judge_attempts).toEqual([]);
  });

  it('refuses an item whose met and assessed disagree', () => {
    const contradictory = aScore({ hard_requirements: [{ item: 'x', met: true, assessed: false, evidence: '' }] });
    expect(() => parseOrThrow(ScoreSchema, contradictory, 'score.yaml')).toThrow('score.yaml: hard_requirements.0: expected met: null exactly when assessed is false');
    expect(ScoreSchema.safeParse(aScore({ hard_requirements: [{ item: 'x', met: null, assessed: false, evidence: '' }] })).success).toBe(true);
  });
});
