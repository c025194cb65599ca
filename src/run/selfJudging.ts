import { ConfigError } from '../errors.js';
import type { CandidateSpec, ModelEndpoint } from './runSpec.js';

/**
 * Refuses a judge that would grade its own work: one on the candidate's model, or served by
 * the candidate's agent CLI. A model prefers answers like its own, so such verdicts are not
 * evidence; `--allow-self-judge` accepts them knowingly. Names compare without case.
 */
export function refuseSelfJudging(candidate: CandidateSpec, judge: ModelEndpoint, allowed: boolean): void {
  if (allowed) return;
  const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.trim().toLowerCase() === b.trim().toLowerCase();
  const model = same(judge.model, candidate.model);
  const agent = same(judge.adapter, candidate.adapter);
  if (!model && !agent) return;
  const shared = model && agent ? `model ${judge.model} and agent ${judge.adapter} are` : model ? `model ${judge.model} is` : `agent ${judge.adapter} is`;
  const who = `candidate ${candidate.name}: adapter ${candidate.adapter}${candidate.model ? `, model ${candidate.model}` : ''}`;
  throw new ConfigError(
    `the judge would grade its own work: its ${shared} the candidate's (${who}); ` +
      'give the judge another model (EVALFLOW_JUDGE_MODEL or judge: in evalflow.config.yaml), or pass --allow-self-judge to judge anyway',
  );
}
