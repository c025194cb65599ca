import type { NormalizerOptions, StreamNormalizer, TurnOutcome } from '../adapter.js';
import { createEventCollector } from './eventCollector.js';
import { asObject, asString, type JsonObject } from './jsonLine.js';
import { createJsonStreamNormalizer } from './jsonStream.js';
import { turnFailure } from './turnFailure.js';
import { makeUsage, num } from './usage.js';
import type { Usage } from '../../vocabulary/usage.js';

/**
 * Gemini CLI `--output-format stream-json`: `init`, `message` (assistant text as deltas),
 * `tool_use`, `tool_result`, `error`, and a terminal `result` with stats but no final text.
 * Deltas are joined into one text block per stretch between tool events; the stretch after the
 * last tool event is the final answer. Thinking is not emitted by this CLI. Tool results carry
 * no exit code: one is read from the output ("Exit Code: N") when present, otherwise a shell
 * call shows `→ ok`. Usage (`result.stats`) is per invocation.
 */
export function createGeminiStreamNormalizer(options: NormalizerOptions = {}): StreamNormalizer {
  const collector = createEventCollector(options.cwd);
  let sessionId: string | undefined;
  let result: JsonObject | undefined;
  let lastError: string | undefined;

  return createJsonStreamNormalizer(collector, {
    read(event) {
      const ts = asString(event.timestamp);
      switch (event.type) {
        case 'init':
          sessionId ??= asString(event.session_id);
          break;
        case 'message':
          if (event.role === 'assistant') {
            const content = asString(event.content) ?? '';
            if (event.delta === true) collector.appendText(content, ts);
            else collector.text(content, ts);
          }
          break;
        case 'tool_use':
          collector.toolStarted({ id: asString(event.tool_id) ?? '', name: asString(event.tool_name) ?? 'unknown', input: asObject(event.parameters) ?? {} }, ts);
          break;
        case 'tool_result': {
          const output = asString(event.output) ?? '';
          const error = asString(asObject(event.error)?.message) ?? asString(event.error);
          const exit = /(?:^|\n)\s*Exit Code:\s*(-?\d+)/i.exec(output)?.[1];
          collector.toolCompleted(
            asString(event.tool_id) ?? '',
            { output, isError: event.status === 'error', ...(error ? { errorMessage: error } : {}), ...(exit !== undefined ? { exitCode: Number(exit) } : {}) },
            undefined,
            ts,
          );
          break;
        }
        case 'error':
          lastError = asString(event.message) ?? lastError;
          break;
        case 'result':
          result = event;
          break;
        default:
          return false;
      }
      return true;
    },

    end(exit, ignoredLines): TurnOutcome {
      const reportedError = result && result.status !== 'success';
      const failure = turnFailure(exit, {
        terminalSeen: result !== undefined,
        terminalName: 'result',
        ...(reportedError
          ? { error: `result status ${asString(result?.status) ?? '?'}: ${asString(asObject(result?.error)?.message) ?? lastError ?? 'no message'}` }
          : !result && lastError
            ? { error: `no result event; last error: ${lastError}` }
            : {}),
      });
      const usage = result ? usageOf(asObject(result.stats)) : undefined;
      return collector.settle({ failure, reply: collector.pendingText(), usage, ts: asString(result?.timestamp), sessionId, ignoredLines });
    },
  });
}

function usageOf(stats: JsonObject | undefined): Usage | undefined {
  if (!stats) return undefined;
  return makeUsage({ input: num(stats.input_tokens), output: num(stats.output_tokens), cacheRead: num(stats.cached) });
}
