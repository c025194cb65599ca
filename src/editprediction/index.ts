export * from './schema.js';
export { parseExampleMarkdown, parsePathList, ACCEPTED_PREDICTION_MARKER } from './markdown.js';
export { exampleToMarkdown, sanitizedFileName } from './markdownWrite.js';
export { exampleToJson, exampleToJsonLine } from './exampleJson.js';
export { readExamples, parseExampleText } from './read.js';
export type { ReadExamplesOptions } from './read.js';
export { formatJsonl, writeJsonl, writeMarkdownDir, markdownFileName } from './write.js';
export {
  decodeCursorExcerpt,
  encodeCursorExcerpt,
  extractCursorFromPatch,
  encodeCursorInPatch,
  commentPrefixForPath,
  INLINE_CURSOR_MARKER,
  CURSOR_POSITION_MARKER,
} from './cursor.js';
export type { CursorExcerpt, PatchCursor } from './cursor.js';
export { parseDiff, parseDiffLine, stripDiffPathPrefix } from './udiff.js';
export type { DiffEvent, DiffLine, Hunk, HunkEdit } from './udiff.js';
export { applyDiffToString, applyDiffWithHunkOffset } from './applyDiff.js';
export { unifiedDiff } from './unifiedDiff.js';
export type { UnifiedDiffOptions } from './unifiedDiff.js';
export { computeCursorExcerpt, computeExcerptRanges } from './excerptRanges.js';
export { replayExample } from './replay.js';
export type { ReplayOptions, ReplayResult } from './replay.js';
export { parseRepositoryUrl } from './replay/repositoryLocation.js';
export type { RepositoryLocation } from './replay/repositoryLocation.js';
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
export { scorePrediction } from './metrics/scorePrediction.js';
export type { PredictionScoringInput } from './metrics/scorePrediction.js';
export type { Classification } from './metrics/classification.js';
export { formatEvalReport } from './report.js';
export { summaryJson } from './summary.js';
export type { SummaryJson } from './summary.js';
export type { EditPredictionProvider, PredictionOutcome } from './predict/provider.js';
export { createNoopProvider } from './predict/noop.js';
export { createOpenAiProvider, predictionFromReply } from './predict/openai.js';
export type { OpenAiProviderOptions } from './predict/openai.js';
export { createPredictionProvider, PROVIDER_NAMES } from './predict/registry.js';
export type { ProviderName, ProviderDeps } from './predict/registry.js';
export { loadProject, predictExample, scoreExample, promptInputsFromSpec } from './pipeline.js';
export type { ScoreOptions } from './pipeline.js';
export { selectExamples, groupExamplesByRepository } from './selection.js';
export type { SelectionOptions } from './selection.js';
export { exampleKey } from './exampleKey.js';
export { exampleFromRows, exampleRow, predictionRows, storedPrediction } from './storedExample.js';
export type { ExampleRow, PredictionRow, ScoreRow } from './storedExample.js';
export { MAX_FAILURES_KEPT } from './batchSpec.js';
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
} from './batchSpec.js';
export { resumeOutput } from './resumeOutput.js';
export { writeFailureArtifacts } from './failureArtifacts.js';
