import type { CheckResult } from '../evalset/checkResult.js';
import { judgeRun } from '../judge/index.js';
import type { RunFacts } from '../run/runFacts.js';
import type { RunSpec } from '../run/runSpec.js';
import type { RunVerdict } from '../run/runVerdict.js';
import { latestAttempts } from '../transcript/latestAttempts.js';
import type { ActivityDeps } from './deps.js';
import { activityAttempt, cancellationSignal } from './temporalContext.js';

export interface JudgeOutput {
  verdict: RunVerdict;
  /** This activity's attempt: earlier ones failed for infrastructure reasons. */
  attempt: number;
}

export function judgeActivities(deps: ActivityDeps) {
  return {
    /** The judge: the stored transcript (final attempts), the rubric and the postconditions. */
    async judgeRun({ spec, facts, postconditions }: { spec: RunSpec; facts: RunFacts; postconditions: CheckResult[] }): Promise<JudgeOutput> {
      const events = latestAttempts(await deps.store.getTranscript(spec.runId, { attempts: 'all' }));
      const judged = await judgeRun({
        llm: deps.llmFor('judge', spec.judge),
        input: { runId: spec.runId, caseId: spec.evalCase.id, rubric: spec.evalCase.rubric, postconditions, facts, events },
        signal: cancellationSignal(),
      });
      const score = judged.usage ? { ...judged.score, judge_usage: judged.usage } : judged.score;
      return {
        verdict: { score, raw: judged.raw, model: judged.model, usage: judged.usage ?? null, judgedAt: deps.now().toISOString() },
        attempt: activityAttempt(),
      };
    },
  };
}
