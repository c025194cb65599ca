export { openStore } from './openStore.js';
export type { OpenStoreOptions } from './openStore.js';
export type { Store, TranscriptQuery } from './store.js';
export type { MigrationReport } from './migrate.js';
export {
  BatchInputSchema,
  BatchPatchSchema,
  BatchSchema,
  BatchStatusSchema,
  HardRequirementSchema,
  ListBatchesFilterSchema,
  ListRunsFilterSchema,
  PlanEntrySchema,
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
  ScoreSchema,
} from './schema.js';
export type {
  Batch,
  BatchInput,
  BatchPatch,
  BatchStatus,
  HardRequirement,
  ListBatchesFilter,
  ListRunsFilter,
  PlanEntry,
  RunReview,
  RunReviewInput,
  RunStep,
  RunStepKey,
  RunStepRole,
  Run,
  RunInput,
  RunModels,
  RunPatch,
  Score,
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
