import type { NormalizerOptions, StreamNormalizer, TurnOutcome } from '../adapter.js';
import { createEventCollector } from './eventCollector.js';
import { asArray, asNumber, asObject, asString, type JsonObject } from './jsonLine.js';
import { createJsonStreamNormalizer } from './jsonStream.js';
import { stripShellWrapper } from './toolSummary.js';
import { turnFailure } from './turnFailure.js';
import { differenceUsage, makeUsage, num } from './usage.js';
import type { Usage } from '../../vocabulary/usage.js';

/**
 * Codex `exec --json`: `thread.started` → `turn.started` → `item.*` → `turn.completed` |
 * `turn.failed`. Items arrive complete on `item.completed`; a `command_execution` is also sent
 * on `item.started`, so tools are keyed by item id and completed once. The final answer is the
 * last `agent_message`. `turn.completed.usage` is cumulative over the thread after a resume, so
 * it is differenced against the previous turn's counters.
 */
export function createCodexStreamNormalizer(options: NormalizerOptions = {}): StreamNormalizer {
  const collector = createEventCollector(options.cwd);
  let sessionId: string | undefined;
  let completed: JsonObject | undefined;
  let failedMessage: string | undefined;
  let lastError: string | undefined;
  let lastMessage = '';

  /** False for an item type Codex is not known to send. */
  function onItem(item: JsonObject, phase: 'started' | 'completed'): boolean {
    const id = asString(item.id) ?? '';
    switch (item.type) {
      case 'reasoning':
        if (phase === 'completed') collector.thinking(asString(item.text) ?? '');
        break;
      case 'agent_message':
        if (phase === 'completed') {
          lastMessage = asString(item.text) ?? '';
          collector.text(lastMessage);
        }
        break;
      case 'command_execution': {
        const start = { id, name: 'command_execution', input: { command: stripShellWrapper(asString(item.command) ?? '') } };
        if (phase === 'started') collector.toolStarted(start);
        else {
          const exitCode = asNumber(item.exit_code);
          const output = asString(item.aggregated_output) ?? '';
          collector.toolCompleted(id, { output, ...(exitCode !== undefined ? { exitCode } : {}), isError: item.status === 'failed' || (exitCode ?? 0) !== 0 }, start);
        }
        break;
      }
      case 'file_change': {
        const changes = asArray(item.changes).map(asObject).filter((c): c is JsonObject => c !== undefined);
        const paths = changes.map((c) => asString(c.path) ?? '?').join(', ');
        const onlyAdds = changes.length > 0 && changes.every((c) => c.kind === 'add');
        const start = { id, name: 'file_change', kind: onlyAdds ? ('write' as const) : ('edit' as const), input: { path: paths } };
        if (phase === 'started') collector.toolStarted(start);
        else collector.toolCompleted(id, { isError: item.status === 'failed' }, start);
        break;
      }
      case 'mcp_tool_call': {
        const name = `${asString(item.server) ?? 'mcp'}/${asString(item.tool) ?? 'tool'}`;
        const start = { id, name, input: asObject(item.arguments) ?? {} };
        if (phase === 'started') collector.toolStarted(start);
        else {
          const error = asString(asObject(item.error)?.message) ?? asString(item.error);
          const output = JSON.stringify(item.result ?? '');
          collector.toolCompleted(id, { output, isError: error !== undefined || item.status === 'failed', ...(error ? { errorMessage: error } : {}) }, start);
        }
        break;
      }
      case 'web_search': {
        const start = { id, name: 'web_search', input: { query: asString(item.query) ?? '' } };
        if (phase === 'started') collector.toolStarted(start);
        else collector.toolCompleted(id, {}, start);
        break;
      }
      case 'error':
        // Non-fatal warnings ("Model metadata … not found"); kept as evidence if the turn fails.
        lastError = asString(item.message) ?? lastError;
        break;
      case 'todo_list':
        break;
      default:
        return false;
    }
    return true;
  }

  return createJsonStreamNormalizer(collector, {
    read(event) {
      switch (event.type) {
        case 'thread.started':
          sessionId ??= asString(event.thread_id);
          break;
        case 'item.started':
        case 'item.completed': {
          const item = asObject(event.item);
          return item ? onItem(item, event.type === 'item.started' ? 'started' : 'completed') : true;
        }
        case 'turn.completed':
          completed = event;
          break;
        case 'turn.failed':
          failedMessage = asString(asObject(event.error)?.message) ?? 'turn failed';
          break;
        case 'error':
          lastError = asString(event.message) ?? lastError;
          break;
        case 'turn.started':
        case 'item.updated':
          break;
        default:
          return false;
      }
      return true;
    },

    end(exit, ignoredLines): TurnOutcome {
      const failure = turnFailure(exit, {
        terminalSeen: completed !== undefined,
        terminalName: 'turn.completed',
        ...(failedMessage ? { error: `turn.failed: ${failedMessage}` } : !completed && lastError ? { error: `no turn.completed; last error: ${lastError}` } : {}),
      });
      const cumulativeUsage = completed ? usageOf(asObject(completed.usage)) : undefined;
      const usage = cumulativeUsage ? differenceUsage(cumulativeUsage, options.previousCumulative) : undefined;
      return collector.settle({ failure, reply: lastMessage, usage, cumulativeUsage, sessionId, ignoredLines });
    },
  });
}

function usageOf(raw: JsonObject | undefined): Usage | undefined {
  if (!raw) return undefined;
  return makeUsage({
    input: num(raw.input_tokens),
    output: num(raw.output_tokens),
    cacheRead: num(raw.cached_input_tokens),
    cacheWrite: num(raw.cache_write_input_tokens),
    reasoning: num(raw.reasoning_output_tokens),
  });
}
