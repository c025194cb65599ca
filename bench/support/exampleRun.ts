import { join } from 'node:path';
import type { Activities } from '../../src/activities/index.js';
import type { CheckResult } from '../../src/evalset/checkResult.js';
import type { CandidateSpec, CaseSnapshot, RunSpec } from '../../src/run/runSpec.js';
import type { RunVerdict } from '../../src/run/runVerdict.js';

/** The spec of one example case's run in `root` (project/, workflow/, runs/), as the benches that drive the activities by hand make it. */
export function exampleRunSpec(root: string, evalCase: CaseSnapshot, serial: number, candidate: CandidateSpec): RunSpec {
  return {
    runId: `run-${evalCase.id}-bench@20261201T${String(serial).padStart(6, '0')}`,
    batchId: 'batch-bench',
    evalCase,
    candidate,
    examiner: { model: 'e' },
    judge: { model: 'j' },
    project: join(root, 'project'),
    workflowDir: join(root, 'workflow'),
    runsDir: join(root, 'runs'),
    turnTimeoutS: 60,
    createdAt: new Date().toISOString(),
  };
}

/** A run's last stages with the judge stood in for (a fixed fail verdict): cleanup, then record. */
export async function finishUnjudged(activities: Activities, spec: RunSpec, postconditions: CheckResult[], turnsUsed: number, summary: string): Promise<void> {
  const evalCase = spec.evalCase;
  const verdict: RunVerdict = {
    score: { reasoning: 'r', result: 'fail', compliance: 1, execution_quality: 1, overall: 1, summary, hard_requirements: evalCase.rubric.hard.map((item) => ({ item, met: false, assessed: true, evidence: 'no change' })), suggestions: [], run_id: spec.runId, case_id: evalCase.id, judge_model: 'j', salvaged: false, notes: [], review_reasons: [], judge_attempts: [] },
    raw: 'result: fail',
    model: 'j',
    usage: null,
    judgedAt: new Date().toISOString(),
  };
  const cleaned = await activities.cleanupRun({ spec });
  await activities.recordRun({ spec, status: 'completed', facts: { turnsUsed, maxTurns: evalCase.maxTurns, turnLimitHit: false, examinerEnded: true }, postconditions, verdict, anomalies: cleaned.anomalies, error: null });
}
