import { FormatError } from '../errors.js';

/**
 * Turn 1 of every dialogue: the task's Prompt quote, forwarded verbatim without an LLM call,
 * so every candidate starts from exactly the same words. The loader has already removed the
 * `>` markers; nothing here trims or rewrites the text.
 */
export function firstMessage(prompt: string): string {
  if (prompt.trim() === '') {
    throw new FormatError('task.md: Prompt: expected the Turn 1 quote (a `>` blockquote), found an empty prompt');
  }
  return prompt;
}
