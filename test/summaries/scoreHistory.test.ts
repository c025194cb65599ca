import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { renderScoreHistoryLines, type ScoreHistoryLine } from '../../src/summaries/scoreHistory.js';

const line = (over: Partial<ScoreHistoryLine>): ScoreHistoryLine => ({
  eval_set_id: 'add-truncate',
  version: 'v1',
  result: 'pass',
  overall: 4.25,
  compliance: 4,
  execution_quality: null,
  workflow_rev: 'a1b2c3d',
  run_id: 'run-add-truncate-solver@20260101T000000+A-1',
  batch_id: 'batch-20260101T000000-abcdef',
  candidate: 'solver',
  model: 'gpt-4o',
  arm: null,
  judged_at: '2026-01-01T00:00:01.000Z',
  ...over,
});

describe('score-history.yaml', () => {
  it('reads back exactly what was written, whatever a string holds', () => {
    const nasty = ['yes', 'No', 'null', 'true', '~', '1.0', '0x1f', '1e3', '2026-01-01', 'a: b', 'a:b', '- x', '#c', 'x #c', "it's", '"q"', 'multi\nline', 'tab\there', 'ünïcode', '', ' lead', 'trail ', '[x]', '{x}', '*alias', '&anchor', '!tag', '%dir', '@at', '`tick`', '|', '>', '?', 'a,b', 'Y', 'off'];
    const lines = nasty.map((text, i) => line({ eval_set_id: text, workflow_rev: text, model: text, arm: text, judged_at: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z` }));
    expect(parseYaml(renderScoreHistoryLines([...lines]))).toEqual(lines);
  });

  it('sorts by judged_at then run_id, and writes an empty history as an empty list', () => {
    const lines = [line({ run_id: 'run-b', judged_at: '2026-01-02T00:00:00.000Z' }), line({ run_id: 'run-b' }), line({ run_id: 'run-a' })];
    expect((parseYaml(renderScoreHistoryLines(lines)) as ScoreHistoryLine[]).map((l) => l.run_id)).toEqual(['run-a', 'run-b', 'run-b']);
    expect(parseYaml(renderScoreHistoryLines([]))).toEqual([]);
  });
});
