import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../src/llm/port.js';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

const WHOLE = "reasoning: 'It is done.'\nresult: pass\ncompliance: 4\nexecution_quality: 4\noverall: 4\nsummary: 'Done.'\nhard_requirements:\n  - item: 'It is done'\n    met: true\n    evidence: '[Turn 1] candidate'\nsuggestions: []\n";
const BROKEN = 'result: pass\noverall: 4\nsummary: done: mostly\n';
const facts = { turnsUsed: 1, maxTurns: 1, turnLimitHit: false, examinerEnded: true };

describe('judgeRun activity', () => {
  let fx: ActivityFixture;
  let replies: string[] = [];
  const requests: ChatRequest[] = [];

  beforeAll(async () => {
    fx = await createActivityFixture();
    fx.llm = {
      chat: async (request) => {
        requests.push(request);
        return { content: replies.shift() ?? WHOLE, toolCalls: [], model: 'judge-model', finishReason: 'stop', usage: { input_tokens: 100 * requests.length, output_tokens: 10 } };
      },
    };
  });
  afterAll(async () => {
    await fx?.close();
  });

  it("records each request of a re-asked judging with its usage, in the verdict and the run's judge step", async () => {
    const spec = await fx.preparedSpec();
    replies = [BROKEN];
    requests.length = 0;
    const { verdict } = await fx.activities().judgeRun({ spec, facts, postconditions: [] });
    expect(requests).toHaveLength(2);
    expect(verdict.score.judge_attempts).toEqual([
      { sample: 1, attempt: 1, problem: expect.stringMatching(/^judge answer is not valid YAML/), usage: { input_tokens: 100, output_tokens: 10 } },
      { sample: 1, attempt: 2, problem: null, usage: { input_tokens: 200, output_tokens: 10 } },
    ]);
    expect(verdict.usage).toEqual({ input_tokens: 300, output_tokens: 20 });
    expect(verdict.answers).toEqual([BROKEN, WHOLE]);
    const [step] = await fx.store.getSteps(spec.runId, { role: 'judge' });
    expect(step).toMatchObject({ state: 'finished', usage: { input_tokens: 300, output_tokens: 20 } });
    expect((step?.output as { score: { judge_attempts: unknown[] } }).score.judge_attempts).toHaveLength(2);
  });

  it('judges with as many samples as the run asks for', async () => {
    const spec = { ...(await fx.preparedSpec()), judging: { samples: 3, review: 'later' as const, allowSelfJudge: false } };
    replies = [];
    requests.length = 0;
    const { verdict } = await fx.activities().judgeRun({ spec, facts, postconditions: [] });
    expect(requests).toHaveLength(3);
    expect(verdict.score.judge_samples?.map((s) => s.result)).toEqual(['pass', 'pass', 'pass']);
  });
});
