import { ConfigError } from '../errors.js';
import { parseOrThrow } from '../format.js';
import { JudgeInputRecordSchema, type JudgeInputRecord } from '../run/runFiles.js';
import type { RunOutcome } from '../run/runOutcome.js';
import { RunSpecSchema, type RunSpec } from '../run/runSpec.js';
import { scoreRowOf, type RunVerdict } from '../run/runVerdict.js';
import { hostTaskQueue } from '../temporal/names.js';
import type { ActivityDeps } from './deps.js';

export interface RejudgeInput {
  spec: RunSpec;
  facts: JudgeInputRecord['facts'];
  postconditions: JudgeInputRecord['postconditions'];
  /** The queue of the host that holds the run directory (score.yaml and review.md are rewritten there). */
  hostQueue: string;
  /** This judging's round: 0 was the run's own, each rejudge takes the next. */
  round: number;
}

export function rejudgeActivities(deps: ActivityDeps) {
  return {
    /** An extra judging of a run kept as a sample; the run's outcome as the store has it. */
    async recordJudgeSample({ runId, verdict }: { runId: string; verdict: RunVerdict }): Promise<RunOutcome> {
      const score = verdict.score;
      await deps.store.saveJudgeSample(runId, scoreRowOf(verdict));
      const run = await deps.store.getRun(runId);
      if (!run) throw new ConfigError(`no run ${runId} in the store`);
      return { runId, caseId: run.case_id, status: 'completed', result: score.result, overall: score.overall, runDir: run.run_dir, anomalies: [] };
    },

    /** What judging a run again needs, from the store; runs that never reached the judge are refused. */
    async loadRejudgeInput({ runId }: { runId: string }): Promise<RejudgeInput> {
      const run = await deps.store.getRun(runId);
      if (!run) throw new ConfigError(`no run ${runId} in the store`);
      if (!run.spec || !run.judge_input) {
        throw new ConfigError(`run ${runId} (${run.status}) never reached the judge, so there is nothing to rejudge; start a new run instead`);
      }
      const spec = parseOrThrow(RunSpecSchema, run.spec, `store: runs.spec of ${runId}`);
      const judgeInput = parseOrThrow(JudgeInputRecordSchema, run.judge_input, `store: runs.judge_input of ${runId}`);
      const rounds = (await deps.store.getSteps(runId, { role: 'judge' })).map((step) => step.turn);
      return { spec, facts: judgeInput.facts, postconditions: judgeInput.postconditions, hostQueue: hostTaskQueue(judgeInput.host_id), round: Math.max(0, ...rounds) + 1 };
    },
  };
}
