import type { BatchDecision } from '../store/index.js';

/** What the sequential test said of one case, read the way the comparison is (A → B as the user named them). */
export interface CaseDecisionFacts {
  runsASide: number;
  pairs: number;
  onlyA: number;
  onlyB: number;
  evidence: number;
  /** Null: the case was still open when its batch ended. */
  stoppedBy: BatchDecision['stopped_by'];
  why: string;
}
