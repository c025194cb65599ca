import { describe, expect, it } from 'vitest';
import { batchLimitReached, decisionLine, designFromWire, designToWire, openCases, settleRound, startDecisions, stopOpenCases, untilDecidedDesign, type CaseDecision, type RoundResult } from '../../src/run/untilDecided.js';

describe('until decided', () => {
  const design = untilDecidedDesign({ maxRunsPerCase: 12 });

  /** Rounds until no case is open, each case's sides scripted by round. */
  function runRounds(script: Record<string, (round: number) => Omit<RoundResult, 'caseId'>>): { decisions: CaseDecision[]; rounds: number } {
    let decisions = startDecisions(Object.keys(script));
    let rounds = 0;
    while (openCases(decisions).length > 0) {
      rounds++;
      decisions = settleRound(design, decisions, openCases(decisions).map((caseId) => ({ caseId, ...script[caseId]!(rounds) })));
    }
    return { decisions, rounds };
  }

  it('stops a clear regression after a few rounds and runs a flat case to its limit, undecided', () => {
    const { decisions, rounds } = runRounds({
      regresses: () => ({ a: 'pass', b: 'fail' }),
      flat: () => ({ a: 'pass', b: 'pass' }),
    });
    const [regresses, flat] = decisions;
    expect(regresses).toMatchObject({ caseId: 'regresses', stopped: { label: 'regression', stoppedBy: 'evidence' } });
    expect(regresses!.rounds).toBeLessThanOrEqual(6);
    expect(flat).toMatchObject({ caseId: 'flat', rounds: 12, stopped: { label: 'insufficient_data', stoppedBy: 'limit' } });
    expect(rounds).toBe(12);
    expect(decisionLine(design, regresses!)).toMatch(/^regresses {2}\d runs a side {2}B−A −100 \(−\d+…−\d+\) {2}decided regression: e = /);
    expect(decisionLine(design, flat!)).toMatch(/^flat {2}12 runs a side {2}B−A ±0 .* stopped \(per-case limit\) insufficient_data: reached the limit of 12 pairs with e = 1.00/);
  });

  it('leaves a round whose side was not judged out of the pairs, and a stopped case out of later rounds', () => {
    let decisions = startDecisions(['c']);
    decisions = settleRound(design, decisions, [{ caseId: 'c', a: 'pass', b: null }]);
    expect(decisions[0]).toMatchObject({ rounds: 1, unpaired: 1, tally: { pairs: 0 }, stopped: null });
    const stopped: CaseDecision = { ...decisions[0]!, stopped: { label: 'no_change', stoppedBy: 'futility', why: 'w' } };
    expect(settleRound(design, [stopped], [{ caseId: 'c', a: 'pass', b: 'fail' }])).toEqual([stopped]);
    expect(openCases([stopped])).toEqual([]);
    // Its limit counts rounds, not pairs: a case whose runs keep failing to be judged still stops.
    const { decisions: [flaky] } = runRounds({ flaky: (round) => ({ a: 'pass', b: round % 2 === 0 ? null : 'pass' }) });
    expect(flaky).toMatchObject({ rounds: 12, unpaired: 6, tally: { pairs: 6 }, stopped: { label: 'insufficient_data', stoppedBy: 'limit' } });
    expect(flaky!.stopped!.why).toMatch(/^reached the limit of 12 runs a side with 6 judged pairs \(6 rounds had a side not judged\)/);
  });

  it('stops the batch before a round that would pass --max-runs or, at the cost per run so far, --budget-usd', () => {
    expect(batchLimitReached({ maxRunsPerCase: 10, maxRuns: 20 }, { runs: 16, usd: null }, 2)).toBeNull();
    expect(batchLimitReached({ maxRunsPerCase: 10, maxRuns: 20 }, { runs: 18, usd: null }, 2)).toEqual({ by: 'batch_limit', why: "--max-runs 20: 18 runs so far, and the next round's 4 would pass it" });
    expect(batchLimitReached({ maxRunsPerCase: 10, budgetUsd: 1 }, { runs: 10, usd: 0.5 }, 5)).toBeNull();
    expect(batchLimitReached({ maxRunsPerCase: 10, budgetUsd: 1 }, { runs: 10, usd: 0.6 }, 5)).toMatchObject({ by: 'budget', why: expect.stringMatching(/^--budget-usd 1: \$0\.60 spent, .* about \$1\.20$/) as string });
  });

  it('ends the open cases undecided when the batch stops for its own limit, saying which', () => {
    let decisions = startDecisions(['done', 'open']);
    for (let round = 0; round < 8; round++) {
      decisions = settleRound(design, decisions, openCases(decisions).map((caseId) => ({ caseId, a: 'pass', b: caseId === 'done' ? 'fail' : 'pass' })));
    }
    const [done] = decisions;
    expect(done!.stopped).toMatchObject({ label: 'regression', stoppedBy: 'evidence' });
    const stopped = stopOpenCases(design, decisions, { by: 'budget', why: '--budget-usd 1: $0.90 spent' });
    expect(stopped[0]).toEqual(done);
    expect(stopped[1]!.stopped).toMatchObject({ label: 'insufficient_data', stoppedBy: 'budget' });
    expect(stopped[1]!.stopped!.why).toMatch(/^the batch stopped at --budget-usd 1: \$0\.90 spent; e = 1\.00 of /);
    expect(decisionLine(design, stopped[1]!)).toMatch(/^open {2}8 runs a side {2}B−A ±0 .* stopped \(budget\) insufficient_data: the batch stopped/);
  });

  it('carries a design across JSON, including a futility bound the limit is too low for', () => {
    const low = untilDecidedDesign({ maxRunsPerCase: 8 });
    expect(low.logLower).toBe(-Infinity);
    const back = designFromWire(JSON.parse(JSON.stringify(designToWire(low))) as ReturnType<typeof designToWire>);
    expect(back).toEqual(low);
    expect(designFromWire(designToWire(design))).toEqual(design);
  });
});
