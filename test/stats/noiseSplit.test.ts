import { describe, expect, it } from 'vitest';
import { flipRate } from '../../src/stats/flipRate.js';
import { splitNoise, splitOf } from '../../src/stats/noiseSplit.js';
import { seededRandom } from '../../src/stats/random.js';

describe('splitNoise', () => {
  it("takes the judge's share from runs judged twice or more and leaves the rest to the agent", () => {
    // Two transcripts judged 4 times: one agrees with itself, the other splits 2/2 (4 of 6 pairs).
    const flip = flipRate(3, 10); // 21 of 45 pairs disagree
    const split = splitNoise(flip, [
      { passes: 4, judgings: 4 },
      { passes: 2, judgings: 4 },
      { passes: 1, judgings: 1 },
    ]);
    expect(split.judgedTwice).toBe(2);
    expect(split.judge).toBeCloseTo((0 + 4 / 6) / 2, 12);
    expect(split.agent).toBeCloseTo(21 / 45 - 1 / 3, 12);
    // Two runs say little: the intervals hold the estimates and are wide.
    expect(split.judgeLow!).toBeLessThan(0.05);
    expect(split.judgeHigh).toBe(0.5);
    expect(split.agentLow).toBe(0);
    expect(split.agentHigh!).toBeGreaterThan(split.agent! + 0.25);
  });

  it('has no split without repeated judgings, and never a negative agent share', () => {
    expect(splitNoise(flipRate(1, 3), [{ passes: 1, judgings: 1 }])).toEqual({ judgedTwice: 0, judge: null, judgeLow: null, judgeHigh: null, agent: null, agentLow: null, agentHigh: null });
    const split = splitNoise(flipRate(9, 10), [{ passes: 1, judgings: 2 }]);
    expect(split.agent).toBe(0);
    expect(split.agentLow).toBe(0);
  });

  it('reads a stored mean share back to the same split', () => {
    const flip = flipRate(6, 12);
    const measured = splitNoise(flip, [
      { passes: 2, judgings: 3 },
      { passes: 3, judgings: 3 },
      { passes: 0, judgings: 3 },
      { passes: 1, judgings: 3 },
    ]);
    expect(splitOf(flip, measured.judgedTwice, measured.judge!)).toEqual(measured);
  });

  it('covers the true judge and agent shares about 95% of the time (simulated)', () => {
    // Measured 2026-12-05: 99.7% and 99.0%, wider than needed (docs/how-many-runs.md says why).
    // Transcripts the judge passes with chance 0.9 or 0.3, half each: π = 0.6, so the flip rate is
    // 2·0.6·0.4 = 0.48; the judge's share 2·E[q(1 − q)] = 2·(0.09 + 0.21)/2 = 0.30; the agent's 0.18.
    const random = seededRandom(28);
    const [judge, agent] = [0.3, 0.48 - 0.3];
    let [judgeCovered, agentCovered] = [0, 0];
    const trials = 2000;
    for (let t = 0; t < trials; t++) {
      const runs = Array.from({ length: 20 }, () => {
        const q = random() < 0.5 ? 0.9 : 0.3;
        const verdicts = Array.from({ length: 3 }, () => random() < q);
        return { own: verdicts[0]!, passes: verdicts.filter(Boolean).length, judgings: 3 };
      });
      const split = splitNoise(flipRate(runs.filter((r) => r.own).length, runs.length), runs);
      if (split.judgeLow! <= judge && judge <= split.judgeHigh!) judgeCovered++;
      if (split.agentLow! <= agent && agent <= split.agentHigh!) agentCovered++;
    }
    expect(judgeCovered / trials).toBeGreaterThanOrEqual(0.93);
    expect(agentCovered / trials).toBeGreaterThanOrEqual(0.93);
  });
});
