import { describe, expect, it } from 'vitest';
import { createGeminiStreamNormalizer } from '../../../src/candidates/normalizers/geminiStream.js';
import { normalizeLines } from '../tempFiles.js';

const delta = (content: string) => ({ type: 'message', role: 'assistant', content, delta: true });
const stats = { total_tokens: 30, input_tokens: 20, output_tokens: 10, cached: 4, input: 16 };

describe('Gemini stream-json normaliser', () => {
  it('joins deltas into one partial per stretch and takes the stretch after the last tool as the reply', () => {
    const { events, outcome } = normalizeLines(createGeminiStreamNormalizer(), [
      { type: 'init', session_id: 'g-1', model: 'm' },
      { type: 'message', role: 'user', content: 'do it' },
      delta('Let me '),
      delta('check.'),
      { type: 'tool_use', tool_name: 'read_file', tool_id: 'r1', parameters: { absolute_path: 'a.txt' } },
      { type: 'tool_result', tool_id: 'r1', status: 'error', output: '', error: { type: 'file_not_found', message: 'File not found: a.txt' } },
      delta('The file '),
      delta('is missing.'),
      { type: 'result', status: 'success', stats },
    ]);
    expect(events.map((e) => [e.role, e.content])).toEqual([
      ['candidate.assistant_partial', 'Let me check.'],
      ['candidate.tool_call.started', 'read: a.txt'],
      ['candidate.tool_call.completed', 'read: a.txt → error: File not found: a.txt'],
      ['candidate', 'The file is missing.'],
    ]);
    expect(outcome).toMatchObject({ sessionId: 'g-1', reply: 'The file is missing.', usage: { input_tokens: 20, output_tokens: 10, cache_read_tokens: 4 } });
  });

  it('reads a shell exit code from the output when there is one', () => {
    const { events } = normalizeLines(createGeminiStreamNormalizer(), [
      { type: 'tool_use', tool_name: 'run_shell_command', tool_id: 's1', parameters: { command: 'npm test' } },
      { type: 'tool_result', tool_id: 's1', status: 'success', output: 'FAIL x.test.js\nExit Code: 1' },
      { type: 'result', status: 'success', stats },
    ]);
    expect(events.find((e) => e.role === 'candidate.tool_call.completed')?.tool).toMatchObject({ exit_code: 1, is_error: true });
  });

  it('fails when the result reports an error', () => {
    const { outcome } = normalizeLines(createGeminiStreamNormalizer(), [{ type: 'error', severity: 'error', message: 'quota' }, { type: 'result', status: 'error', error: { message: 'API error 429' } }], {
      exitCode: 1,
      stderrTail: 'Error: 429',
    });
    expect(outcome.failure?.message).toBe('result status error: API error 429; the process exited with code 1');
  });
});
