import type { NormalizerOptions, StreamNormalizer, TurnOutcome } from '../adapter.js';
import { createEventCollector } from './eventCollector.js';
import { asNumber, asObject, asString, isoFromMs, type JsonObject } from './jsonLine.js';
import { createJsonStreamNormalizer } from './jsonStream.js';
import { turnFailure } from './turnFailure.js';
import { makeUsage, num } from './usage.js';
import { type Usage, addUsage } from '../../vocabulary/usage.js';

/**
 * opencode `run --format json`: every line is `{type, timestamp, sessionID, part}`. A model
 * step runs from `step_start` to `step_finish`; a tool appears once, as `tool_use`, when it has
 * finished, so its start is synthesised from `state.time.start`. There is no result event: the
 * turn succeeded when its last `step_finish` has a reason other than `tool-calls` and the
 * process exited 0; the final answer is that step's text. Usage is summed over the steps
 * (`input` excludes cached tokens there, so cache reads and writes are added back).
 */
export function createOpencodeStreamNormalizer(options: NormalizerOptions = {}): StreamNormalizer {
  const collector = createEventCollector(options.cwd);
  let sessionId: string | undefined;
  let lastReason: string | undefined;
  let lastFinishTs: string | undefined;
  let usage: Usage | undefined;
  let error: string | undefined;

  function onTool(part: JsonObject, ts?: string): void {
    const state = asObject(part.state) ?? {};
    const id = asString(part.callID) ?? asString(part.id) ?? '';
    const time = asObject(state.time);
    const start = { id, name: asString(part.tool) ?? 'unknown', input: asObject(state.input) ?? {} };
    collector.toolStarted(start, isoFromMs(time?.start) ?? ts);
    const status = asString(state.status);
    if (status !== 'completed' && status !== 'error') return;
    const metadata = asObject(state.metadata);
    const exitCode = asNumber(metadata?.exit);
    const message = asString(state.error);
    collector.toolCompleted(
      id,
      {
        output: asString(state.output) ?? asString(metadata?.output) ?? '',
        isError: status === 'error',
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(message ? { errorMessage: message } : {}),
      },
      start,
      isoFromMs(time?.end) ?? ts,
    );
  }

  return createJsonStreamNormalizer(collector, {
    read(event) {
      sessionId ??= asString(event.sessionID);
      const part = asObject(event.part) ?? {};
      const ts = isoFromMs(event.timestamp);
      switch (event.type) {
        case 'step_start':
          lastReason = undefined;
          break;
        case 'reasoning':
          collector.thinking(asString(part.text) ?? '', ts);
          break;
        case 'text':
          collector.text(asString(part.text) ?? '', ts);
          break;
        case 'tool_use':
          onTool(part, ts);
          break;
        case 'step_finish': {
          lastReason = asString(part.reason) ?? 'unknown';
          lastFinishTs = ts;
          usage = addUsage(usage, stepUsage(part));
          if (lastReason === 'tool-calls') collector.flushText();
          break;
        }
        case 'error': {
          const raw = asObject(event.error);
          error = [asString(raw?.name), asString(asObject(raw?.data)?.message) ?? asString(raw?.message)].filter(Boolean).join(': ') || 'error';
          break;
        }
        default:
          return false;
      }
      return true;
    },

    end(exit, ignoredLines): TurnOutcome {
      const finalStep = lastReason !== undefined && lastReason !== 'tool-calls';
      const failure = turnFailure(exit, {
        terminalSeen: finalStep,
        terminalName: 'step_finish (reason other than tool-calls)',
        ...(error ? { error } : {}),
      });
      return collector.settle({ failure, reply: collector.pendingText(), usage, ts: lastFinishTs, sessionId, ignoredLines });
    },
  });
}

function stepUsage(part: JsonObject): Usage | undefined {
  const tokens = asObject(part.tokens);
  if (!tokens) return undefined;
  const cache = asObject(tokens.cache);
  const reasoning = num(tokens.reasoning);
  return makeUsage({
    input: num(tokens.input) + num(cache?.read) + num(cache?.write),
    output: num(tokens.output) + reasoning,
    cacheRead: num(cache?.read),
    cacheWrite: num(cache?.write),
    reasoning,
    costUsd: num(part.cost),
  });
}
