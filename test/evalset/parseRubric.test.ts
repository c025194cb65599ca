import { describe, expect, it } from 'vitest';
import { parseRubric } from '../../src/evalset/index.js';

const FILE = 'eval_sets/demo/rubric.md';
const rubric = (hard: string, quality = '- Small diff.', failures = '- No tests.') =>
  `# Rubric\n\nNotes for authors.\n\n## Hard requirements\n\n${hard}\n\n## Quality\n\n${quality}\n\n## Common failures\n\n${failures}\n`;
const bullets = (count: number) => Array.from({ length: count }, (_, i) => `- item ${i + 1}`).join('\n');

describe('parseRubric', () => {
  it('reads the items of all three sections', () => {
    expect(parseRubric(rubric('- A.\n- B.', '- Q1.\n- Q2.', '- F1.'), FILE)).toEqual({
      rubric: { hard: ['A.', 'B.'], quality: ['Q1.', 'Q2.'], commonFailures: ['F1.'] },
      problems: [],
    });
  });

  it('accepts -, *, + and numbered lists', () => {
    expect(parseRubric(rubric('- a\n* b\n+ c\n1. d\n2) e'), FILE).rubric?.hard).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('joins multi-line items: lazy and indented continuation lines and nested bullets', () => {
    const hard = '- The helper exists\nand is exported.\n- Tests pass:\n\n  run with `node --test`.\n  - nested detail';
    expect(parseRubric(rubric(hard), FILE).rubric?.hard).toEqual([
      'The helper exists and is exported.',
      'Tests pass: run with `node --test`. - nested detail',
    ]);
  });

  it('accepts the Chinese headings', () => {
    const text = '## 硬性通过项\n\n- 新增测试。\n\n## 质量项\n\n- 改动小。\n\n## 典型失分项\n\n- 没有运行测试。\n';
    expect(parseRubric(text, FILE).rubric).toEqual({ hard: ['新增测试。'], quality: ['改动小。'], commonFailures: ['没有运行测试。'] });
  });

  it('accepts 5 hard items', () => {
    expect(parseRubric(rubric(bullets(5)), FILE).rubric?.hard).toHaveLength(5);
  });

  it('rejects 6 hard items, with the count', () => {
    expect(parseRubric(rubric(bullets(6)), FILE).problems).toEqual([`${FILE}:5: Hard requirements: expected 1 to 5 list items, found 6`]);
  });

  it('rejects a Hard requirements section without items', () => {
    expect(parseRubric(rubric('<!-- to do -->'), FILE).problems).toEqual([
      `${FILE}:5: Hard requirements: expected 1 to 5 list items, found 0`,
    ]);
  });

  it('allows empty Quality and Common failures sections', () => {
    expect(parseRubric(rubric('- A.', '', ''), FILE).rubric).toEqual({ hard: ['A.'], quality: [], commonFailures: [] });
  });

  it('rejects free text under a heading, because the judge would never see it', () => {
    expect(parseRubric(rubric('All of these:\n\n- A.', '- Q.\n\nAlso nice: short replies.'), FILE).problems).toEqual([
      `${FILE}:7: Hard requirements: expected a list item ("- ...", "* ..." or "1. ..."), found "All of these:"`,
      `${FILE}:15: Quality: expected a list item ("- ...", "* ..." or "1. ..."), found "Also nice: short replies."`,
    ]);
  });

  it('rejects a bullet without a space after the marker', () => {
    expect(parseRubric(rubric('-A.'), FILE).problems).toEqual([
      `${FILE}:7: Hard requirements: expected a list item ("- ...", "* ..." or "1. ..."), found "-A."`,
      `${FILE}:5: Hard requirements: expected 1 to 5 list items, found 0`,
    ]);
  });

  it('rejects empty items', () => {
    expect(parseRubric(rubric('- A.\n-'), FILE).problems).toEqual([`${FILE}:8: Hard requirements: empty list item; expected text`]);
  });

  it('reports missing and unknown sections', () => {
    expect(parseRubric('## Hard requirements\n\n- A.\n\n## Scoring\n\n- x\n', FILE).problems).toEqual([
      `${FILE}:5: unknown section "## Scoring"; expected one of: "## Hard requirements" (or "## 硬性通过项"), "## Quality" (or "## 质量项"), "## Common failures" (or "## 典型失分项")`,
      `${FILE}: missing section "## Quality" (or "## 质量项")`,
      `${FILE}: missing section "## Common failures" (or "## 典型失分项")`,
    ]);
  });
});
