import type { MockReply } from './types.js';

/** The text of an OpenAI message's content (Chat Completions or Responses): a string, or its parts' texts joined. */
export function contentText(content: string | { text?: string | undefined }[] | null | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => part.text ?? '').join('');
}

/**
 * The tokens the OpenAI and Gemini mocks report for a reply: the scripted counts, else 100 in
 * and about one token per four characters of text out (at least one).
 */
export function replyTokens(reply: MockReply): { input: number; output: number } {
  return {
    input: reply.usage?.input_tokens ?? 100,
    output: reply.usage?.output_tokens ?? Math.max(1, Math.ceil((reply.text ?? '').length / 4)),
  };
}
