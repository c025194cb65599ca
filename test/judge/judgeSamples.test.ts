import { describe, expect, it } from 'vitest';
import { JudgeError, LlmError } from '../../src/errors.js';
import { judgeSamples, SAMPLE_TEMPERATURE } from '../../src/judge/index.js';
import type { ChatRequest, LlmClient } from '../../src/llm/port.js';
import { aCheck, aJudgeInput, fakeLlm, GOOD_ANSWER } from './builders.js';

const FAIL_ANSWER = GOOD_ANSWER.replace('result: pass', 'result: fail').replace('overall: 4', 'overall: 2');

describe('judgeSamples', () => {
  it('is judgeRun at temperature 0 for one sample', async () => {
    const llm = fakeLlm([{ content: GOOD_ANSWER }]);
    const result = await judgeSamples({ llm, input: aJudgeInput(), samples: 1 });
    expect(llm.requests.map((r) => r.temperature)).toEqual([0]);
    expect(result.score.judge_samples).toBeUndefined();
    expect(result.score.review_reasons).toEqual([]);
  });

  it('draws several samples at a temperature and needs no person when they agree', async () => {
    const llm = fakeLlm([{ content: GOOD_ANSWER, usage: { input_tokens: 5, output_tokens: 1 } }, { content: GOOD_ANSWER, usage: { input_tokens: 7, output_tokens: 1 } }]);
    const result = await judgeSamples({ llm, input: aJudgeInput(), samples: 2 });
    expect(llm.requests.map((r) => r.temperature)).toEqual([SAMPLE_TEMPERATURE, SAMPLE_TEMPERATURE]);
    expect(result.score.review_reasons).toEqual([]);
    expect(result.score.judge_samples?.map((s) => [s.sample, s.result])).toEqual([
      [1, 'pass'],
      [2, 'pass'],
    ]);
    expect(result.score.judge_attempts.map((a) => [a.sample, a.attempt])).toEqual([
      [1, 1],
      [2, 1],
    ]);
    expect(result.usage).toEqual({ input_tokens: 12, output_tokens: 2 });
  });

  it('asks for a person when the samples disagree on the result', async () => {
    const llm = fakeLlm([{ content: GOOD_ANSWER }, { content: FAIL_ANSWER }]);
    const result = await judgeSamples({ llm, input: aJudgeInput(), samples: 2 });
    expect(result.score.result).toBe('pass');
    expect(result.score.review_reasons).toEqual(['the judge samples disagree: sample 1 pass, sample 2 fail']);
  });

  it('takes a whole sample as the verdict of record over a doubtful one, and notes a sample without a verdict', async () => {
    // Sample 1 stays broken, sample 2 unreadable, sample 3 is whole at once; a re-asked judge repeats itself.
    const firsts = ['result: fail\noverall: 1\nsummary: a: b\n', 'nothing', FAIL_ANSWER];
    const requests: ChatRequest[] = [];
    const llm: LlmClient = {
      chat(request) {
        requests.push(request);
        const content = request.messages.length === 2 ? firsts.shift()! : (request.messages[2]!.content ?? '');
        return Promise.resolve({ content, toolCalls: [], model: 'judge-model-1', finishReason: 'stop' });
      },
    };
    const result = await judgeSamples({ llm, input: aJudgeInput(), samples: 3 });
    expect(requests).toHaveLength(7);
    expect(result.score.salvaged).toBe(false);
    expect(result.score.result).toBe('fail');
    expect(result.score.review_reasons).toEqual([expect.stringMatching(/^judge sample 2 gave no verdict: the judge gave no readable verdict in 3 requests/)]);
    expect(result.score.judge_samples?.map((s) => [s.sample, s.result, s.review_reasons.length, s.error !== undefined])).toEqual([
      [1, 'fail', 2, false],
      [2, null, 0, true],
      [3, 'fail', 0, false],
    ]);
  });

  it('needs no person for a forced fail, however the samples differ', async () => {
    const llm = fakeLlm([{ content: GOOD_ANSWER }, { content: 'nothing' }, { content: 'nothing' }, { content: 'nothing' }]);
    const result = await judgeSamples({ llm, input: aJudgeInput({ postconditions: [aCheck({ passed: false, exit_code: 1 })] }), samples: 2 });
    expect(result.score.result).toBe('fail');
    expect(result.score.review_reasons).toEqual([]);
  });

  it('throws JudgeError when no sample gives a verdict, and lets other errors through', async () => {
    await expect(judgeSamples({ llm: fakeLlm(Array.from({ length: 6 }, () => ({ content: 'no' }))), input: aJudgeInput(), samples: 2 })).rejects.toThrow(
      /^none of the 2 judge samples gave a readable verdict; sample 1: the judge gave no readable verdict in 3 requests/,
    );
    const outage = new LlmError('down', 503, true);
    await expect(judgeSamples({ llm: fakeLlm([{ content: GOOD_ANSWER }, outage]), input: aJudgeInput(), samples: 2 })).rejects.toBe(outage);
    await expect(judgeSamples({ llm: fakeLlm([]), input: aJudgeInput(), samples: 1 })).rejects.not.toBeInstanceOf(JudgeError);
  });
});
