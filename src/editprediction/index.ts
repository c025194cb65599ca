// format: the example format (schema, Markdown and JSON, cursor markers, keys, store rows)
export * from './format/schema.js';
export { parseExampleMarkdown, parsePathList, ACCEPTED_PREDICTION_MARKER } from './format/parseExampleMarkdown.js';
export { exampleToMarkdown } from './format/exampleToMarkdown.js';
export { exampleToJson, exampleToJsonLine } from './format/exampleToJson.js';
export { readExamples, parseExampleText } from './format/readExamples.js';
export type { ReadExamplesOptions } from './format/readExamples.js';
export { formatJsonl, writeJsonl, writeMarkdownDir, markdownFileName, sanitizedFileName } from './format/writeExamples.js';
export {
  decodeCursorExcerpt,
  encodeCursorExcerpt,
  extractCursorFromPatch,
  encodeCursorInPatch,
  commentPrefixForPath,
  INLINE_CURSOR_MARKER,
  CURSOR_POSITION_MARKER,
} from './format/cursorMarkers.js';
export type { CursorExcerpt, PatchCursor } from './format/cursorMarkers.js';
export { exampleKey } from './format/exampleKey.js';
export { exampleFromRows, exampleRow, predictionRows, storedPrediction } from './format/storedExample.js';
export type { ExampleRow, PredictionRow, ScoreRow } from './format/storedExample.js';

// replay: the buffer rebuilt from the repository, diffs and patch application
export { replayExample } from './replay/replayExample.js';
export type { ReplayLineEndings, ReplayOptions, ReplayResult } from './replay/replayExample.js';
export { parseRepositoryUrl } from './replay/repositoryLocation.js';
export type { RepositoryLocation } from './replay/repositoryLocation.js';
export { parseDiff, parseDiffLine, stripDiffPathPrefix } from './replay/parseDiff.js';
export type { DiffEvent, DiffLine, Hunk, HunkEdit } from './replay/parseDiff.js';
export { applyDiffToString, applyDiffWithHunkOffset } from './replay/applyDiff.js';
export { unifiedDiff } from './replay/unifiedDiff.js';
export type { UnifiedDiffOptions } from './replay/unifiedDiff.js';

// predict: prompt inputs and providers
export { computeCursorExcerpt, computeExcerptRanges } from './predict/excerptRanges.js';
export type { EditPredictionProvider, PredictionOutcome } from './predict/provider.js';
export { createNoopProvider } from './predict/noop.js';
export { createOpenAiProvider, predictionFromReply } from './predict/openai.js';
export type { OpenAiProviderOptions } from './predict/openai.js';
export { createPredictionProvider, PROVIDER_NAMES } from './predict/registry.js';
export type { ProviderName, ProviderDeps } from './predict/registry.js';

// metrics
export { deltaChrF, DEFAULT_DELTA_CHRF_BETA } from './metrics/deltaChrF.js';
export { exactLinesMatch } from './metrics/exactLines.js';
export { bracesDisbalance } from './metrics/braces.js';
export { predictionReversalRatio } from './metrics/reversal.js';
export { cursorMetrics } from './metrics/cursorMetrics.js';
export { isEditableRegionCorrect } from './metrics/editableRegion.js';
export { hasIsolatedWhitespaceChanges } from './metrics/isolatedWhitespace.js';
export { computeKeptRate } from './metrics/keptRate.js';
export { countPatchTokenChanges } from './metrics/tokenChanges.js';
export { tokenize } from './metrics/tokenize.js';
export { prepareExpectedPatches } from './metrics/expectedPatches.js';
export type { PreparedExpectedPatch } from './metrics/expectedPatches.js';
export { createPredictionScorer, scorePrediction } from './metrics/scorePrediction.js';
export type { ExampleScoringContext, PredictionScoringInput, PredictionToScore } from './metrics/scorePrediction.js';
export type { Classification } from './metrics/classification.js';

// report: the eval report, summary JSON, failure artifacts and -o resume
export { formatEvalReport } from './report/evalReport.js';
export { summaryJson } from './report/summaryJson.js';
export type { SummaryJson } from './report/summaryJson.js';
export { writeFailureArtifacts } from './report/failureArtifacts.js';
export { resumeOutput } from './report/resumeOutput.js';

// the per-example steps, example selection and the batch workflow's contract
export { loadProject, predictExample, scoreExample, promptInputsFromSpec } from './pipeline.js';
export type { ScoreOptions } from './pipeline.js';
export { selectExamples, groupExamplesByRepository } from './selection.js';
export type { SelectionOptions } from './selection.js';
export { MAX_FAILURES_KEPT } from './epBatchLimits.js';
export {
  EpBatchCountsSchema,
  EpBatchExampleSchema,
  EpBatchInputSchema,
  EpBatchOutcomeSchema,
  EpBatchResultSchema,
  EpBatchStageSchema,
  EpExampleFailureSchema,
  EpModelEndpointSchema,
  EpProviderSpecSchema,
} from './epBatch.js';
export type {
  EpBatchCounts,
  EpBatchExample,
  EpBatchInput,
  EpBatchOutcome,
  EpBatchResult,
  EpBatchStage,
  EpExampleFailure,
  EpModelEndpoint,
  EpProviderSpec,
} from './epBatch.js';
