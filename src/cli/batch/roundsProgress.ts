import type { BatchProgress } from '../../run/progress.js';
import { decisionLine, designFromWire } from '../../run/untilDecided.js';
import type { CommandIo } from '../io.js';

/**
 * What following an until-decided batch says beyond its runs: after each round, one line per
 * case whose state moved (runs so far, B − A with its interval, decided or open, and why), and
 * once why the batch stopped adding rounds when it stopped for its own limit.
 */
export function createRoundsPrinter(io: CommandIo): (progress: BatchProgress) => void {
  const shown = new Map<string, string>();
  let round = -1;
  let stopSaid = false;
  return (progress) => {
    if (!progress.rounds) return;
    const { state } = progress.rounds;
    // The query answers the state after the last settled round; a round under way has not moved it.
    if (state.round === round && !(state.stop && !stopSaid)) return;
    round = state.round;
    const design = designFromWire(progress.rounds.design);
    const changed = state.decisions.filter((d) => shown.get(d.caseId) !== `${d.rounds}:${d.stopped?.stoppedBy ?? ''}`);
    if (changed.length > 0 && state.round > 0) io.err(`round ${state.round}: ${state.decisions.filter((d) => !d.stopped).length} of ${state.decisions.length} cases open, ${state.spent.runs} runs so far${state.spent.usd !== null ? ` ($${state.spent.usd.toFixed(2)})` : ''}`);
    for (const decision of changed) {
      shown.set(decision.caseId, `${decision.rounds}:${decision.stopped?.stoppedBy ?? ''}`);
      if (decision.rounds > 0 || decision.stopped) io.err(`  ${decisionLine(design, decision)}`);
    }
    if (state.stop && !stopSaid) {
      stopSaid = true;
      io.err(`no further round: ${state.stop}`);
    }
  };
}
