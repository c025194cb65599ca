import type { RunState } from '../../src/vocabulary/runStatus.js';
import type { RunRowInput } from '../../src/store/index.js';

/** What a seeded run came to: judged pass or fail, or the status it stopped (or waits) in unjudged. */
export type Outcome = 'pass' | 'fail' | Exclude<RunState, 'completed'>;

/** Every role's tokens of a finished run: 100+10, 1,000+200, 500+50 = 1,860. */
export const RUN_TOKENS = { examiner: { input_tokens: 100, output_tokens: 10 }, candidate: { input_tokens: 1_000, output_tokens: 200 }, judge: { input_tokens: 500, output_tokens: 50 } };

/** The status a run with `outcome` is stored in: a judged run completed. */
export function statusOf(outcome: Outcome): RunState {
  return outcome === 'pass' || outcome === 'fail' ? 'completed' : outcome;
}

/**
 * A run of a seeded history, as `upsertRun` takes it: version v1 of its case, a `command`
 * candidate, the examiner, candidate and judge models the seeded prices name, and RUN_TOKENS
 * once it ended, contained (config's `candidate.isolation: sandbox`, as runs are by default);
 * `fields` give the rest and win.
 */
export function aHistoryRun(fields: Pick<RunRowInput, 'run_id' | 'case_id' | 'candidate' | 'run_dir'> & { status: RunState } & Partial<RunRowInput>): RunRowInput {
  const unfinished = fields.status === 'pending' || fields.status === 'running';
  return {
    case_version: 'v1',
    case_hash: `h-${fields.case_id}`,
    candidate_adapter: 'command',
    models: { examiner: 'ex-model', judge: 'judge-model', candidate: 'cand-model' },
    tokens: unfinished ? null : RUN_TOKENS,
    config: { candidate: { isolation: 'sandbox' } },
    ...fields,
  };
}
