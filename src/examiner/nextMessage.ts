import { LlmError } from '../errors.js';
import type { LlmClient } from '../llm/port.js';
import { readExaminerReply } from './endSignal.js';
import { buildExaminerMessages, type ExaminerPromptInput } from './examinerPrompt.js';
import type { Usage } from '../vocabulary/usage.js';

export interface ExaminerReply {
  /** The next user message; when `ended`, the remark that came with `<<END>>` (recorded, not sent). */
  message: string;
  ended: boolean;
  usage: Usage | undefined;
  model: string;
}

/**
 * Write the user's message for turn 2 or later with the examiner model, or detect that the
 * examiner ended the dialogue with `<<END>>`. LlmError from the client passes through with its
 * `retryable` flag; an empty reply is retryable too, since another sample may well have text.
 */
export async function nextMessage({
  llm,
  signal,
  ...input
}: ExaminerPromptInput & { llm: LlmClient; signal?: AbortSignal }): Promise<ExaminerReply> {
  const response = await llm.chat({
    role: 'examiner',
    messages: buildExaminerMessages(input),
    ...(signal ? { signal } : {}),
  });
  const text = response.content ?? '';
  if (text.trim() === '') {
    throw new LlmError(
      `examiner model ${response.model} returned an empty reply for turn ${input.turn} (expected a user message or <<END>>)`,
      undefined,
      true,
    );
  }
  return { ...readExaminerReply(text), usage: response.usage, model: response.model };
}
