import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { refuseSelfJudging } from '../../src/run/selfJudging.js';

const candidate = { name: 'mine', adapter: 'claude-code', model: 'claude-sonnet-4-5', args: [], env: {} };

describe('refuseSelfJudging', () => {
  it("refuses a judge on the candidate's model, naming both", () => {
    expect(() => refuseSelfJudging(candidate, { model: 'Claude-Sonnet-4-5' }, false)).toThrow(
      new ConfigError(
        "the judge would grade its own work: its model Claude-Sonnet-4-5 is the candidate's (candidate mine: adapter claude-code, model claude-sonnet-4-5); " +
          'give the judge another model (EVALFLOW_JUDGE_MODEL or judge: in evalflow.config.yaml), or pass --allow-self-judge to judge anyway',
      ),
    );
  });

  it("refuses a judge served by the candidate's agent CLI, and says when both are shared", () => {
    expect(() => refuseSelfJudging(candidate, { model: 'claude-opus-4', adapter: 'claude-code' }, false)).toThrow(/its agent claude-code is the candidate's/);
    expect(() => refuseSelfJudging(candidate, { model: 'claude-sonnet-4-5', adapter: 'claude-code' }, false)).toThrow(
      /its model claude-sonnet-4-5 and agent claude-code are the candidate's/,
    );
  });

  it('lets another model judge, a candidate without a model, and anything when allowed', () => {
    expect(() => refuseSelfJudging(candidate, { model: 'gpt-4o' }, false)).not.toThrow();
    expect(() => refuseSelfJudging({ ...candidate, adapter: 'command', model: undefined }, { model: 'gpt-4o' }, false)).not.toThrow();
    expect(() => refuseSelfJudging(candidate, { model: 'claude-sonnet-4-5', adapter: 'claude-code' }, true)).not.toThrow();
  });
});
