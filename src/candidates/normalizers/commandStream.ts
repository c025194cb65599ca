import type { NormalizerOptions, StreamNormalizer, TurnOutcome } from '../adapter.js';
import { CLAUDE_FLAVORS, createClaudeStreamNormalizer } from './claudeStream.js';
import { createEventCollector } from './eventCollector.js';
import { parseJsonLine } from './jsonLine.js';
import { LIMITS, createTextKeeper } from './truncate.js';
import { turnFailure } from './turnFailure.js';

/**
 * stdout of an arbitrary command (the `command` adapter): the first non-blank line decides.
 * A JSON object with a `type` means Claude-style stream-json, parsed by the Claude family
 * normaliser (usage per invocation); anything else is plain text, and all of stdout is the
 * reply — of a huge stdout, its first and last 16,000 characters around a note of the cut,
 * kept in bounded memory as it arrives. Either way a non-zero exit fails the turn.
 */
export function createCommandStreamNormalizer(options: NormalizerOptions = {}): StreamNormalizer {
  let mode: 'unknown' | 'stream' | 'text' = 'unknown';
  const stream = createClaudeStreamNormalizer(CLAUDE_FLAVORS.generic, options);
  const text = createTextKeeper(LIMITS.reply / 2, LIMITS.reply / 2);
  let lines = 0;

  return {
    push(line) {
      if (mode === 'unknown' && line.trim()) mode = typeof parseJsonLine(line)?.type === 'string' ? 'stream' : 'text';
      if (mode === 'stream') return stream.push(line);
      text.push(lines++ === 0 ? line : `\n${line}`);
      return [];
    },
    end(exit): TurnOutcome {
      if (mode === 'stream') return stream.end(exit);
      const collector = createEventCollector(options.cwd);
      const failure = turnFailure(exit, { terminalSeen: true, terminalName: 'exit' });
      return collector.settle({ failure, reply: text.text(), ignoredLines: 0 });
    },
  };
}
