import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';
import type { RunOutcome } from '../run/runOutcome.js';
import { searchAttributes } from '../temporal/names.js';

/** A run's final status, result and overall score as search attributes (run and rejudge alike). */
export function outcomeAttributes(outcome: RunOutcome): SearchAttributeUpdatePair[] {
  return [
    { key: searchAttributes.status, value: outcome.status },
    ...(outcome.result ? [{ key: searchAttributes.result, value: outcome.result }] : []),
    ...(outcome.overall !== null ? [{ key: searchAttributes.overall, value: outcome.overall }] : []),
  ];
}

export function upsertOutcomeAttributes(outcome: RunOutcome): void {
  upsertSearchAttributes(outcomeAttributes(outcome));
}
