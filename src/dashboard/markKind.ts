import type { RunState } from '../vocabulary/runStatus.js';
import type { VerdictResult } from '../vocabulary/verdictResult.js';
import type { MarkKind } from './schema.js';

/** A completed run shows its result; a completed run without a verdict shows as a failed judging. */
export function markKind(status: RunState, result: VerdictResult | null): MarkKind {
  if (status === 'completed') return result ?? 'judge_failed';
  return status;
}
