import { describe, expect, it } from 'vitest';
import { CLAUDE_FLAVORS, createClaudeStreamNormalizer } from '../../../src/candidates/normalizers/claudeStream.js';
import { normalizeLines } from '../tempFiles.js';

const init = { type: 'system', subtype: 'init', session_id: 'sess-1', cwd: '/repo' };
const assistant = (...content: object[]) => ({ type: 'assistant', message: { id: 'msg_1', content, usage: { input_tokens: 111, output_tokens: 1 } }, session_id: 'sess-1' });
const toolUse = (id: string, name: string, input: object) => assistant({ type: 'tool_use', id, name, input });
const toolResult = (id: string, content: unknown, isError = false) => ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, is_error: isError }] } });
const result = (text: string, usage: object = { input_tokens: 10, output_tokens: 5 }, extra: object = {}) => ({ type: 'result', subtype: 'success', is_error: false, result: text, session_id: 'sess-1', usage, ...extra });
const streamEvent = (event: object) => ({ type: 'stream_event', event, session_id: 'sess-1' });

const claude = (options = {}) => createClaudeStreamNormalizer(CLAUDE_FLAVORS['claude-code'], { cwd: '/repo', ...options });

describe('Claude stream-json normaliser', () => {
  it('emits one partial per text block in partial-message mode, never the deltas as well', () => {
    const { events, outcome } = normalizeLines(claude(), [
      init,
      streamEvent({ type: 'message_start', message: { id: 'msg_1' } }),
      streamEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ...['Let ', 'me ', 'look.'].map((text) => streamEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } })),
      assistant({ type: 'text', text: 'Let me look.' }),
      streamEvent({ type: 'content_block_stop', index: 0 }),
      toolUse('t1', 'Read', { file_path: '/repo/src/x.ts' }),
      toolResult('t1', '1\tconst x = 1;\n2\texport { x };\n'),
      streamEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Done.' } }),
      assistant({ type: 'text', text: 'Done.' }),
      result('Done.'),
    ]);
    expect(events.map((e) => [e.role, e.content])).toEqual([
      ['candidate.assistant_partial', 'Let me look.'],
      ['candidate.tool_call.started', 'read: src/x.ts'],
      ['candidate.tool_call.completed', 'read: src/x.ts (2 lines)'],
      ['candidate', 'Done.'],
    ]);
    expect(outcome.reply).toBe('Done.');
    expect(outcome.sessionId).toBe('sess-1');
  });

  it('reports a failing shell command with its exit code and a failing file tool with its message', () => {
    const { events } = normalizeLines(claude(), [
      init,
      toolUse('t1', 'Bash', { command: 'false' }),
      toolResult('t1', 'Exit code 1\n', true),
      toolUse('t2', 'Read', { file_path: 'missing.txt' }),
      toolResult('t2', '<tool_use_error>File does not exist.</tool_use_error>', true),
      result('Both failed.'),
    ]);
    const completed = events.filter((e) => e.role === 'candidate.tool_call.completed');
    expect(completed.map((e) => e.content)).toEqual(['shell: false → exit=1', 'read: missing.txt → error: File does not exist.']);
    expect(completed[0]?.tool).toEqual({ id: 't1', name: 'Bash', kind: 'shell', target: 'false', exit_code: 1, is_error: true });
    expect(completed[1]?.tool).toMatchObject({ kind: 'read', is_error: true });
  });

  it('summarises writes and edits by line counts, with paths relative to the sandbox', () => {
    const { events } = normalizeLines(claude(), [
      toolUse('w', 'Write', { file_path: '/repo/server/service_test/server.yaml', content: 'a: 1\n'.repeat(12) }),
      toolResult('w', 'File created successfully'),
      toolUse('e', 'Edit', { file_path: '/repo/src/x.ts', old_string: 'const x = 1;', new_string: 'const x = 2;\nconst y = 3;\nconst z = 4;' }),
      toolResult('e', 'The file has been updated.'),
      result('ok'),
    ]);
    const completed = events.filter((e) => e.role === 'candidate.tool_call.completed').map((e) => e.content);
    expect(completed).toEqual(['write: server/service_test/server.yaml (+12 lines)', 'edit: src/x.ts (+3 −1 lines)']);
  });

  it('fails a stream cut off before its result, closing the open tool call as an error', () => {
    const { events, outcome } = normalizeLines(claude(), [init, assistant({ type: 'text', text: 'Working on it' }), toolUse('t1', 'Bash', { command: 'make' })], {
      exitCode: 0,
      stderrTail: '',
    });
    expect(outcome.failure?.message).toBe('the stream ended without its terminal `result` event');
    expect(outcome.reply).toBe('');
    expect(events.map((e) => [e.role, e.content])).toEqual([
      ['candidate.assistant_partial', 'Working on it'],
      ['candidate.tool_call.started', 'shell: make'],
      ['candidate.tool_call.completed', 'shell: make → error: no result before the turn ended'],
    ]);
    expect(events.some((e) => e.role === 'candidate')).toBe(false);
  });

  it('fails a turn whose process exits non-zero, keeping the stderr tail as evidence', () => {
    const { outcome } = normalizeLines(claude(), [init, result('done')], { exitCode: 2, stderrTail: 'fatal: out of credits\n' });
    expect(outcome.failure).toEqual({ message: 'the process exited with code 2', stderrTail: 'fatal: out of credits\n' });
  });

  it('fails a turn whose result reports an error', () => {
    const { outcome } = normalizeLines(claude(), [init, { ...result('API Error: 500'), subtype: 'error_during_execution', is_error: true }]);
    expect(outcome.failure?.message).toBe('error_during_execution: API Error: 500');
  });

  it('ignores unknown event types and unparsable lines, counting them', () => {
    const { events, outcome } = normalizeLines(claude(), [init, 'not json at all', '{"broken":', { type: 'brand_new_event', x: 1 }, { type: 'system', subtype: 'status' }, result('fine')]);
    expect(events.map((e) => e.role)).toEqual(['candidate']);
    expect(outcome.ignoredLines).toBe(3);
    expect(outcome.failure).toBeUndefined();
  });

  it('keeps 100 KB of tool output and file content out of the transcript', () => {
    const big = 'x'.repeat(100 * 1024);
    const { events } = normalizeLines(claude(), [
      toolUse('t1', 'Bash', { command: `echo ${'y'.repeat(5000)}` }),
      toolResult('t1', big),
      toolUse('t2', 'Write', { file_path: 'big.txt', content: `${big}\n` }),
      toolResult('t2', 'ok'),
      result('done'),
    ]);
    for (const event of events) {
      expect(event.content.length).toBeLessThan(600);
      expect(JSON.stringify(event.tool ?? {}).length).toBeLessThan(2300);
    }
    expect(events.find((e) => e.tool?.id === 't2' && e.role === 'candidate.tool_call.completed')?.content).toBe('write: big.txt (+1 lines)');
  });

  it('keeps the first and last 16,000 characters of a long reply, says what was cut, and notes it on the turn', () => {
    const reply = `${'a'.repeat(16_000)}${'m'.repeat(50_000)}${'z'.repeat(16_000)}`;
    const { events, outcome } = normalizeLines(claude(), [result(reply)]);
    const kept = `${'a'.repeat(16_000)}[… 50.0 kB cut: kept the first 16,000 and last 16,000 characters]${'z'.repeat(16_000)}`;
    expect(events).toEqual([{ role: 'candidate', content: kept, usage: { input_tokens: 10, output_tokens: 5 } }]);
    expect(outcome.reply).toBe(kept);
    expect(outcome.notes).toEqual(['the reply was cut: 50.0 kB of it is not in the transcript']);
  });

  it('cuts thinking to 500 characters', () => {
    const { events } = normalizeLines(claude(), [assistant({ type: 'thinking', thinking: 'z'.repeat(2000) }), result('ok')]);
    expect(events[0]?.role).toBe('candidate.thinking');
    expect(events[0]?.content).toHaveLength(500);
    expect(events[0]?.content.endsWith('…')).toBe(true);
  });

  it('differences cumulative usage of resumed Qwen/CodeBuddy sessions and restarts when counters drop', () => {
    const qwen = (previous?: object) => createClaudeStreamNormalizer(CLAUDE_FLAVORS['qwen-code'], previous ? { previousCumulative: previous as never } : {});
    const first = normalizeLines(qwen(), [result('a', { input_tokens: 222, output_tokens: 44, cache_read_input_tokens: 10 })]).outcome;
    const second = normalizeLines(qwen(first.cumulativeUsage), [result('b', { input_tokens: 500, output_tokens: 90, cache_read_input_tokens: 30 })]).outcome;
    expect(second.usage).toEqual({ input_tokens: 278, output_tokens: 46, cache_read_tokens: 20 });
    expect(second.cumulativeUsage).toEqual({ input_tokens: 500, output_tokens: 90, cache_read_tokens: 30 });
    const restarted = normalizeLines(qwen(second.cumulativeUsage), [result('c', { input_tokens: 100, output_tokens: 10 })]).outcome;
    expect(restarted.usage).toEqual({ input_tokens: 100, output_tokens: 10 });
  });

  it('never sums the placeholder usage of assistant events', () => {
    const { outcome } = normalizeLines(claude(), [
      assistant({ type: 'text', text: 'a' }),
      assistant({ type: 'text', text: 'b' }),
      result('b', { input_tokens: 7, output_tokens: 3, cache_read_input_tokens: 2, cache_creation_input_tokens: 1 }),
    ]);
    expect(outcome.usage).toEqual({ input_tokens: 10, output_tokens: 3, cache_read_tokens: 2, cache_write_tokens: 1 });
  });

  it('uses the exit code CodeBuddy reports in _meta', () => {
    const { events } = normalizeLines(createClaudeStreamNormalizer(CLAUDE_FLAVORS.codebuddy), [
      toolUse('c1', 'Bash', { command: 'go build' }),
      {
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 'c1', content: [{ type: 'text', text: 'Command: go build\nExit Code: 2' }], is_error: false, _meta: { rawResponse: { exitCode: 2 }, renderer: { value: 'undefined: x' } } }] },
      },
      result('ok'),
    ]);
    expect(events.find((e) => e.role === 'candidate.tool_call.completed')?.content).toBe('shell: go build → exit=2 · out: undefined: x');
  });
});
