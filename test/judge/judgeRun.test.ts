import { describe, expect, it } from 'vitest';
import { JudgeError, LlmError } from '../../src/errors.js';
import { judgeRun, JUDGE_SYSTEM_PROMPT } from '../../src/judge/index.js';
import { aCheck, aJudgeInput, anEvent, fakeLlm, GOOD_ANSWER } from './builders.js';

/** GOOD_ANSWER broken by an unquoted colon in the summary, with its hard items left out. */
const BROKEN_ANSWER = 'result: pass\ncompliance: 4\nexecution_quality: 3\noverall: 3.5\nsummary: it worked: mostly\n  - [unclosed';
/** GOOD_ANSWER with its second hard item left out. */
const SHORT_ANSWER = GOOD_ANSWER.replace(/ {2}- item: 'Edits only greet.go'\n.*\n.*\n/, '');
const usage = (input_tokens: number) => ({ input_tokens, output_tokens: 10 });

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
    expect(result.score).toMatchObject({ result: 'pass', judge_model: 'judge-xl', case_id: 'case-a', salvaged: false, notes: [], review_reasons: [] });
    expect(result.score.judge_attempts).toEqual([{ sample: 1, attempt: 1, problem: null, usage }]);
    expect(result.score.judge_usage).toEqual(usage);
  });

  it('asks again once when the answer is not valid YAML, naming the error, and takes the new answer whole', async () => {
    const llm = fakeLlm([{ content: BROKEN_ANSWER, usage: usage(100) }, { content: GOOD_ANSWER, usage: usage(150) }]);
    const result = await judgeRun({ llm, input: aJudgeInput() });
    expect(llm.requests).toHaveLength(2);
    const again = llm.requests[1]!.messages;
    expect(again.slice(0, 2)).toEqual(llm.requests[0]!.messages);
    expect(again[2]).toEqual({ role: 'assistant', content: BROKEN_ANSWER });
    expect(again[3]?.role).toBe('user');
    expect(again[3]?.content).toMatch(/^Your verdict could not be used as written: judge answer is not valid YAML: .+\.\n\nWrite the whole verdict again, as YAML only, .* each of the 2 hard requirements, in the rubric's order\.$/);
    expect(result.score).toMatchObject({ result: 'pass', salvaged: false, review_reasons: [], notes: [] });
    expect(result.score.hard_requirements.every((item) => item.met === true)).toBe(true);
    expect(result.score.judge_attempts).toEqual([
      { sample: 1, attempt: 1, problem: expect.stringMatching(/^judge answer is not valid YAML: /), usage: usage(100) },
      { sample: 1, attempt: 2, problem: null, usage: usage(150) },
    ]);
    expect(result.usage).toEqual({ input_tokens: 250, output_tokens: 20 });
    expect(result.answers).toEqual([BROKEN_ANSWER, GOOD_ANSWER]);
    expect(result.raw).toBe(GOOD_ANSWER);
  });

  it('salvages the last answer after three broken ones: the pass is kept, its items not assessed, and a person is asked', async () => {
    const llm = fakeLlm([{ content: BROKEN_ANSWER }, { content: BROKEN_ANSWER }, { content: BROKEN_ANSWER }]);
    const result = await judgeRun({ llm, input: aJudgeInput() });
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[2]!.messages).toHaveLength(6);
    expect(result.score).toMatchObject({ result: 'pass', salvaged: true, compliance: 4, execution_quality: 3, overall: 3.5 });
    expect(result.score.hard_requirements.map((item) => [item.met, item.assessed])).toEqual([
      [null, false],
      [null, false],
    ]);
    expect(result.score.review_reasons).toHaveLength(2);
    expect(result.score.review_reasons[1]).toBe('hard requirements not assessed by the judge in 3 requests: 1. Runs the tests before answering; 2. Edits only greet.go');
    expect(result.score.judge_attempts.map((a) => a.problem !== null)).toEqual([true, true, true]);
  });

  it('asks again when hard items are missing, naming them, and takes a complete answer whole', async () => {
    const llm = fakeLlm([{ content: SHORT_ANSWER }, { content: GOOD_ANSWER }]);
    const result = await judgeRun({ llm, input: aJudgeInput() });
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.messages[3]?.content).toContain('Your verdict could not be used as written: the verdict assesses 1 of the 2 hard requirements; missing: 2. Edits only greet.go.');
    expect(result.score).toMatchObject({ result: 'pass', review_reasons: [] });
    expect(result.score.judge_attempts.map((a) => a.problem)).toEqual(['the verdict assesses 1 of the 2 hard requirements; missing: 2. Edits only greet.go', null]);
  });

  it('records items still missing after three requests as not assessed, never as not met', async () => {
    const llm = fakeLlm([{ content: SHORT_ANSWER }, { content: SHORT_ANSWER }, { content: SHORT_ANSWER }]);
    const result = await judgeRun({ llm, input: aJudgeInput() });
    expect(llm.requests).toHaveLength(3);
    expect(result.score).toMatchObject({ result: 'pass', salvaged: false });
    expect(result.score.hard_requirements[1]).toMatchObject({ item: 'Edits only greet.go', met: null, assessed: false });
    expect(result.score.review_reasons).toEqual(['hard requirement not assessed by the judge in 3 requests: 2. Edits only greet.go']);
  });

  it('takes the latest readable answer when a later one is unreadable', async () => {
    const llm = fakeLlm([{ content: SHORT_ANSWER }, { content: 'I liked it.' }, { content: '' }]);
    const result = await judgeRun({ llm, input: aJudgeInput() });
    expect(result.raw).toBe(SHORT_ANSWER);
    expect(llm.requests[2]!.messages[5]?.content).toMatch(/^Your verdict could not be used as written: judge answer could not be read: /);
    expect(result.score.judge_attempts[2]?.problem).toBe('judge model judge-model-1 returned no text (finish reason: stop)');
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

  it('throws JudgeError when the model returns no text three times', async () => {
    const empty = { content: null, finishReason: 'length', model: 'judge-xl' };
    const llm = fakeLlm([empty, empty, empty]);
    await expect(judgeRun({ llm, input: aJudgeInput() })).rejects.toThrow(
      new JudgeError('the judge gave no readable verdict in 3 requests; the last: judge model judge-xl returned no text (finish reason: length)'),
    );
    expect(llm.requests[1]!.messages[2]).toEqual({ role: 'assistant', content: '(no answer)' });
  });

  it('throws JudgeError when no answer has a result or a score', async () => {
    const llm = fakeLlm([{ content: 'The candidate did well.' }, { content: 'Really.' }, { content: 'Truly.' }]);
    await expect(judgeRun({ llm, input: aJudgeInput() })).rejects.toBeInstanceOf(JudgeError);
    expect(llm.requests).toHaveLength(3);
  });

  it('lets a retryable LlmError through untouched', async () => {
    const failure = new LlmError('rate limited', 429, true);
    const llm = fakeLlm([failure]);
    await expect(judgeRun({ llm, input: aJudgeInput() })).rejects.toBe(failure);
  });
});
