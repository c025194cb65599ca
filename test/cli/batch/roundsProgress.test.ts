import { describe, expect, it } from 'vitest';
import { createRoundsPrinter } from '../../../src/cli/batch/roundsProgress.js';
import { memoryIo } from '../../../src/cli/io.js';
import type { BatchProgress } from '../../../src/run/progress.js';
import { designToWire, openCases, settleRound, startDecisions, stopOpenCases, untilDecidedDesign, type RoundsState } from '../../../src/run/untilDecided.js';

describe('the rounds printer', () => {
  const design = untilDecidedDesign({ maxRunsPerCase: 8 });
  const progress = (state: RoundsState): BatchProgress => ({ batchId: 'b', total: 32, started: 0, finished: 0, running: [], outcomes: [], rounds: { design: designToWire(design), state } });

  it('says each round once, with a line per case that moved, and why the batch stopped', () => {
    const io = memoryIo('/');
    const print = createRoundsPrinter(io);
    let state: RoundsState = { round: 0, decisions: startDecisions(['clear', 'flat']), spent: { runs: 0, usd: null }, stop: null };
    print(progress(state));
    expect(io.stderr).toEqual([]);
    for (let round = 1; round <= 6; round++) {
      const results = openCases(state.decisions).map((caseId) => ({ caseId, a: 'pass' as const, b: caseId === 'clear' ? ('fail' as const) : ('pass' as const) }));
      state = { round, decisions: settleRound(design, state.decisions, results), spent: { runs: state.spent.runs + 2 * results.length, usd: null }, stop: null };
      print(progress(state));
      // Polled again within the round: nothing new.
      print(progress(state));
    }
    expect(io.stderr.filter((l) => l.startsWith('round '))).toEqual(['round 1: 2 of 2 cases open, 4 runs so far', ...[2, 3, 4, 5].map((r) => `round ${r}: 2 of 2 cases open, ${4 * r} runs so far`), 'round 6: 1 of 2 cases open, 24 runs so far']);
    expect(io.stderr).toContainEqual(expect.stringMatching(/^ {2}clear {2}5 runs a side {2}B−A −100 \(−\d+…−\d+\) {2}open: e = /) as string);
    expect(io.stderr).toContainEqual(expect.stringMatching(/^ {2}clear {2}6 runs a side {2}B−A −100 .* {2}decided regression: e = /) as string);
    expect(io.stderr.filter((l) => l.startsWith('  clear '))).toHaveLength(6);

    state = { ...state, decisions: stopOpenCases(design, state.decisions, { by: 'batch_limit', why: '--max-runs 26: 24 runs so far' }), stop: '--max-runs 26: 24 runs so far' };
    print(progress(state));
    expect(io.stderr.slice(-2)).toEqual([expect.stringMatching(/^ {2}flat {2}6 runs a side .* stopped \(batch limit\) insufficient_data: the batch stopped at --max-runs 26/) as string, 'no further round: --max-runs 26: 24 runs so far']);
  });
});
