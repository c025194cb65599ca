import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CandidateSession } from '../candidates/adapter.js';
import type { RunProgress } from '../run/progress.js';
import type { RunSpec } from '../run/runSpec.js';
import { modelProfile } from './profiles.js';
import { said, type Tell } from './runDisplay.js';
import type { Host } from './runHost.js';
import { addAnomalies, countRetries, type RunLedger } from './runLedger.js';

const model = proxyActivities<Activities>(modelProfile);

/**
 * examiner ↔ candidate until the examiner says `<<END>>`, the candidate fails its turn, or
 * max_turns. Updates the ledger as it goes, so a run that fails mid-dialogue still records
 * the turns it used and the retries it took.
 */
export async function dialogue(spec: RunSpec, host: Host, generation: number, ledger: RunLedger, progress: RunProgress, tell: Tell): Promise<void> {
  const { facts } = ledger;
  let session: CandidateSession | undefined;
  let toolCalls = 0;
  for (let turn = 1; turn <= spec.evalCase.maxTurns; turn++) {
    progress.turn = turn;
    tell({ actor: 'examiner' });
    const examined = await model.examinerTurn.executeWithOptions(said(`turn ${turn} · examiner`, generation), [{ spec, turn, generation }]);
    countRetries(ledger, 'examiner', examined.attempt);
    addAnomalies(ledger, examined.anomalies);
    if (examined.ended) {
      facts.examinerEnded = true;
      return;
    }
    tell({ actor: 'candidate' });
    const answered = await host.candidate.candidateTurn.executeWithOptions(said(`turn ${turn} · candidate`, generation), [
      { spec, turn, message: examined.message, session: session ?? null, generation },
    ]);
    facts.turnsUsed = turn;
    toolCalls += answered.toolCalls ?? 0;
    tell({ toolCalls });
    countRetries(ledger, 'candidate', answered.attempt);
    addAnomalies(ledger, answered.anomalies);
    session = answered.session;
    if (answered.failure) {
      facts.candidateFailure = `turn ${turn}: ${answered.failure}`;
      addAnomalies(ledger, [
        /timed out/.test(answered.failure)
          ? { kind: 'timeout', detail: `candidate turn ${turn}: ${answered.failure}` }
          : { kind: 'other', detail: `candidate failed turn ${turn}: ${answered.failure}` },
      ]);
      return;
    }
  }
  facts.turnLimitHit = true;
}
