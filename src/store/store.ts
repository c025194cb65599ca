import type { VerdictResult } from '../vocabulary/verdictResult.js';
import type { TranscriptEvent } from '../transcript/schema.js';
import type { WorkflowPlacement, WorkflowUsageRow } from '../vocabulary/workflowUsage.js';
import type { EpExample, EpExampleRowInput, EpPrediction, EpPredictionRowInput, EpScore, EpScoreRowInput } from './editPredictionSchema.js';
import type { MigrationReport } from './migrate.js';
import type { ScheduleBaseline, ScheduledBatch } from './scheduleSchema.js';
import type { RunHost, WorkerRow } from './hostSchema.js';
import type { CalibrationRow } from './calibrationSchema.js';
import type { CaseSetEntry } from './casePackSchema.js';
import type { ComparisonCaseStatsRow, ComparisonFilter, TriggerObservationStatsRow } from './comparisonStatsSchema.js';
import type { BatchDecision } from './decisionSchema.js';
import type {
  Batch,
  BatchRowInput,
  BatchPatch,
  ListBatchesFilter,
  ListRunsFilter,
  Run,
  RunRowInput,
  RunPatch,
  RevisionCaseStatsRow,
  RunStateRow,
  CaseRunRow,
  ScoreRow,
  ScoreHistoryEntry,
  ScoreHistoryFilter,
  ScoreRowInput,
  PlanEntry,
  PlanEntryInput,
  RunReview,
  RunReviewRowInput,
  RunStep,
  RunStepKey,
  RunStepRole,
} from './schema.js';
import type { Usage } from '../vocabulary/usage.js';

/** Recorded runs of a case that loaded or invoked one workflow item. */
export interface WorkflowItemUse {
  case_id: string;
  item: string;
  runs: number;
  example_run_id: string;
}

/** Which attempts of each turn `getTranscript` returns. */
export interface TranscriptQuery {
  /**
   * `latest` (default): only the events of each turn's highest attempt, because a retried
   * candidate turn rewrites the turn under a higher attempt and the judge must see only the
   * final one. `all`: every attempt, for debugging retries.
   */
  attempts: 'latest' | 'all';
}

/**
 * The source of truth for runs, transcript events and scores; transcript.jsonl, score.yaml
 * and summaries are views rebuilt from it. One interface, two backends (PostgreSQL through
 * `pg`, embedded PGlite) sharing all SQL. Open one with `openStore`.
 *
 * Every argument and result is plain JSON (ISO timestamp strings, no Dates), so activities
 * can pass them through Temporal. Writes are idempotent: retrying any of them with the same
 * input leaves the same rows. Driver failures surface as StoreError naming the operation;
 * invalid arguments as FormatError naming the method and field.
 */
export interface Store {
  readonly backend: 'postgres' | 'pglite';
  /**
   * The process this one reaches the embedded store through (`process 123 (evalflow worker)
   * on host`), when another process holds it and serves it; null when this process holds it
   * or the store is PostgreSQL.
   */
  readonly servedBy: string | null;

  /** Applies missing migrations; `openStore` already did, so this normally applies none. */
  migrate(): Promise<MigrationReport>;
  /** The schema version the store records and the one this evalflow knows (readers open with `migrate: false` and compare). */
  schemaVersion(): Promise<{ recorded: number; known: number }>;
  /** A mark of the store's state that changes whenever a write becomes visible (see changeMark.ts): equal marks, same rows. */
  changeMark(): Promise<string>;

  /** Inserts or replaces a run (all columns but `created_at`, which the first write sets). */
  upsertRun(run: RunRowInput): Promise<Run>;
  /** Changes some columns of an existing run; StoreError if there is no such run. */
  updateRun(runId: string, patch: RunPatch): Promise<Run>;
  getRun(runId: string): Promise<Run | null>;
  /** Newest first (by `created_at`, then `run_id`); every filter given must match. */
  listRuns(filter?: ListRunsFilter): Promise<Run[]>;
  /** Where each run of a batch stands (status, result, last change), by run_id: what the live view polls. */
  batchRunStates(batchId: string): Promise<RunStateRow[]>;
  /** A batch's runs as the viewer's case views and a run page's related links list them, by run_id. */
  batchCaseRuns(batchId: string): Promise<CaseRunRow[]>;
  /** Per workflow revision and case, the runs' counts (GROUP BY in SQL, no run loaded): `history`'s source. */
  revisionCaseStats(filter?: { caseId?: string; candidate?: string }): Promise<RevisionCaseStatsRow[]>;
  /** Per workflow revision, the batches run until decided that ran it (as `revisionCaseStats` counts revisions, same filter): what `history` notes of them. */
  untilDecidedRevisionBatches(filter?: { caseId?: string; candidate?: string }): Promise<{ workflow_rev: string; batch_id: string }[]>;
  /** Per case, one comparison side's counts and, in run order, what it reads run by run (GROUP BY in SQL): `compare`'s source. */
  comparisonCaseStats(filter: ComparisonFilter): Promise<ComparisonCaseStatsRow[]>;
  /** One comparison side's runs with workflow usage, grouped by their case's expectation and the usage: trigger quality's source. */
  triggerObservationStats(filter: ComparisonFilter): Promise<TriggerObservationStatsRow[]>;

