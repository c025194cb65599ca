import { describe, expect, it } from 'vitest';
import { createCursorStreamNormalizer } from '../../../src/candidates/normalizers/cursorStream.js';
import { normalizeLines } from '../tempFiles.js';

const assistant = (text: string) => ({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] }, session_id: 'chat-1' });
const shell = (subtype: string, result?: object) => ({
  type: 'tool_call',
  subtype,
  call_id: 'call_1',
  tool_call: { shellToolCall: { args: { command: 'npm test' }, ...(result ? { result } : {}) } },
  session_id: 'chat-1',
});

describe('Cursor stream-json normaliser', () => {
  it('drops the consolidated copy of partial-mode deltas and joins thinking deltas', () => {
    const { events, outcome } = normalizeLines(createCursorStreamNormalizer(), [
      { type: 'system', subtype: 'init', session_id: 'chat-1', model: 'auto' },
      { type: 'thinking', subtype: 'delta', text: 'Need to ' },
      { type: 'thinking', subtype: 'delta', text: 'run tests.' },
      { type: 'thinking', subtype: 'completed' },
      assistant('Running '),
      assistant('tests.'),
      assistant('Running tests.'),
      shell('started'),
      shell('completed', { success: { exitCode: 0, stdout: '3 passing', stderr: '' } }),
      shell('completed', { success: { exitCode: 0, stdout: '3 passing', stderr: '' } }),
      assistant('All green.'),
      { type: 'result', subtype: 'success', is_error: false, result: 'Running tests.All green.', session_id: 'chat-1', usage: { inputTokens: 10, outputTokens: 4, cacheReadTokens: 6 } },
    ]);
    expect(events.map((e) => [e.role, e.content])).toEqual([
      ['candidate.thinking', 'Need to run tests.'],
      ['candidate.assistant_partial', 'Running tests.'],
      ['candidate.tool_call.started', 'shell: npm test'],
      ['candidate.tool_call.completed', 'shell: npm test → exit=0 · out: 3 passing'],
      ['candidate', 'Running tests.All green.'],
    ]);
    expect(outcome).toMatchObject({ sessionId: 'chat-1', usage: { input_tokens: 16, output_tokens: 4, cache_read_tokens: 6 } });
  });

  it('summarises write results and error variants', () => {
    const { events } = normalizeLines(createCursorStreamNormalizer(), [
      { type: 'tool_call', subtype: 'started', call_id: 'w', tool_call: { writeToolCall: { args: { path: 'src/a.ts' } } } },
      { type: 'tool_call', subtype: 'completed', call_id: 'w', tool_call: { writeToolCall: { args: { path: 'src/a.ts' }, result: { success: { path: 'src/a.ts', linesCreated: 12, fileSize: 300 } } } } },
      { type: 'tool_call', subtype: 'completed', call_id: 'r', tool_call: { readToolCall: { args: { path: 'nope.ts' }, result: { error: { errorMessage: 'File not found' } } } } },
      { type: 'result', subtype: 'success', is_error: false, result: 'done' },
    ]);
    expect(events.filter((e) => e.role !== 'candidate').map((e) => e.content)).toEqual([
      'write: src/a.ts',
      'write: src/a.ts (+12 lines)',
      'read: nope.ts',
      'read: nope.ts → error: File not found',
    ]);
  });

  it('fails when the process exits non-zero without a result', () => {
    const { outcome } = normalizeLines(createCursorStreamNormalizer(), [assistant('hm')], { exitCode: 1, stderrTail: 'Authentication required' });
    expect(outcome.failure).toEqual({ message: 'the stream ended without its terminal `result` event; the process exited with code 1', stderrTail: 'Authentication required' });
  });
});
