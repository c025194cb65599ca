import type { CandidateSpec } from '../../candidates/adapter.js';
import type { ConfigOverrides, Settings } from '../../config.js';
import { ConfigError } from '../../errors.js';
import type { JudgingPolicy } from '../../run/runSpec.js';
import { refuseSelfJudging } from '../../run/selfJudging.js';
import type { CommandIo } from '../io.js';

/** The judging flags of `evalflow run`. */
export interface JudgingFlags {
  review?: JudgingPolicy['review'];
  judges?: number;
  allowSelfJudge?: boolean;
}

/** Judge samples a run may ask for: each is a full judging, re-asks included. */
const MAX_JUDGES = 9;

/** The flags as config overrides: a flag given wins over evalflow.config.yaml's `judging:`. */
export function judgingOverrides(flags: JudgingFlags): Pick<ConfigOverrides, 'review' | 'judges' | 'allowSelfJudge'> {
  if (flags.judges !== undefined && flags.judges > MAX_JUDGES) throw new ConfigError(`--judges: expected 1 to ${MAX_JUDGES} judge samples, found ${flags.judges}`);
  return {
    ...(flags.review ? { review: flags.review } : {}),
    ...(flags.judges ? { judges: flags.judges } : {}),
    ...(flags.allowSelfJudge ? { allowSelfJudge: true } : {}),
  };
}

/**
 * Before anything starts: a judge on the candidate's own model or agent is refused (a
 * ConfigError naming both) unless allowed, and with `--review wait` the user is told where
 * runs that need a person will wait.
 */
export function checkJudging(settings: Settings, candidate: CandidateSpec, io: CommandIo): void {
  refuseSelfJudging(candidate, settings.judge, settings.judging.allowSelfJudge);
  if (settings.judging.review === 'wait') {
    io.err(
      '--review wait: a run whose verdict needs a person waits for `evalflow review RUN_ID --result pass|fail --note "why"` ' +
        '(`evalflow review --pending` lists them); a worker must be running to take the decision (this process, or `evalflow worker`)',
    );
  }
}
