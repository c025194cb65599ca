import type { CheckResult } from '../evalset/checkResult.js';
import type { RunFacts } from '../vocabulary/runFacts.js';
import type { TranscriptEvent } from '../transcript/schema.js';
import type { ExpectationResult, WorkflowUsageRow } from '../workflowUsage/index.js';
import type { CompactOptions } from './compact.js';

/**
 * The rubric as the evalset loader produces it from rubric.md. Declared structurally (and
 * readonly) so the loader's own type is accepted as is.
 */
export interface JudgeRubric {
  /** 1–5 items, each verifiable from tool events; all must hold to pass. */
  readonly hard: readonly string[];
  /** Affect the scores, never block a pass. */
  readonly quality: readonly string[];
  readonly commonFailures: readonly string[];
}

/** Everything the judge sees for one run. */
export interface JudgeInput {
  runId: string;
  caseId: string;
  rubric: JudgeRubric;
  /** Postcondition results from env.yaml, run after the dialogue. */
  postconditions: readonly CheckResult[];
  facts: RunFacts;
  /** What the candidate did with each item of its workflow snapshot (none without a workflow). */
  workflowUsage?: readonly WorkflowUsageRow[];
  /** The case's `expect_workflow`, checked against the usage: hard requirements decided by evalflow, not the judge. */
  expectations?: readonly ExpectationResult[];
  /** The run's transcript, already filtered to the latest attempt of each turn. */
  events: readonly TranscriptEvent[];
  /** Compaction limits; the defaults suit production, tests shrink them. */
  compact?: CompactOptions;
}
