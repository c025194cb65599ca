import { describe, expect, it } from 'vitest';
import { buildJudgePrompt, JUDGE_SYSTEM_PROMPT, judgeMessages } from '../../src/judge/index.js';
import { aCheck, aJudgeInput, anEvent, aRubric, someFacts } from './builders.js';

describe('judge system prompt', () => {
  it('shows the YAML schema with reasoning before the verdict', () => {
    const keys = ['reasoning:', 'result:', 'compliance:', 'execution_quality:', 'overall:', 'summary:', 'hard_requirements:', 'suggestions:'];
    const positions = keys.map((key) => JUDGE_SYSTEM_PROMPT.indexOf(`\n${key}`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(JUDGE_SYSTEM_PROMPT).toContain('    met: true');
    expect(JUDGE_SYSTEM_PROMPT).toContain('    evidence:');
  });

  it('explains single-quoted strings and doubling a quote inside them', () => {
    expect(JUDGE_SYSTEM_PROMPT).toContain('single-quoted YAML string');
    expect(JUDGE_SYSTEM_PROMPT).toContain("'the candidate''s test'");
  });

  it('states the pass rule, evidence by turn, the three scales and the three tags', () => {
    expect(JUDGE_SYSTEM_PROMPT).toContain('`pass` if and only if EVERY hard requirement is met');
    expect(JUDGE_SYSTEM_PROMPT).toMatch(/evidence.*must cite the transcript.*\[Turn 3\]/);
    for (const scale of ['compliance —', 'execution_quality —', 'overall —']) expect(JUDGE_SYSTEM_PROMPT).toContain(scale);
    for (const anchor of ['0 ignored', '5 followed every requirement', '3 acceptable']) expect(JUDGE_SYSTEM_PROMPT).toContain(anchor);
    for (const tag of ['[workflow]', '[eval]', '[capability]']) expect(JUDGE_SYSTEM_PROMPT).toContain(`\`${tag}\` —`);
    expect(JUDGE_SYSTEM_PROMPT).toContain('Do NOT take the candidate\'s word for it');
  });
});

describe('buildJudgePrompt', () => {
  it('puts the case, the numbered rubric, postconditions, run facts and transcript in the user message', () => {
    const prompt = buildJudgePrompt(
      aJudgeInput({
        rubric: aRubric({ quality: ['Explains the change briefly'], commonFailures: [] }),
        postconditions: [
          aCheck({ description: 'the build succeeds', check: 'go build ./...', passed: true, exit_code: 0, duration_ms: 120 }),
          aCheck({ description: 'tests pass', check: 'go test ./...', passed: false, exit_code: 1, output: 'FAIL greet_test.go:12\nFAIL', duration_ms: 900 }),
          aCheck({ description: 'no stray files', check: 'test -z "$(git status --short)"', severity: 'soft', passed: true, exit_code: null }),
        ],
        facts: someFacts({ turnsUsed: 10, maxTurns: 10, turnLimitHit: true, examinerEnded: false }),
      }),
    );
    expect(prompt.system).toBe(JUDGE_SYSTEM_PROMPT);
    const user = prompt.user;
    expect(user).toContain('Case: case-a\nRun: run-case-a-fake@20250101T000000');
    expect(user).toContain('## Hard requirements (2; all must be met to pass; assess each, in this order)\n1. Runs the tests before answering\n2. Edits only greet.go');
    expect(user).toContain('## Quality (affects the scores, never blocks a pass)\n- Explains the change briefly');
    expect(user).toContain('## Common failures (watch for these)\n(none)');
    expect(user).toContain('- [hard] PASSED: the build succeeds\n  check: go build ./...\n  exit 0, 120 ms');
    expect(user).toContain('- [hard] FAILED: tests pass\n  check: go test ./...\n  exit 1, 900 ms\n  output:\n    FAIL greet_test.go:12\n    FAIL');
    expect(user).toContain('- [soft] PASSED: no stray files\n  check: test -z "$(git status --short)"\n  no exit code, 120 ms');
    expect(user).toContain('- Turns used: 10 of 10\n- Turn limit hit: yes\n- Examiner ended the dialogue: no');
    expect(user).toContain(
      '<transcript>\n[Turn 1][examiner] Please fix the greeting.\n[Turn 1][candidate.tool_call.completed] shell: go test ./... → exit=0\n[Turn 1][candidate] Fixed and tested.\n</transcript>',
    );
    expect(user.indexOf('# Rubric')).toBeLessThan(user.indexOf('# Postcondition results'));
    expect(user.indexOf('# Run facts')).toBeLessThan(user.indexOf('<transcript>'));
  });

  it('says when no postconditions are defined', () => {
    expect(buildJudgePrompt(aJudgeInput({ postconditions: [] })).user).toContain('# Postcondition results\n\n(none defined for this case)');
  });

  it('tells the judge when the transcript was elided', () => {
    const events = Array.from({ length: 50 }, (_, i) => anEvent({ turn: i, content: 'z'.repeat(100) }));
    const prompt = buildJudgePrompt(aJudgeInput({ events, compact: { maxBytes: 1000 } }));
    expect(prompt.transcript.elidedBytes).toBeGreaterThan(0);
    expect(prompt.user).toContain(`The middle of the transcript was elided for length (${prompt.transcript.elidedBytes} bytes)`);
    expect(prompt.user).toContain('bytes elided:');
  });

  it('becomes a system and a user chat message', () => {
    const prompt = buildJudgePrompt(aJudgeInput());
    expect(judgeMessages(prompt)).toEqual([
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ]);
  });
});
