export { openStore } from './openStore.js';
export type { OpenStoreOptions } from './openStore.js';
export type { Store, TranscriptQuery } from './store.js';
export type { MigrationReport } from './migrate.js';
export { ScheduleBaselineSchema, ScheduledBatchSchema, ScheduleVerdictSchema } from './scheduleSchema.js';
export type { ScheduleBaseline, ScheduledBatch, ScheduleVerdict } from './scheduleSchema.js';
export type { RunHost, WorkerRow } from './hostSchema.js';
export {
  BatchInputSchema,
  BatchPatchSchema,
  BatchSchema,
  BatchStatusSchema,
  HardRequirementRowSchema,
  ListBatchesFilterSchema,
  ListRunsFilterSchema,
  PlanEntrySchema,
  RoleTokensSchema,
  RunReviewInputSchema,
  RunReviewSchema,
  RunStepRoleSchema,
  RunStepSchema,
  RunInputSchema,
  RunModelsSchema,
  RunPatchSchema,
  RunSchema,
  ScoreHistoryEntrySchema,
  ScoreHistoryFilterSchema,
  ScoreInputSchema,
  ScoreRowSchema,
} from './schema.js';
export type {
  Batch,
  BatchInput,
  BatchPatch,
  BatchStatus,
  HardRequirementRow,
  ListBatchesFilter,
  ListRunsFilter,
  PlanEntry,
  RoleTokens,
  RunReview,
  RunReviewInput,
  RunStep,
  RunStepKey,
  RunStepRole,
  RunWithVerdict,
  Run,
  RunInput,
  RunModels,
  RunPatch,
  ScoreRow,
  ScoreHistoryEntry,
  ScoreHistoryFilter,
  ScoreInput,
} from './schema.js';
export {
  EpExampleInputSchema,
  EpExampleSchema,
  EpPredictionInputSchema,
  EpPredictionSchema,
  EpScoreInputSchema,
  EpScoreSchema,
} from './editPredictionSchema.js';
export type { EpExample, EpExampleInput, EpPrediction, EpPredictionInput, EpScore, EpScoreInput } from './editPredictionSchema.js';
