import type { CandidateEvent } from '../../transcript/schema.js';
import type { TurnOutcome } from '../adapter.js';
import { describeToolCall, describeToolResult, type DescribedCall, type ToolCallEnd, type ToolCallStart } from './toolSummary.js';
import { cutBytes, formatSize, hasCutNote } from './cutNote.js';
import { LIMITS, clip, cutMiddle } from './truncate.js';
import type { Usage } from '../../vocabulary/usage.js';

/**
 * The part every stream normaliser shares: it turns "the agent thought / said / started a
 * tool / finished a tool / answered" into transcript events, with the same rules for all:
 *
 * - text is held back until something follows it, because only then is it known not to be the
 *   final answer (which becomes the one `candidate` event instead of a partial);
 * - each tool id gets exactly one `started` and one `completed` event, whatever the agent
 *   repeats; a completion without a start synthesises the start; a start without a completion
 *   is closed as an error when the turn ends;
 * - thinking is cut to 500 characters, partials to 2,000;
 * - the reply keeps its first and last 16,000 characters, with a note of what was cut between
 *   them, and the cut is noted on the turn.
 */
export interface EventCollector {
  thinking(text: string, ts?: string): void;
  /** A complete text block. */
  text(text: string, ts?: string): void;
  /** A delta that continues the current text block (Gemini, Cursor partial mode). */
  appendText(delta: string, ts?: string): void;
  /** Text held back so far, joined: the final answer when the stream has no final-text field. */
  pendingText(): string;
  /** Emit held-back text as partials (a step that ended in tool calls). */
  flushText(): void;
  toolStarted(call: ToolCallStart, ts?: string): void;
  /** `start` describes the call when no started event was seen (opencode, Codex file changes). */
  toolCompleted(id: string, end: ToolCallEnd, start?: ToolCallStart, ts?: string): void;
  /** The turn succeeded with this reply; `usage` rides on the `candidate` event. Returns the reply as kept. */
  finish(reply: string, usage: Usage | undefined, ts?: string): string;
  /** The turn failed: keep what was said as partials and close open tool calls. */
  abandon(): void;
  /**
   * Ends the turn the same way for every stream family: finish with the reply (or abandon on
   * failure) and assemble the outcome with whatever the stream told.
   */
  settle(end: TurnEnd): TurnOutcome;
  /** Events completed since the last drain, in stream order. */
  drain(): CandidateEvent[];
}

/** What a normaliser knows when its stream has ended. */
export interface TurnEnd {
  failure: TurnOutcome['failure'] | undefined;
  /** The final answer ('' is fine); ignored on failure. */
  reply: string;
  usage?: Usage | undefined;
  cumulativeUsage?: Usage | undefined;
  /** Timestamp for the `candidate` event, from the terminal event when it has one. */
  ts?: string | undefined;
  sessionId?: string | undefined;
  ignoredLines: number;
}

export function createEventCollector(cwd?: string): EventCollector {
  const out: CandidateEvent[] = [];
  let pending: { text: string; ts?: string }[] = [];
  const open = new Map<string, DescribedCall>();
  const done = new Set<string>();
  const notes: string[] = [];

  const emit = (event: CandidateEvent, ts?: string) => out.push(ts ? { ...event, ts } : event);

  function flushText(): void {
    for (const block of pending) {
      if (block.text.trim()) emit({ role: 'candidate.assistant_partial', content: clip(block.text.trim(), LIMITS.partial) }, block.ts);
    }
    pending = [];
  }

  function start(call: ToolCallStart, ts?: string): DescribedCall | undefined {
    if (open.has(call.id) || done.has(call.id)) return open.get(call.id);
    flushText();
    const described = describeToolCall(call, cwd);
    open.set(call.id, described);
    const { started } = described;
    const tool = {
      id: described.id,
      name: described.name,
      kind: described.kind,
      ...(described.target !== undefined ? { target: described.target } : {}),
      ...(described.invokes !== undefined ? { invokes: described.invokes } : {}),
    };
    emit({ role: 'candidate.tool_call.started', content: started, tool }, ts);
    return described;
  }

  function complete(id: string, end: ToolCallEnd, startIfMissing?: ToolCallStart, ts?: string): void {
    if (done.has(id)) return;
    const call = open.get(id) ?? (startIfMissing ? start(startIfMissing, ts) : start({ id, name: 'unknown', input: {} }, ts));
    if (!call) return;
    flushText();
    const { content, tool } = describeToolResult(call, end);
    emit({ role: 'candidate.tool_call.completed', content, tool }, ts);
    open.delete(id);
    done.add(id);
  }

  function closeOpenTools(): void {
    for (const id of [...open.keys()]) complete(id, { isError: true, errorMessage: 'no result before the turn ended' });
  }

  return {
    thinking(text, ts) {
      if (!text.trim()) return;
      flushText();
      emit({ role: 'candidate.thinking', content: clip(text.trim(), LIMITS.thinking) }, ts);
    },
    text(text, ts) {
      if (text) pending.push(ts ? { text, ts } : { text });
    },
    appendText(delta, ts) {
      const last = pending.at(-1);
      if (!last) {
        if (delta) pending.push(ts ? { text: delta, ts } : { text: delta });
        return;
      }
      last.text += delta;
      // Deltas of any number must not grow without bound: cut as the final reply would be.
      if (last.text.length > 2 * LIMITS.reply) last.text = cutMiddle(last.text, LIMITS.reply / 2, LIMITS.reply / 2);
    },
    pendingText: () => pending.map((block) => block.text).join(''),
    flushText,
    toolStarted(call, ts) {
      start(call, ts);
    },
    toolCompleted: complete,
    finish(reply, usage, ts) {
      const answer = reply.trim();
      const last = pending.at(-1);
      // The held-back block is the answer (or its end, when the reply joins all text, as Cursor's does).
      if (last && last.text.trim() && (last.text.trim() === answer || answer.endsWith(last.text.trim()))) pending.pop();
      else if (answer && [pending.map((b) => b.text).join(''), pending.map((b) => b.text).join('\n')].some((t) => t.trim() === answer)) pending = [];
      flushText();
      closeOpenTools();
      const kept = cutMiddle(answer, LIMITS.reply / 2, LIMITS.reply / 2);
      if (hasCutNote(kept)) notes.push(`the reply was cut: ${formatSize(cutBytes(kept))} of it is not in the transcript`);
      if (kept || usage) emit({ role: 'candidate', content: kept, ...(usage ? { usage } : {}) }, ts);
      return kept;
    },
    abandon() {
      flushText();
      closeOpenTools();
    },
    settle({ failure, reply, usage, cumulativeUsage, ts, sessionId, ignoredLines }) {
      let kept = '';
      if (failure) this.abandon();
      else kept = this.finish(reply, usage, ts);
      return {
        events: this.drain(),
        reply: kept,
        ignoredLines,
        ...(notes.length ? { notes: [...notes] } : {}),
        ...(sessionId ? { sessionId } : {}),
        ...(usage ? { usage } : {}),
        ...(cumulativeUsage ? { cumulativeUsage } : {}),
        ...(failure ? { failure } : {}),
      };
    },
    drain() {
      return out.splice(0, out.length);
    },
  };
}
