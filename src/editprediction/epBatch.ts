/**
 * What an edit-prediction batch workflow takes and returns: plain JSON, small. Examples cross
 * Temporal by key (their spec is in the store), so a batch of thousands stays far below the
 * payload and history limits.
 */

/** The model endpoint of the `openai` provider (the key is read from `apiKeyEnv` by the worker). */
export interface EpModelEndpoint {
  model: string;
  baseUrl?: string;
  apiKeyEnv?: string;
}

export interface EpProviderSpec {
  /** `noop` or `openai` (see PROVIDER_NAMES). */
  name: string;
  /** Required by `openai`. */
  endpoint?: EpModelEndpoint;
}

/** One example of a batch, in processing order. */
export interface EpBatchExample {
  key: string;
  name: string;
  /** Index of its repository group: examples of one group run one after another (they share a worktree). */
  group: number;
}

/** `predict` stops after the prediction; `score` (ep score, ep eval) also scores it. */
export type EpBatchStage = 'predict' | 'score';

export interface EpBatchInput {
  batchId: string;
  examples: EpBatchExample[];
  provider: EpProviderSpec;
  stage: EpBatchStage;
  /** Delta chrF β. */
  beta: number;
  /** Repository groups processed at the same time. */
  maxParallelism: number;
  /** Stop starting examples after the first failure. */
  failfast: boolean;
  /** Relative local repository paths resolve against this directory (where the user ran evalflow). */
  cwd: string;
  /** Examples per page; the workflow continues as new after each page (default 200). */
  pageSize?: number;
  /** Where this (continued) execution starts in `examples`. */
  offset: number;
  counts: EpBatchCounts;
  failures: EpExampleFailure[];
  /** The most recent outcomes, carried across continue-as-new for the progress query. */
  recent: EpBatchOutcome[];
}

/** One finished example as the progress query shows it. */
export interface EpBatchOutcome {
  key: string;
  name: string;
  status: 'done' | 'failed';
  /** e.g. `predicted by openai:gpt-4o-mini; delta chrF 100.00`, or `failed at load: …`. */
  detail: string;
}

export interface EpBatchCounts {
  finished: number;
  failed: number;
  /** Examples whose predictions were already in the store (from the input, or an earlier attempt). */
  reused: number;
}

/** The step an example failed at, and why. */
export interface EpExampleFailure {
  key: string;
  name: string;
  stage: 'load' | 'predict' | 'score';
  error: string;
}

export interface EpBatchResult {
  batchId: string;
  total: number;
  counts: EpBatchCounts;
  /** The first failures (at most MAX_FAILURES_KEPT); `counts.failed` counts all. */
  failures: EpExampleFailure[];
  /** `failfast` stopped the batch before every example ran. */
  stoppedEarly: boolean;
}

/** Failures kept in the workflow (its input and result stay small); the store tells the rest. */
export const MAX_FAILURES_KEPT = 200;
