import { JudgeError } from '../errors.js';
import type { LlmClient } from '../llm/port.js';
import type { Usage } from '../transcript/schema.js';
import type { JudgeInput } from './judgeInput.js';
import { parseJudgeAnswer } from './parse.js';
import { buildJudgePrompt, judgeMessages } from './prompt.js';
import type { Score } from './scoreSchema.js';
import { decideVerdict } from './verdict.js';

export interface JudgeRunResult {
  score: Score;
  /** The judge's answer text as received, kept for rejudging and debugging. */
  raw: string;
  usage: Usage | undefined;
  model: string;
}

/**
 * Judge one run: build the prompt, ask the model in the `judge` role, parse (or salvage) the
 * answer and apply the verdict rules. LlmError from the client passes through untouched so its
 * `retryable` flag reaches the retry policy; an unreadable answer throws JudgeError.
 */
export async function judgeRun({
  llm,
  input,
  signal,
}: {
  llm: LlmClient;
  input: JudgeInput;
  signal?: AbortSignal;
}): Promise<JudgeRunResult> {
  const prompt = buildJudgePrompt(input);
  const response = await llm.chat({
    role: 'judge',
    messages: judgeMessages(prompt),
    temperature: 0,
    ...(signal ? { signal } : {}),
  });
  const raw = response.content ?? '';
  if (raw.trim() === '') {
    throw new JudgeError(`judge model ${response.model} returned no text (finish reason: ${response.finishReason ?? 'none'})`);
  }

  const parsed = parseJudgeAnswer(raw);
  if (prompt.transcript.elidedBytes > 0) {
    parsed.notes.push(
      `transcript compacted for the judge: ${prompt.transcript.elidedBytes} bytes elided ` +
        `(${prompt.transcript.elidedEvents} events in full, ${prompt.transcript.partlyElidedEvents} in part)`,
    );
  }
  const score = decideVerdict({
    parsed,
    rubric: input.rubric,
    postconditions: input.postconditions,
    runId: input.runId,
    caseId: input.caseId,
    judgeModel: response.model,
  });
  return { score, raw, usage: response.usage, model: response.model };
}
