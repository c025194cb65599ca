import type { ReviewDecision } from '../vocabulary/reviewDecision.js';

/**
 * The words shared by the run workflow (its update validator and current details) and the
 * `evalflow review` command, so a decision refused by either reads the same. Import-free but
 * for types: the workflow bundle includes it.
 */

/** How a person settles a run, as the CLI spells it. */
export function reviewCommand(runId: string): string {
  return `evalflow review ${runId} --result pass|fail --note "why"`;
}

/** The run's current details in the Web UI while it waits. */
export function waitingDetails(runId: string, reasons: readonly string[]): string {
  return `waiting for a person's review: ${reasons.join('; ')}. Decide with: ${reviewCommand(runId)}`;
}

/** The refusal of a second decision. */
export function secondDecisionRefused(runId: string, first: Pick<ReviewDecision, 'result' | 'author' | 'note' | 'decidedAt'>): string {
  return `run ${runId} already has a person's decision: ${first.result} by ${first.author} at ${first.decidedAt} ("${first.note}"); a second decision is refused`;
}
