export { openStore } from './openStore.js';
export type { OpenStoreOptions } from './openStore.js';
export type { LingerOptions } from './startLingeringService.js';
export { runLingeringService } from './lingeringService.js';
export type { Store, TranscriptQuery, WorkflowItemUse } from './store.js';
export type { MigrationReport } from './migrate.js';
export { ScheduleBaselineSchema, ScheduledBatchRowSchema, ScheduleVerdictSchema } from './scheduleSchema.js';
export type { ScheduleBaseline, ScheduledBatch, ScheduleVerdict } from './scheduleSchema.js';
export type { RunHost, WorkerRow } from './hostSchema.js';
export { CalibrationRowSchema, type CalibrationRow } from './calibrationSchema.js';
export { CaseSetEntrySchema } from './casePackSchema.js';
export type { CaseSetEntry } from './casePackSchema.js';
export { ComparisonCaseStatsRowSchema, ComparisonFilterSchema, TriggerObservationStatsRowSchema } from './comparisonStatsSchema.js';
export type { ComparisonCaseStatsRow, ComparisonFilter, TriggerObservationStatsRow } from './comparisonStatsSchema.js';
export { BatchDecisionRowSchema } from './decisionSchema.js';
export type { BatchDecision } from './decisionSchema.js';
export {
  BatchRowInputSchema,
  BatchPatchSchema,
  BatchRowSchema,
  BatchStatusSchema,
  HardRequirementRowSchema,
  ListBatchesFilterSchema,
  ListRunsFilterSchema,
  PlanEntryRowSchema,
  RoleTokensSchema,
  RunReviewRowInputSchema,
  RunReviewRowSchema,
  RunStepRoleSchema,
  RunStepRowSchema,
  RunRowInputSchema,
  RunModelsSchema,
  RunPatchSchema,
  RunRowSchema,
  RunStateRowSchema,
  CaseRunRowSchema,
  ScoreHistoryEntrySchema,
  ScoreHistoryFilterSchema,
  ScoreRowInputSchema,
  ScoreRowSchema,
} from './schema.js';
export type {
  Batch,
  BatchRowInput,
  BatchPatch,
  BatchStatus,
  HardRequirementRow,
  ListBatchesFilter,
  ListRunsFilter,
  PlanEntry,
  PlanEntryInput,
  RoleTokens,
  RunReview,
  RunReviewRowInput,
  RunStep,
  RunStepKey,
  RunStepRole,
  RunWithVerdict,
  Run,
  RunRowInput,
  RunModels,
  RunPatch,
  RevisionCaseStatsRow,
  RunStateRow,
  CaseRunRow,
  ScoreRow,
  ScoreHistoryEntry,
  ScoreHistoryFilter,
  ScoreRowInput,
} from './schema.js';
export {
  EpExampleRowInputSchema,
  EpExampleRowSchema,
  EpPredictionRowInputSchema,
  EpPredictionRowSchema,
  EpScoreRowInputSchema,
  EpScoreRowSchema,
} from './editPredictionSchema.js';
export type { EpExample, EpExampleRowInput, EpPrediction, EpPredictionRowInput, EpScore, EpScoreRowInput } from './editPredictionSchema.js';
