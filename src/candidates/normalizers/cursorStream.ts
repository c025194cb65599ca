import type { NormalizerOptions, StreamNormalizer, TurnOutcome } from '../adapter.js';
import { createEventCollector } from './eventCollector.js';
import { asNumber, asObject, asString, isoFromMs, textOf, type JsonObject } from './jsonLine.js';
import { createJsonStreamNormalizer } from './jsonStream.js';
import { resultEventFailure } from './resultEvent.js';
import type { ToolCallEnd, ToolCallStart } from './toolSummary.js';
import { makeUsage, num } from './usage.js';
import type { Usage } from '../../vocabulary/usage.js';

/**
 * Cursor `cursor-agent -p --output-format stream-json` (from Cursor's docs and third-party
 * captures; no live capture here). `thinking` deltas are joined until `thinking/completed`;
 * `assistant` events are whole segments, or token deltas followed by one consolidated copy with
 * `--stream-partial-output` (the copy is recognised and dropped); `tool_call` comes as `started`
 * and `completed` with the call under a `<kind>ToolCall` key (or `function`), keyed by
 * `call_id`; `result` is terminal and its `result` (all assistant text) is the reply. Usage,
 * when a build reports it, is `result.usage` in camelCase, per invocation; `inputTokens` is
 * taken to exclude cache reads and writes, as Anthropic's does.
 */
export function createCursorStreamNormalizer(options: NormalizerOptions = {}): StreamNormalizer {
  const collector = createEventCollector(options.cwd);
  let sessionId: string | undefined;
  let thinking = '';
  let segment = '';
  let result: JsonObject | undefined;

  function flushThinking(): void {
    if (thinking) collector.thinking(thinking);
    thinking = '';
  }

  function onAssistant(event: JsonObject, ts?: string): void {
    const text = textOf(asObject(event.message)?.content);
    if (!text) return;
    // Partial mode repeats the whole segment once its deltas are done: drop the copy.
    if (segment && text === segment) return;
    segment += text;
    collector.appendText(text, ts);
  }

  function onToolCall(event: JsonObject, ts?: string): void {
    const id = asString(event.call_id) ?? '';
    const call = toolCallOf(id, asObject(event.tool_call) ?? {});
    if (!call) return;
    segment = '';
    if (event.subtype === 'started') collector.toolStarted(call.start, ts);
    else if (event.subtype === 'completed') collector.toolCompleted(id, call.end ?? {}, call.start, ts);
  }

  return createJsonStreamNormalizer(collector, {
    read(event) {
      sessionId ??= asString(event.session_id);
      const ts = isoFromMs(event.timestamp_ms);
      if (event.type !== 'thinking') flushThinking();
      switch (event.type) {
        case 'thinking':
          if (event.subtype === 'delta') thinking += asString(event.text) ?? '';
          else if (event.subtype === 'completed') flushThinking();
          break;
        case 'assistant':
          onAssistant(event, ts);
          break;
        case 'tool_call':
          onToolCall(event, ts);
          break;
        case 'result':
          result = event;
          break;
        case 'system':
        case 'user':
          break;
        default:
          return false;
      }
      return true;
    },

    end(exit, ignoredLines): TurnOutcome {
      flushThinking();
      const failure = resultEventFailure(exit, result, asString(result?.result));
      const usage = result ? usageOf(asObject(result.usage)) : undefined;
      return collector.settle({ failure, reply: asString(result?.result) ?? collector.pendingText(), usage, sessionId, ignoredLines });
    },
  });
}

/** The one `*ToolCall` (or `function`) entry of a Cursor tool_call object. */
function toolCallOf(id: string, toolCall: JsonObject): { start: ToolCallStart; end?: ToolCallEnd } | undefined {
  const fn = asObject(toolCall.function);
  if (fn) {
    let input: JsonObject = {};
    try {
      input = asObject(JSON.parse(asString(fn.arguments) ?? '{}')) ?? {};
    } catch {
      input = { arguments: asString(fn.arguments) ?? '' };
    }
    return { start: { id, name: asString(fn.name) ?? 'function', input } };
  }
  const key = Object.keys(toolCall).find((k) => k.endsWith('ToolCall'));
  if (!key) return undefined;
  const body = asObject(toolCall[key]) ?? {};
  const start = { id, name: key, input: asObject(body.args) ?? {} };
  const result = asObject(body.result);
  return result ? { start, end: endOf(result) } : { start };
}

/** `result.success.{…}` or an error variant (`failure`, `error`, `rejected`, …). */
function endOf(result: JsonObject): ToolCallEnd {
  const [variant, raw] = Object.entries(result)[0] ?? ['success', {}];
  const body = asObject(raw) ?? {};
  const exitCode = asNumber(body.exitCode);
  const output = [asString(body.stdout), asString(body.stderr)].filter(Boolean).join('\n') || asString(body.content) || '';
  const message = asString(body.errorMessage) ?? asString(body.error) ?? asString(body.message) ?? asString(body.reason) ?? (typeof raw === 'string' ? raw : undefined);
  const isError = variant !== 'success';
  return {
    output,
    isError,
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(isError ? { errorMessage: message ?? variant } : {}),
    ...(asNumber(body.linesCreated) !== undefined ? { linesAdded: asNumber(body.linesCreated) } : {}),
  };
}

function usageOf(raw: JsonObject | undefined): Usage | undefined {
  if (!raw) return undefined;
  const cacheRead = num(raw.cacheReadTokens);
  const cacheWrite = num(raw.cacheWriteTokens);
  return makeUsage({ input: num(raw.inputTokens) + cacheRead + cacheWrite, output: num(raw.outputTokens), cacheRead, cacheWrite });
}
