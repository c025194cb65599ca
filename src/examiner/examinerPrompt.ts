import { InternalError } from '../errors.js';
import type { ChatMessage } from '../llm/port.js';
import { END_SIGNAL } from './endSignal.js';

/** The examiner's part of task.md; it never sees the rubric. */
export interface ExaminerTask {
  scenario: string;
  guidance: string;
}

/** One message of the dialogue as text: the examiner never sees tool events or thinking. */
export interface DialogueMessage {
  role: 'examiner' | 'candidate';
  content: string;
}

export interface ExaminerPromptInput {
  task: ExaminerTask;
  dialogue: readonly DialogueMessage[];
  /** The turn whose user message is being written (2 or more; Turn 1 is the Prompt quote). */
  turn: number;
  maxTurns: number;
}

/** Stands in for a candidate reply with no text (it only used tools), which some endpoints reject. */
export const EMPTY_REPLY = '(the assistant replied without any text)';

/**
 * The examiner's chat: a system prompt casting the model as the user of the Scenario, then
 * the dialogue seen from that user's side. The examiner model writes the user's messages, so
 * its own past messages are `assistant` and the candidate's replies are `user`.
 */
export function buildExaminerMessages(input: ExaminerPromptInput): ChatMessage[] {
  const { dialogue, turn, maxTurns } = input;
  if (turn < 2 || turn > maxTurns) {
    throw new InternalError(`examiner asked for turn ${turn}: expected a turn from 2 to max_turns ${maxTurns}`);
  }
  if (dialogue[dialogue.length - 1]?.role !== 'candidate') {
    throw new InternalError('examiner asked for a next message, but the dialogue does not end with a candidate reply');
  }
  return [
    { role: 'system', content: examinerSystemPrompt(input) },
    ...dialogue.map((message): ChatMessage =>
      message.role === 'examiner'
        ? { role: 'assistant', content: message.content }
        : { role: 'user', content: message.content.trim() === '' ? EMPTY_REPLY : message.content },
    ),
  ];
}

function examinerSystemPrompt({ task, turn, maxTurns }: ExaminerPromptInput): string {
  const lastTurn =
    turn === maxTurns
      ? '\nThis is the last message you can send: the conversation stops after the assistant answers it. If nothing essential is left, end now.'
      : '';
  return `You are playing a user who is talking to an AI coding assistant working in your project. Stay in character as the user described in the Scenario below for the whole conversation.

## Scenario
${task.scenario.trim()}

## Guidance
${task.guidance.trim()}

## Rules
- You already sent your first message. Write your next message: message ${turn} of at most ${maxTurns}.
- Follow the Guidance on how to push, when to reveal key facts and when to end. Reveal a key fact only when the Guidance says so or the assistant asks for it.
- Never do the work yourself: do not write the code, the commands or the solution. Say what you want, as this user would.
- Never grade, score or review the assistant, and never mention a test, an evaluation, an examiner, or that you are an AI.
- You only see the assistant's replies, not what it did in the project. If you doubt a claim, ask as this user would.
- Reply with ONLY your next message to the assistant: no quotes, no labels, no notes about yourself.
- When you are done (the task is finished to your satisfaction, the Guidance says to stop, or the conversation is stuck), reply with exactly ${END_SIGNAL} and nothing else.${lastTurn}`;
}