  /**
   * Inserts events in one statement; an event whose (run_id, turn, attempt, seq) is already
   * stored is skipped, so a retried write never duplicates. Its run must exist.
   */
  appendTranscriptEvents(events: readonly TranscriptEvent[]): Promise<{ inserted: number }>;
  /** Ordered by turn, attempt, seq. Timestamps come back normalised to `…T…Z` with ms. */
  getTranscript(runId: string, query?: TranscriptQuery): Promise<TranscriptEvent[]>;

  /**
   * Makes `score` the run's current verdict, appends it to `score_history` and copies its
   * result and overall onto the run, in one transaction. A verdict older (by `judged_at`)
   * than the current one is only added to the history, so a late retry never undoes a rejudge.
   * Returns the run's current verdict.
   */
  saveScore(runId: string, score: ScoreRowInput): Promise<ScoreRow>;
  getScore(runId: string): Promise<ScoreRow | null>;
  /** Adds an extra judging of a run's transcript to score_history, leaving its current verdict as it is. */
  saveJudgeSample(runId: string, score: ScoreRowInput): Promise<void>;
  /** Every judging of the given runs (the run's own, rejudges and samples), by run and time. */
  getJudgings(runIds: readonly string[]): Promise<{ run_id: string; result: VerdictResult | null; judged_at: string; sample: boolean }[]>;
  /** The current verdicts of the given runs (runs without one are left out), in no particular order. */
  getScores(runIds: readonly string[]): Promise<ScoreRow[]>;
  /** Every saved verdict with its run's case, candidate and workflow_rev: the latest `limit`, oldest first. */
  scoreHistory(filter?: ScoreHistoryFilter): Promise<ScoreHistoryEntry[]>;

  /**
   * Records a person's decision on a run, once: when the run has one already, that one is
   * kept and returned (compare it to tell a resent decision from a second one). The run must exist.
   */
  saveReview(runId: string, review: RunReviewRowInput): Promise<RunReview>;
  getReview(runId: string): Promise<RunReview | null>;

  /** Inserts or replaces a batch (all columns but `created_at`). */
  upsertBatch(batch: BatchRowInput): Promise<Batch>;
  /** Changes a batch's status and/or counts; StoreError if there is no such batch. */
  updateBatch(batchId: string, patch: BatchPatch): Promise<Batch>;
  getBatch(batchId: string): Promise<Batch | null>;
  /** Newest first (by `created_at`, then `batch_id`). */
  listBatches(filter?: ListBatchesFilter): Promise<Batch[]>;

  /** Sets the batch a schedule is compared with (`evalflow bless`), replacing the one before. */
  blessBaseline(baseline: ScheduleBaseline): Promise<ScheduleBaseline>;
  getBaseline(schedule: string): Promise<ScheduleBaseline | null>;
  /** Keeps a scheduled batch's report (again, when a conclusion is retried). */
  saveScheduledBatch(batch: ScheduledBatch): Promise<ScheduledBatch>;
  /** A schedule's finished batches, newest first. */
  listScheduledBatches(schedule: string, limit: number): Promise<ScheduledBatch[]>;

  /** Replaces the sequential test's decisions of a batch run until decided (one per case). */
  saveBatchDecisions(batchId: string, decisions: readonly BatchDecision[]): Promise<void>;
  /** A batch's decisions by case; none for a batch that was not run until decided (or has not ended). */
  getBatchDecisions(batchId: string): Promise<BatchDecision[]>;

