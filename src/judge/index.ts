export {
  compactTranscript,
  compactTranscriptStream,
  COMPACT_HEAD_SHARE,
  COMPACT_MAX_BYTES,
  THINKING_MAX_CHARS,
  type CompactOptions,
  type CompactTranscript,
} from './compact.js';
export type { JudgeInput, JudgeRubric } from './judgeInput.js';
export { describeItems, matchHardRequirements, missingItems, type MatchedItems } from './hardItems.js';
export { judgeRun, JUDGE_REQUESTS, type JudgeRunResult } from './judgeRun.js';
export { judgeSamples, SAMPLE_TEMPERATURE } from './judgeSamples.js';
export { parseJudgeAnswer, type ParsedJudgeAnswer } from './parse.js';
export { buildJudgePrompt, judgeMessages, reaskMessage, type JudgePrompt } from './prompt.js';
export { JudgeAnswerSchema, type JudgeAnswer, type ReadAnswer } from './scoreSchema.js';
export { JUDGE_SYSTEM_PROMPT } from './systemPrompt.js';
export { decideVerdict, NOT_ASSESSED, type VerdictInput } from './verdict.js';
