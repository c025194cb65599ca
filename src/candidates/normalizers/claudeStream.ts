import type { NormalizerOptions, StreamNormalizer, TurnOutcome } from '../adapter.js';
import { createEventCollector } from './eventCollector.js';
import { asArray, asNumber, asObject, asString, textOf, type JsonObject } from './jsonLine.js';
import { createJsonStreamNormalizer } from './jsonStream.js';
import { resultEventFailure } from './resultEvent.js';
import { differenceUsage, makeUsage, num } from './usage.js';
import type { Usage } from '../../vocabulary/usage.js';

/**
 * What differs between the CLIs that speak Claude Code's `stream-json` (a small table, not
 * branches): how their `result.usage` counts.
 */
export interface ClaudeFlavor {
  /** `result.usage` grows across resumed turns (Qwen Code, CodeBuddy): difference it. */
  cumulativeUsage: boolean;
  /** `input_tokens` excludes cache reads and writes (the Anthropic API's convention). */
  inputExcludesCache: boolean;
  /** `total_cost_usd` grows across resumed turns while `usage` does not (Claude Code). */
  cumulativeCost: boolean;
}

export const CLAUDE_FLAVORS = {
  'claude-code': { cumulativeUsage: false, inputExcludesCache: true, cumulativeCost: true },
  'qwen-code': { cumulativeUsage: true, inputExcludesCache: false, cumulativeCost: false },
  codebuddy: { cumulativeUsage: true, inputExcludesCache: false, cumulativeCost: false },
  /** Any program that prints Claude-style stream-json (the `command` adapter): per invocation. */
  generic: { cumulativeUsage: false, inputExcludesCache: true, cumulativeCost: false },
} satisfies Record<string, ClaudeFlavor>;

/**
 * Claude Code, Qwen Code and CodeBuddy `--output-format stream-json`.
 *
 * One `assistant` event per content block (thinking, text, tool_use); tool results come back as
 * `user` events with `tool_result` blocks; `result` is terminal and carries the final text and
 * usage. With `--include-partial-messages`, `stream_event` deltas are ignored (they only keep
 * the activity heartbeating): all three CLIs also send every block whole, so taking whole
 * blocks gives exactly one partial per text block and never duplicates text. Per-message usage
 * on `assistant` events is a placeholder and is never summed.
 */
export function createClaudeStreamNormalizer(flavor: ClaudeFlavor, options: NormalizerOptions = {}): StreamNormalizer {
  const collector = createEventCollector(options.cwd);
  let sessionId: string | undefined;
  let result: JsonObject | undefined;

  function onAssistant(event: JsonObject, ts?: string): void {
    for (const raw of asArray(asObject(event.message)?.content)) {
      const block = asObject(raw);
      if (!block) continue;
      if (block.type === 'thinking') collector.thinking(asString(block.thinking) ?? '', ts);
      else if (block.type === 'text') collector.text(asString(block.text) ?? '', ts);
      else if (block.type === 'tool_use') {
        collector.toolStarted({ id: asString(block.id) ?? '', name: asString(block.name) ?? 'unknown', input: asObject(block.input) ?? {} }, ts);
      }
    }
  }

  function onUser(event: JsonObject, ts?: string): void {
    const results = asArray(asObject(event.message)?.content)
      .map(asObject)
      .filter((b): b is JsonObject => b?.type === 'tool_result');
    // Claude Code puts the structured shell result beside the message; it is unambiguous only for one result.
    const structured = results.length === 1 ? asObject(event.tool_use_result) : undefined;
    for (const block of results) {
      const raw = textOf(block.content);
      // Claude Code prefixes a failed command's output with "Exit code N" and wraps tool errors in tags.
      const text = raw.replace(/^\s*Exit code:? -?\d+\s*\n?/i, '').replace(/<\/?tool_use_error>/g, '').trim();
      const isError = block.is_error === true;
      const stdout = asString(structured?.stdout);
      const stderr = asString(structured?.stderr);
      const rendered = asString(asObject(asObject(block._meta)?.renderer)?.value);
      const output = stdout !== undefined ? [stdout, stderr].filter(Boolean).join('\n') : (rendered ?? text);
      const exitCode = exitCodeOf(block, raw, isError);
      collector.toolCompleted(
        asString(block.tool_use_id) ?? '',
        { output, isError, ...(exitCode !== undefined ? { exitCode } : {}), ...(isError ? { errorMessage: text } : {}) },
        undefined,
        ts,
      );
    }
  }

  return createJsonStreamNormalizer(collector, {
    read(event) {
      sessionId ??= asString(event.session_id);
      const ts = asString(event.timestamp) ?? asString(event.__timestamp);
      switch (event.type) {
        case 'assistant':
          onAssistant(event, ts);
          break;
        case 'user':
          onUser(event, ts);
          break;
        case 'result':
          result = event;
          break;
        case 'system':
        case 'stream_event':
        case 'file-history-snapshot':
          break;
        default:
          return false;
      }
      return true;
    },

    end(exit, ignoredLines): TurnOutcome {
      const failure = resultEventFailure(exit, result, asString(result?.result) ?? asString(result?.error));
      const { usage, cumulativeUsage } = result ? usageOf(result, flavor, options.previousCumulative) : {};
      return collector.settle({ failure, reply: asString(result?.result) ?? collector.pendingText(), usage, cumulativeUsage, ts: asString(result?.__timestamp), sessionId, ignoredLines });
    },
  });
}

