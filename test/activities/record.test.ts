import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivityFixture, type ActivityFixture } from './activityFixture.js';

const VERDICT = [
  "reasoning: 'It is done.'",
  'result: pass',
  'compliance: 4',
  'execution_quality: 4',
  'overall: 4',
  "summary: 'Done.'",
  'hard_requirements:',
  "  - item: 'It is done'",
  '    met: true',
  "    evidence: '[Turn 1] candidate'",
  'suggestions: []',
].join('\n');

describe('judgeRun and recordRun activities', () => {
  let fx: ActivityFixture;

  beforeAll(async () => {
    fx = await createActivityFixture();
    fx.llm = { chat: async () => ({ content: VERDICT, toolCalls: [], model: 'judge-model', finishReason: 'stop' }) };
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('recording a verdict twice (a retried recordRun) keeps one score history entry', async () => {
    const spec = await fx.preparedSpec();
    const facts = { turnsUsed: 1, maxTurns: 1, turnLimitHit: false, examinerEnded: true };
    const { verdict } = await fx.activities().judgeRun({ spec, facts, postconditions: [] });
    const record = { spec, status: 'completed' as const, facts, postconditions: [], verdict, anomalies: [], error: null };
    await fx.activities().recordRun(record);
    await fx.activities().recordRun(record);
    const history = (await fx.store.scoreHistory({ caseId: spec.evalCase.id })).filter((h) => h.run_id === spec.runId);
    expect(history.map((h) => h.result)).toEqual(['pass']);
  });
});
