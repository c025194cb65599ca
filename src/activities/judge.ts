import type { CheckResult } from '../evalset/checkResult.js';
import { judgeSamples } from '../judge/index.js';
import { judgingOf } from '../run/judging.js';
import type { RunAnomaly } from '../vocabulary/anomaly.js';
import type { RunFacts } from '../vocabulary/runFacts.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunVerdict } from '../run/runVerdict.js';
import { createStepLedger } from '../run/stepLedger.js';
import { workflowEvidence } from '../run/runWorkflowUsage.js';
import { transcriptAttempt } from '../transcript/attempts.js';
import { latestAttempts } from '../transcript/latestAttempts.js';
import type { ActivityDeps } from './deps.js';
import { patientModel } from './modelCalls.js';
import { activityAttempt, cancellationSignal } from './temporalContext.js';

export interface JudgeOutput {
  verdict: RunVerdict;
  /** This activity's attempt: earlier ones failed for infrastructure reasons. */
  attempt: number;
  /** Model outages waited out, spend repeated after a crash. */
  anomalies: RunAnomaly[];
}

export interface JudgeRequest {
  spec: RunSpec;
  facts: RunFacts;
  postconditions: CheckResult[];
  /** 0 for the run's own judging; each rejudge of the run takes the next round. */
  round?: number;
  /** The run's generation (see transcript/attempts.ts). */
  generation?: number;
}

export function judgeActivities(deps: ActivityDeps) {
  const steps = createStepLedger(deps.store, deps.now);
  return {
    /**
     * The judge: the stored transcript (final attempts), the rubric and the postconditions,
     * judged by the run's number of samples, each re-asked when its answer is broken or short.
     * The step records the verdict with every request and their usage summed. A verdict
     * already given in this round (its completion lost in a crash) is returned as stored, not
     * asked again.
     */
    async judgeRun({ spec, facts, postconditions, round = 0, generation = 0 }: JudgeRequest): Promise<JudgeOutput> {
      const activity = activityAttempt();
      const key = { runId: spec.runId, role: 'judge' as const, turn: round, attempt: transcriptAttempt(generation, activity, spec.resumes) };
      const prior = await steps.prior(key);
      if (prior.finished) return { verdict: prior.finished as unknown as RunVerdict, attempt: activity, anomalies: [] };
      const anomalies: RunAnomaly[] = [];
      const repeated = await steps.repeatedSpend(key, prior.lost);
      if (repeated) anomalies.push(repeated);
      const events = latestAttempts(await deps.store.getTranscript(spec.runId, { attempts: 'all' }));
      const model = patientModel(deps, spec, 'judge', spec.judge, round);
      await steps.markSpending(key);
      const judged = await judgeSamples({
        llm: model.llm,
        input: { runId: spec.runId, caseId: spec.evalCase.id, rubric: spec.evalCase.rubric, postconditions, facts, events, ...(await workflowEvidence(deps.store, spec)) },
        samples: judgingOf(spec).samples,
        signal: cancellationSignal(),
      });
      const outage = model.outage();
      if (outage) anomalies.push(outage);
      const verdict: RunVerdict = { score: judged.score, raw: judged.raw, answers: judged.answers, model: judged.model, usage: judged.usage ?? null, judgedAt: deps.now().toISOString() };
      await steps.finish(key, judged.usage ?? null, verdict as unknown as Record<string, unknown>);
      return { verdict, attempt: activity, anomalies };
    },
  };
}