function exitCodeOf(block: JsonObject, text: string, isError: boolean): number | undefined {
  const meta = asNumber(asObject(asObject(block._meta)?.rawResponse)?.exitCode);
  if (meta !== undefined) return meta;
  // Claude Code: "Exit code 1\n…"; Qwen Code: "Exit Code: 1".
  const parsed = /(?:^|\n)\s*Exit code:?\s*(-?\d+)/i.exec(text);
  if (parsed?.[1]) return Number(parsed[1]);
  return isError ? undefined : 0;
}

function usageOf(result: JsonObject, flavor: ClaudeFlavor, previous: Usage | undefined): { usage?: Usage; cumulativeUsage?: Usage } {
  const raw = asObject(result.usage);
  if (!raw) return {};
  const cacheRead = num(raw.cache_read_input_tokens);
  const cacheWrite = num(raw.cache_creation_input_tokens);
  const reported = makeUsage({
    input: num(raw.input_tokens) + (flavor.inputExcludesCache ? cacheRead + cacheWrite : 0),
    output: num(raw.output_tokens),
    cacheRead,
    cacheWrite,
    reasoning: num(asObject(raw.output_tokens_details)?.thinking_tokens),
    costUsd: num(result.total_cost_usd),
  });
  if (flavor.cumulativeUsage) return { usage: differenceUsage(reported, previous), cumulativeUsage: reported };
  if (!flavor.cumulativeCost) return { usage: reported };
  // Claude Code: tokens are per invocation, cost is per session. Prefer the explicit per-turn figure.
  const totalCost = num(result.total_cost_usd);
  const sinceLast = asObject(result.model_usage_since_last_result);
  const turnCost = sinceLast
    ? Object.values(sinceLast).reduce<number>((sum, model) => sum + num(asObject(model)?.costUSD), 0)
    : totalCost - (previous?.cost_usd !== undefined && previous.cost_usd <= totalCost ? previous.cost_usd : 0);
  const { cost_usd: _ignored, ...tokens } = reported;
  return {
    usage: turnCost > 0 ? { ...tokens, cost_usd: Math.round(turnCost * 1e8) / 1e8 } : tokens,
    cumulativeUsage: { ...cumulativeTokens(result) ?? tokens, ...(totalCost > 0 ? { cost_usd: totalCost } : {}) },
  };
}

/** Claude Code's `modelUsage` sums the whole session: kept as the session's cumulative counters. */
function cumulativeTokens(result: JsonObject): Usage | undefined {
  const models = Object.values(asObject(result.modelUsage) ?? {}).map(asObject).filter((m): m is JsonObject => m !== undefined);
  if (models.length === 0) return undefined;
  const sum = (key: string) => models.reduce((total, m) => total + num(m[key]), 0);
  return makeUsage({
    input: sum('inputTokens') + sum('cacheReadInputTokens') + sum('cacheCreationInputTokens'),
    output: sum('outputTokens'),
    cacheRead: sum('cacheReadInputTokens'),
    cacheWrite: sum('cacheCreationInputTokens'),
  });
}
