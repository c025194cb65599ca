import { describe, expect, it } from 'vitest';
import { decisionRows } from '../../src/run/decisionRows.js';
import { designToWire, settleRound, startDecisions, untilDecidedDesign, type RoundsState } from '../../src/run/untilDecided.js';

describe('decisionRows', () => {
  const design = untilDecidedDesign({ maxRunsPerCase: 12 });
  const untilDecided = { design: designToWire(design), a: 'base', b: 'new' };

  it("keeps a stopped case's label, runs a side, interval and why, and an open one as insufficient_data with no stop", () => {
    let decisions = startDecisions(['regresses', 'open']);
    for (let round = 0; round < 8 && decisions[0]!.stopped === null; round++) {
      decisions = settleRound(design, decisions, [
        { caseId: 'regresses', a: 'pass', b: 'fail' },
        { caseId: 'open', a: 'pass', b: 'pass' },
      ]);
    }
    const state: RoundsState = { round: decisions[0]!.rounds, decisions, spent: { runs: 4 * decisions[0]!.rounds, usd: null }, stop: null };
    const [regresses, open] = decisionRows(untilDecided, state);
    expect(regresses).toMatchObject({ case_id: 'regresses', arm_a: 'base', arm_b: 'new', label: 'regression', stopped_by: 'evidence', runs_a_side: decisions[0]!.rounds, only_a: decisions[0]!.rounds, difference: -1, alpha: 0.05, max_runs_per_case: 12 });
    expect(regresses!.high).toBeLessThan(0);
    expect(regresses!.evidence).toBeGreaterThanOrEqual(Math.exp(design.logUpper));
    expect(open).toMatchObject({ case_id: 'open', label: 'insufficient_data', stopped_by: null, difference: 0, pairs: decisions[1]!.rounds });
    expect(open!.why).toMatch(/^still open when the batch ended: /);
  });
});
