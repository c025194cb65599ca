import { describe, expect, it } from 'vitest';
import { InternalError, LlmError } from '../../src/errors.js';
import { buildExaminerMessages, EMPTY_REPLY, nextMessage, type DialogueMessage } from '../../src/examiner/index.js';
import type { ChatRequest, ChatResponse, LlmClient } from '../../src/llm/port.js';

const task = {
  scenario: 'You are Mei, a backend developer. You want greet() renamed to hello().',
  guidance: 'If the assistant forgets the tests, ask for them. Reveal that CI uses Go 1.22 only if asked. End when tests pass.',
};

const dialogue: DialogueMessage[] = [
  { role: 'examiner', content: 'Please rename greet to hello.' },
  { role: 'candidate', content: 'Renamed greet to hello in greet.go.' },
  { role: 'examiner', content: 'Did you run the tests?' },
  { role: 'candidate', content: 'Yes, all green.' },
];

function fakeLlm(replies: Partial<ChatResponse>[]): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    chat(request) {
      requests.push(request);
      const reply = replies.shift() ?? {};
      return Promise.resolve({ content: null, toolCalls: [], model: 'examiner-model', finishReason: 'stop', ...reply });
    },
  };
}

describe('buildExaminerMessages', () => {
  it('maps the examiner to assistant and the candidate to user, after the system prompt', () => {
    const messages = buildExaminerMessages({ task, dialogue, turn: 3, maxTurns: 6 });
    expect(messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Please rename greet to hello.' },
      { role: 'user', content: 'Renamed greet to hello in greet.go.' },
      { role: 'assistant', content: 'Did you run the tests?' },
      { role: 'user', content: 'Yes, all green.' },
    ]);
    expect(messages[0]?.role).toBe('system');
  });

  it('casts the model as the Scenario user, with the Guidance and the END protocol', () => {
    const system = buildExaminerMessages({ task, dialogue, turn: 3, maxTurns: 6 })[0]?.content ?? '';
    expect(system).toContain(`## Scenario\n${task.scenario}\n\n## Guidance\n${task.guidance}`);
    expect(system).toContain('message 3 of at most 6');
    expect(system).toContain('Never do the work yourself');
    expect(system).toContain('Never grade, score or review the assistant, and never mention a test, an evaluation, an examiner');
    expect(system).toContain('Reply with ONLY your next message');
    expect(system).toContain('reply with exactly <<END>> and nothing else');
    expect(system).not.toContain('last message you can send');
  });

  it('warns on the last turn', () => {
    const system = buildExaminerMessages({ task, dialogue, turn: 6, maxTurns: 6 })[0]?.content ?? '';
    expect(system).toContain('This is the last message you can send');
  });

  it('stands in for a candidate reply with no text', () => {
    const messages = buildExaminerMessages({ task, dialogue: [dialogue[0]!, { role: 'candidate', content: ' \n' }], turn: 2, maxTurns: 6 });
    expect(messages[2]).toEqual({ role: 'user', content: EMPTY_REPLY });
  });

  it('refuses turn 1, turns past the limit and a dialogue not ending with the candidate', () => {
    expect(() => buildExaminerMessages({ task, dialogue, turn: 1, maxTurns: 6 })).toThrow(
      new InternalError('examiner asked for turn 1: expected a turn from 2 to max_turns 6'),
    );
    expect(() => buildExaminerMessages({ task, dialogue, turn: 7, maxTurns: 6 })).toThrow(InternalError);
    expect(() => buildExaminerMessages({ task, dialogue: dialogue.slice(0, 3), turn: 3, maxTurns: 6 })).toThrow(
      'examiner asked for a next message, but the dialogue does not end with a candidate reply',
    );
  });
});

describe('nextMessage', () => {
  it('asks the examiner role and returns the next user message', async () => {
    const usage = { input_tokens: 400, output_tokens: 12 };
    const llm = fakeLlm([{ content: 'Which Go version did you test with?\n', usage }]);
    const reply = await nextMessage({ llm, task, dialogue, turn: 3, maxTurns: 6 });
    expect(reply).toEqual({ message: 'Which Go version did you test with?', ended: false, usage, model: 'examiner-model' });
    expect(llm.requests[0]?.role).toBe('examiner');
    expect(llm.requests[0]?.messages).toEqual(buildExaminerMessages({ task, dialogue, turn: 3, maxTurns: 6 }));
  });

  it('reports the end of the dialogue, keeping a closing remark unsent', async () => {
    const llm = fakeLlm([{ content: 'Thanks, looks good! <<END>>' }]);
    const reply = await nextMessage({ llm, task, dialogue, turn: 3, maxTurns: 6 });
    expect(reply).toMatchObject({ message: 'Thanks, looks good!', ended: true });
  });

  it('throws a retryable LlmError on an empty reply', async () => {
    const llm = fakeLlm([{ content: '   ' }]);
    const attempt = nextMessage({ llm, task, dialogue, turn: 3, maxTurns: 6 });
    await expect(attempt).rejects.toBeInstanceOf(LlmError);
    await expect(attempt).rejects.toMatchObject({
      retryable: true,
      message: 'examiner model examiner-model returned an empty reply for turn 3 (expected a user message or <<END>>)',
    });
  });
});
