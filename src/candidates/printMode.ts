import type { InvocationContext } from './adapter.js';

/**
 * The headless call Claude Code introduced and Gemini CLI, Qwen Code and CodeBuddy share: the
 * message after `-p`, the events on stdout as `stream-json` lines. Each adds its own flags after.
 */
export function printStreamJsonArgs(ctx: InvocationContext): string[] {
  return ['-p', ctx.message, '--output-format', 'stream-json'];
}
