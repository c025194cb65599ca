import { describe, expect, it } from 'vitest';
import { JudgeError } from '../../src/errors.js';
import { parseJudgeAnswer } from '../../src/judge/index.js';
import { GOOD_ANSWER } from './builders.js';

describe('parseJudgeAnswer', () => {
  it('takes valid YAML as is', () => {
    const parsed = parseJudgeAnswer(GOOD_ANSWER);
    expect(parsed.salvaged).toBe(false);
    expect(parsed.notes).toEqual([]);
    expect(parsed.answer).toEqual({
      reasoning: "Turn 1 runs go test; it's green. Only greet.go was edited.",
      result: 'pass',
      compliance: 4,
      execution_quality: 3.5,
      overall: 4,
      summary: 'Fixed the greeting and ran the tests.',
      hard_requirements: [
        { item: 'Runs the tests before answering', met: true, evidence: '[Turn 1][candidate.tool_call.completed] shell: go test ./... → exit=0' },
        { item: 'Edits only greet.go', met: true, evidence: '[Turn 1][candidate.tool_call.completed] edit: greet.go' },
      ],
      suggestions: ['[workflow] Ask the test skill to print the failing test name.', '[eval] Say which Go version the sandbox uses.'],
    });
  });

  it('strips a ```yaml fence and the prose around it', () => {
    const parsed = parseJudgeAnswer(`Here is my verdict:\n\n\`\`\`yaml\n${GOOD_ANSWER}\`\`\`\nThanks.`);
    expect(parsed.salvaged).toBe(false);
    expect(parsed.answer.overall).toBe(4);
  });

  it('prefers the fence that holds the verdict over an earlier snippet', () => {
    const parsed = parseJudgeAnswer(`The candidate wrote:\n\`\`\`\nfoo: bar\n\`\`\`\nVerdict:\n\`\`\`yml\n${GOOD_ANSWER}\`\`\``);
    expect(parsed.salvaged).toBe(false);
    expect(parsed.answer.result).toBe('pass');
  });

  it('reads an answer whose closing fence was cut off', () => {
    const parsed = parseJudgeAnswer(`\`\`\`yaml\n${GOOD_ANSWER}`);
    expect(parsed.salvaged).toBe(false);
    expect(parsed.answer.hard_requirements).toHaveLength(2);
  });

  it('accepts quoted numbers and quoted booleans without salvage', () => {
    const answer = GOOD_ANSWER.replace('compliance: 4', "compliance: '3.5'").replace('met: true', "met: 'false'");
    const parsed = parseJudgeAnswer(answer);
    expect(parsed.salvaged).toBe(false);
    expect(parsed.answer.compliance).toBe(3.5);
    expect(parsed.answer.hard_requirements[0]?.met).toBe(false);
  });

  it('salvages an answer an unquoted colon broke', () => {
    const broken = `reasoning: The agent ran: go test, and it passed
result: fail
compliance: '2.5'
execution_quality: 3
overall: 2   # weak
summary: Tests ran: but the edit touched main.go too
hard_requirements:
  - item: Runs the tests before answering
    met: true
    evidence: Turn 2: shell go test → exit=0
  - item: 'Edits only greet.go'
    met: no
    evidence: 'Turn 3: edit main.go'
suggestions:
  - '[workflow] Remind the agent to keep edits scoped.'
  - [capability] Keeps editing files it was told to leave alone
`;
    const parsed = parseJudgeAnswer(broken);
    expect(parsed.salvaged).toBe(true);
    expect(parsed.notes[0]).toMatch(/^judge answer is not valid YAML: Nested mappings are not allowed in compact mappings at line 1/);
    expect(parsed.answer).toEqual({
      reasoning: 'The agent ran: go test, and it passed',
      result: 'fail',
      compliance: 2.5,
      execution_quality: 3,
      overall: 2,
      summary: 'Tests ran: but the edit touched main.go too',
      hard_requirements: [
        { item: 'Runs the tests before answering', met: true, evidence: 'Turn 2: shell go test → exit=0' },
        { item: 'Edits only greet.go', met: false, evidence: 'Turn 3: edit main.go' },
      ],
      suggestions: [
        '[workflow] Remind the agent to keep edits scoped.',
        '[capability] Keeps editing files it was told to leave alone',
      ],
    });
  });

  it('salvages multi-line strings and undoubled quotes line by line', () => {
    const broken = `reasoning: 'The candidate's first step: it read greet.go
  and then ran the tests.'
result: 'pass'
compliance: 4
execution_quality: 4
overall: 5
summary: 'ok'
hard_requirements: []
suggestions: []
`;
    const parsed = parseJudgeAnswer(broken);
    expect(parsed.salvaged).toBe(true);
    expect(parsed.answer.reasoning).toBe("The candidate's first step: it read greet.go and then ran the tests.");
    expect(parsed.answer.result).toBe('pass');
    expect(parsed.answer.hard_requirements).toEqual([]);
    expect(parsed.notes).toHaveLength(1);
    expect(parsed.notes[0]).toMatch(/^judge answer is not valid YAML: /);
  });

  it('drops a suggestion without a valid tag, keeping the rest of a valid answer', () => {
    const answer = GOOD_ANSWER.replace("  - '[eval] Say which Go version the sandbox uses.'", "  - 'Add more tests'");
    const parsed = parseJudgeAnswer(answer);
    expect(parsed.salvaged).toBe(true);
    expect(parsed.notes).toEqual([
      "judge answer: suggestions.1: expected a suggestion starting with [workflow], [eval] or [capability], found 'Add more tests'",
      "salvage: suggestions.1: no [workflow], [eval] or [capability] prefix; dropped 'Add more tests'",
    ]);
    expect(parsed.answer.suggestions).toEqual(['[workflow] Ask the test skill to print the failing test name.']);
    expect(parsed.answer.hard_requirements).toHaveLength(2);
    expect(parsed.answer.execution_quality).toBe(3.5);
  });

  it('sets a missing score to 0 and leaves an unreadable met not assessed (never not met), with notes', () => {
    const answer = GOOD_ANSWER.replace('overall: 4\n', '').replace('    met: true\n', '    met: maybe\n');
    const parsed = parseJudgeAnswer(answer);
    expect(parsed.salvaged).toBe(true);
    expect(parsed.answer.overall).toBe(0);
    expect(parsed.answer.hard_requirements[0]).toMatchObject({ item: 'Runs the tests before answering', met: null });
    expect(parsed.notes).toContain('salvage: overall not found in the judge answer; set to 0');
    expect(parsed.notes).toContain('salvage: hard_requirements.0: met unreadable (found "maybe"); not assessed');
  });

  it('keeps what was wrong apart from what salvage did, for the re-ask', () => {
    const parsed = parseJudgeAnswer(GOOD_ANSWER.replace('overall: 4\n', ''));
    expect(parsed.problems).toEqual(['judge answer: overall: Invalid input: expected number, received undefined']);
    expect(parsed.notes).toEqual([...parsed.problems, 'salvage: overall not found in the judge answer; set to 0']);
    expect(parseJudgeAnswer(GOOD_ANSWER).problems).toEqual([]);
  });

  it('salvages an answer that gives scores but no result, leaving the result to a person', () => {
    const parsed = parseJudgeAnswer('result: maybe\noverall: 3\n');
    expect(parsed.salvaged).toBe(true);
    expect(parsed.answer).toMatchObject({ result: null, overall: 3, compliance: 0 });
    expect(parsed.notes).toContain('salvage: result not found in the judge answer; left for a person to decide');
  });

  it('ignores hard_requirements that are not a list, with a note', () => {
    const answer = GOOD_ANSWER.replace(/hard_requirements:[\s\S]*?suggestions:/, "hard_requirements: 'all met'\nsuggestions:");
    const parsed = parseJudgeAnswer(answer);
    expect(parsed.salvaged).toBe(true);
    expect(parsed.answer.hard_requirements).toEqual([]);
    expect(parsed.notes).toEqual([
      'judge answer: hard_requirements: Invalid input: expected array, received string',
      'salvage: hard_requirements is not a list; ignored',
    ]);
  });

  it('reads the result case-insensitively when salvaging', () => {
    const parsed = parseJudgeAnswer('Verdict follows.\nresult: PASS\noverall: 4/5\n');
    expect(parsed.salvaged).toBe(true);
    expect(parsed.answer.result).toBe('pass');
    expect(parsed.answer.overall).toBe(4);
  });

  it('throws a JudgeError with an excerpt when no result can be found', () => {
    const garbage = 'I think the candidate did fine overall: it ran tests. Score: good!';
    expect(() => parseJudgeAnswer(garbage)).toThrow(JudgeError);
    expect(() => parseJudgeAnswer(garbage)).toThrow(
      "judge answer could not be read: expected a line 'result: pass' or 'result: fail', found none " +
        '(judge answer is not valid YAML: Nested mappings are not allowed in compact mappings at line 1, column 41:). ' +
        `Answer begins: "${garbage}"`,
    );
  });

  it('throws a JudgeError for a result that is neither pass nor fail, and no score', () => {
    expect(() => parseJudgeAnswer('result: maybe\nsummary: fine\n')).toThrow(/judge answer could not be read.*Answer begins: "result: maybe summary: fine"/);
  });

  it('throws a JudgeError for an empty answer', () => {
    expect(() => parseJudgeAnswer('```yaml\n```')).toThrow('judge answer is empty: expected a YAML verdict, found no text');
  });

  it('cuts the excerpt of a long answer to 200 characters', () => {
    const error = (() => {
      try {
        parseJudgeAnswer('word '.repeat(100));
      } catch (caught) {
        return caught as Error;
      }
      return undefined;
    })();
    expect(error?.message).toMatch(/Answer begins: "(word ){40}…"$/);
  });
});