  /** Writes plan entries of a batch; an entry whose (batch, idx) is stored already is kept as it is. */
  savePlan(batchId: string, entries: readonly PlanEntryInput[]): Promise<{ inserted: number }>;
  /** The plan entries with `offset <= idx < offset + limit`, in order. */
  getPlan(batchId: string, offset: number, limit: number): Promise<PlanEntry[]>;
  /** How many entries the batch's plan has (0 when it was never planned). */
  countPlan(batchId: string): Promise<number>;

  /** Marks an attempt at a run's step as spending (the agent or model is about to be called). */
  markStepSpending(key: RunStepKey, startedAt: string): Promise<RunStep>;
  /** Marks an attempt finished with its usage and output (inserting it when it was never marked). */
  finishStep(key: RunStepKey, result: { usage: Usage | null; output: Record<string, unknown> | null; finishedAt: string }): Promise<RunStep>;
  /** A run's steps, by role, turn and attempt; optionally one role and turn. */
  getSteps(runId: string, filter?: { role?: RunStepRole; turn?: number }): Promise<RunStep[]>;

  /** Inserts or refreshes an edit-prediction example under its `example_key`. */
  saveEpExample(example: EpExampleRowInput): Promise<EpExample>;
  /** The example saved under `exampleKey`, or null. */
  getEpExample(exampleKey: string): Promise<EpExample | null>;
  /** Inserts or replaces one prediction; its example must be saved first. */
  saveEpPrediction(prediction: EpPredictionRowInput): Promise<EpPrediction>;
  /** Ordered by provider, then repetition. */
  getEpPredictions(batchId: string, exampleKey: string): Promise<EpPrediction[]>;
  /** Inserts or replaces the score of one prediction; the prediction must exist. */
  saveEpScore(score: EpScoreRowInput): Promise<EpScore>;
  /** Ordered by example_key, provider, repetition. */
  listEpScores(batchId: string): Promise<EpScore[]>;

  /** Replaces the run's workflow usage rows (one per item of its snapshot). The run must exist. */
  saveWorkflowUsage(runId: string, rows: readonly WorkflowUsageRow[]): Promise<void>;
  /** The workflow usage rows of the given runs, by run and item. */
  getWorkflowUsage(runIds: readonly string[]): Promise<(WorkflowUsageRow & { run_id: string })[]>;
  /** Per case and item among `items`: the recorded runs that loaded or invoked it (`yes`, not `unknown`), and one of them. */
  listWorkflowItemUse(items: readonly string[]): Promise<WorkflowItemUse[]>;
  /** Where the run's workflow folders were placed in its sandbox. */
  saveWorkflowPlacement(runId: string, placement: WorkflowPlacement): Promise<void>;
  getWorkflowPlacement(runId: string): Promise<WorkflowPlacement | null>;

  /** Writes a worker's heartbeat row; returns it as stored (`draining` stays true once asked). */
  heartbeatWorker(worker: WorkerRow): Promise<WorkerRow>;
  /** Every worker row, live or not (`seen_at` tells), by host. */
  listWorkers(): Promise<WorkerRow[]>;
  removeWorker(workerId: string): Promise<void>;
  /** Asks every worker of the host to drain; returns the rows asked. */
  drainHost(hostId: string): Promise<WorkerRow[]>;
  /** Records the host that took an attempt of a run, once per generation. */
  saveRunHost(claim: RunHost): Promise<void>;
  /** The hosts of the given runs' attempts, by run and generation. */
  getRunHosts(runIds: readonly string[]): Promise<RunHost[]>;

  /** Keeps one case's calibration from an A/A batch, replacing the row of that batch and case when there is one. */
  saveCalibration(row: CalibrationRow): Promise<CalibrationRow>;
  /** The newest calibration of each version (case_hash) of the given cases. */
  latestCalibrations(caseIds: readonly string[]): Promise<CalibrationRow[]>;
  /** Keeps a case folder's content under its hash (once: a hash names one content). */
  saveCasePack(pack: { packHash: string; caseId: string; pack: Record<string, unknown>; bytes: number }): Promise<void>;
  /** The content saved under `packHash` as stored (the caller checks it against the hash), or null. */
  getCasePack(packHash: string): Promise<unknown>;
  /** Keeps a batch's selection of case packs; returns its `sha256:…` key. */
  saveCaseSet(entries: readonly CaseSetEntry[]): Promise<string>;
  /** The selection saved under `setHash`, in its order, or null. */
  getCaseSet(setHash: string): Promise<CaseSetEntry[] | null>;

  /** Releases the pool or the PGlite instance (and its data-dir lock). Idempotent. */
  close(): Promise<void>;
}
