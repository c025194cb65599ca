import type { RunOutcome } from '../run/runOutcome.js';
import type { RunRecordInput } from '../run/runRecord.js';
import type { RunStatus } from '../vocabulary/runStatus.js';
import type { ActivityDeps } from './deps.js';
import { createRunRecord } from '../run/runRecord.js';

export function recordActivities(deps: ActivityDeps) {
  const record = createRunRecord(deps);
  return {
    /** score.yaml, review.md, transcript.jsonl and the store row: the run's final record. */
    async recordRun(input: RunRecordInput): Promise<RunOutcome> {
      return record.finish(input);
    },

    /** The row of a run whose workflow failed before recording itself, so it does not stay `running`. */
    async markRunFailed(request: { runId: string; status: RunStatus; error: string }): Promise<boolean> {
      return record.markUnrecorded(request);
    },
  };
}
