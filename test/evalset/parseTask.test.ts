import { describe, expect, it } from 'vitest';
import { parseTask } from '../../src/evalset/index.js';

const FILE = 'eval_sets/demo/task.md';
const ACCEPTED = '"## Prompt" (or "## 题面"), "## Scenario" (or "## 场景背景"), "## Guidance" (or "## 考官指引")';

const task = (prompt: string, rest = '## Scenario\n\nA user.\n\n## Guidance\n\nEnd soon.\n') => `# Title\n\n## Prompt\n\n${prompt}\n\n${rest}`;

describe('parseTask', () => {
  it('forwards the blockquote verbatim: prefixes stripped, line breaks and inner blank lines kept', () => {
    const parsed = parseTask(task('Some note for authors.\n\n> First line,\n> second line.\n>\n>   indented `code`\n> > nested quote'), FILE);
    expect(parsed).toEqual({
      task: {
        prompt: 'First line,\nsecond line.\n\n  indented `code`\n> nested quote',
        scenario: 'A user.',
        guidance: 'End soon.',
      },
      problems: [],
    });
  });

  it('keeps multi-line Scenario and Guidance text as written', () => {
    const parsed = parseTask(task('> Hi', '## Scenario\n\nLine one.\n\n- a fact\n\n## Guidance\n\n### Turn 2\nReveal the fact.\n'), FILE);
    expect(parsed.task?.scenario).toBe('Line one.\n\n- a fact');
    expect(parsed.task?.guidance).toBe('### Turn 2\nReveal the fact.');
  });

  it('accepts the Chinese headings', () => {
    const text = '## 题面\n\n> 请修复这个问题。\n\n## 场景背景\n\n一位开发者。\n\n## 考官指引\n\n第二轮说明关键事实。\n';
    expect(parseTask(text, FILE)).toEqual({
      task: { prompt: '请修复这个问题。', scenario: '一位开发者。', guidance: '第二轮说明关键事实。' },
      problems: [],
    });
  });

  it('matches headings case-insensitively, ignoring surrounding spaces and closing hashes', () => {
    const text = '##   PROMPT  \n> Hi\n## scenario ##\nA user.\n##  Guidance\nEnd.\n';
    expect(parseTask(text, FILE).task).toEqual({ prompt: 'Hi', scenario: 'A user.', guidance: 'End.' });
  });

  it('requires a blockquote in Prompt', () => {
    expect(parseTask(task('Fix the bug please.'), FILE).problems).toEqual([
      `${FILE}:3: Prompt: expected a ">" blockquote holding the Turn 1 message, found none`,
    ]);
  });

  it('rejects two separate blockquotes', () => {
    expect(parseTask(task('> One.\n\n> Two.'), FILE).problems).toEqual([
      `${FILE}:7: Prompt: expected one blockquote, found 2 (lines 5, 7); join them with ">" lines to keep one Turn 1 message`,
    ]);
  });

  it('rejects an empty blockquote', () => {
    expect(parseTask(task('>\n>'), FILE).problems).toEqual([`${FILE}:5: Prompt: the blockquote is empty; expected the Turn 1 message`]);
  });

  it('reports every missing section', () => {
    expect(parseTask('# Only a title\n\nSome text.\n', FILE).problems).toEqual([
      `${FILE}: missing section "## Prompt" (or "## 题面")`,
      `${FILE}: missing section "## Scenario" (or "## 场景背景")`,
      `${FILE}: missing section "## Guidance" (or "## 考官指引")`,
    ]);
  });

  it('reports an unknown section with its line and the accepted headings', () => {
    const text = task('> Hi', '## Scenario\n\nA user.\n\n## Notes\n\nx\n\n## Guidance\n\nEnd.\n');
    expect(parseTask(text, FILE).problems).toEqual([`${FILE}:11: unknown section "## Notes"; expected one of: ${ACCEPTED}`]);
  });

  it('reports a repeated section', () => {
    const text = task('> Hi', '## Scenario\n\nA user.\n\n## Guidance\n\nEnd.\n\n## scenario\n\nAgain.\n');
    expect(parseTask(text, FILE).problems).toEqual([`${FILE}:15: duplicate section "## scenario" (first at line 7)`]);
  });

  it('rejects empty Scenario and Guidance sections', () => {
    expect(parseTask(task('> Hi', '## Scenario\n\n## Guidance\n<!-- to do -->\n'), FILE).problems).toEqual([
      `${FILE}:7: Scenario: the section is empty; expected text for the examiner`,
      `${FILE}:9: Guidance: the section is empty; expected text for the examiner`,
    ]);
  });

  it('ignores "## " lines inside fenced code blocks and HTML comments', () => {
    const text = task('> Hi', '## Scenario\n\n```md\n## Not a heading\n```\n\n<!--\n## Hidden\n-->\n## Guidance\n\nEnd.\n');
    const parsed = parseTask(text, FILE);
    expect(parsed.problems).toEqual([]);
    expect(parsed.task?.scenario).toBe('```md\n## Not a heading\n```');
  });

  it('does not treat ### or ##text as section headings', () => {
    const text = task('> Hi', '## Scenario\n\n### Detail\n##nospace\n\n## Guidance\n\nEnd.\n');
    expect(parseTask(text, FILE).task?.scenario).toBe('### Detail\n##nospace');
  });

  it('accepts Windows line endings', () => {
    const text = task('> Hi\n> there').replace(/\n/g, '\r\n');
    expect(parseTask(text, FILE).task?.prompt).toBe('Hi\nthere');
  });
});
