import { describe, expect, it } from 'vitest';
import { JudgeError, LlmError } from '../../src/errors.js';
import { judgeRun, JUDGE_SYSTEM_PROMPT } from '../../src/judge/index.js';
import { aCheck, aJudgeInput, anEvent, fakeLlm, GOOD_ANSWER } from './builders.js';

describe('judgeRun', () => {
  it('asks the judge role and returns the verdict, the raw answer, usage and model', async () => {
    const usage = { input_tokens: 1200, output_tokens: 300 };
    const llm = fakeLlm([{ content: `\`\`\`yaml\n${GOOD_ANSWER}\`\`\``, usage, model: 'judge-xl' }]);
    const result = await judgeRun({ llm, input: aJudgeInput() });

    expect(llm.requests).toHaveLength(1);
    const request = llm.requests[0];
    expect(request?.role).toBe('judge');
    expect(request?.temperature).toBe(0);
    expect(request?.messages[0]).toEqual({ role: 'system', content: JUDGE_SYSTEM_PROMPT });
    expect(request?.messages[1]?.role).toBe('user');
    expect(request?.messages[1]?.content).toContain('1. Runs the tests before answering');

    expect(result.raw).toBe(`\`\`\`yaml\n${GOOD_ANSWER}\`\`\``);
    expect(result.usage).toEqual(usage);
    expect(result.model).toBe('judge-xl');
    expect(result.score).toMatchObject({ result: 'pass', judge_model: 'judge-xl', case_id: 'case-a', salvaged: false, notes: [] });
  });

  it('applies the verdict rules to the answer', async () => {
    const llm = fakeLlm([{ content: GOOD_ANSWER }]);
    const input = aJudgeInput({ postconditions: [aCheck({ description: 'tests pass', passed: false, exit_code: 1 })] });
    const { score } = await judgeRun({ llm, input });
    expect(score.result).toBe('fail');
    expect(score.forced_fail_reason).toBe('hard postcondition failed: tests pass (exit 1)');
  });

  it('notes when the transcript had to be elided', async () => {
    const events = Array.from({ length: 30 }, (_, i) => anEvent({ turn: i, content: 'q'.repeat(100) }));
    const llm = fakeLlm([{ content: GOOD_ANSWER }]);
    const { score } = await judgeRun({ llm, input: aJudgeInput({ events, compact: { maxBytes: 1000 } }) });
    expect(score.notes).toHaveLength(1);
    expect(score.notes[0]).toMatch(/^transcript compacted for the judge: \d+ bytes elided \(\d+ events in full, \d+ in part\)$/);
  });

  it('throws JudgeError when the model returns no text', async () => {
    const llm = fakeLlm([{ content: null, finishReason: 'length', model: 'judge-xl' }]);
    await expect(judgeRun({ llm, input: aJudgeInput() })).rejects.toThrow(
      new JudgeError('judge model judge-xl returned no text (finish reason: length)'),
    );
  });

  it('throws JudgeError when the answer has no result', async () => {
    const llm = fakeLlm([{ content: 'The candidate did well.' }]);
    await expect(judgeRun({ llm, input: aJudgeInput() })).rejects.toBeInstanceOf(JudgeError);
  });

  it('lets a retryable LlmError through untouched', async () => {
    const failure = new LlmError('rate limited', 429, true);
    const llm = fakeLlm([failure]);
    await expect(judgeRun({ llm, input: aJudgeInput() })).rejects.toBe(failure);
  });
});
