import type { CandidateSpec } from '../candidates/adapter.js';
import type { RunSpec } from './runSpec.js';

/** One planned run of a batch: which case (by folder) and which attempt. */
export interface CaseRef {
  caseId: string;
  caseDir: string;
  /** The case's content hash when the batch was planned; a changed case is refused. */
  hash: string;
  k?: number;
}

/** The supply side shared by every run of a batch. */
export interface RunTemplate {
  candidate: CandidateSpec;
  examiner: RunSpec['examiner'];
  judge: RunSpec['judge'];
  project: string;
  workflowDir: string;
  runsDir: string;
  turnTimeoutS: number;
}

export interface BatchCounts {
  finished: number;
  passed: number;
  failed: number;
  [status: string]: number;
}

export interface BatchInput {
  batchId: string;
  stamp: string;
  refs: CaseRef[];
  template: RunTemplate;
  parallelism: number;
  /** Where this (continued) execution starts in `refs`. */
  offset: number;
  counts: BatchCounts;
  recent: { runId: string; caseId: string; status: string; result: string | null; overall: number | null }[];
  /** Runs planned per page (default 100). */
  pageSize?: number;
  /** History length after which the batch continues as new between pages (default 8000). */
  continueAsNewAfterEvents?: number;
}

export interface BatchResult {
  batchId: string;
  total: number;
  counts: BatchCounts;
}
