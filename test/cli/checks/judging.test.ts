import { describe, expect, it } from 'vitest';
import { judgingOverrides } from '../../../src/cli/checks/judging.js';

describe('judgingOverrides', () => {
  it('passes the flags given, and refuses more judge samples than a run may ask for', () => {
    expect(judgingOverrides({})).toEqual({});
    expect(judgingOverrides({ review: 'wait', judges: 2, allowSelfJudge: true })).toEqual({ review: 'wait', judges: 2, allowSelfJudge: true });
    expect(() => judgingOverrides({ judges: 10 })).toThrow('--judges: expected 1 to 9 judge samples, found 10');
  });
});
