import { describe, expect, it } from 'vitest';
import { createCodexStreamNormalizer } from '../../../src/candidates/normalizers/codexStream.js';
import { normalizeLines } from '../tempFiles.js';

const item = (phase: 'started' | 'completed', body: object) => ({ type: `item.${phase}`, item: body });
const command = (id: string, cmd: string, extra: object = {}) => ({ id, type: 'command_execution', command: cmd, aggregated_output: '', exit_code: null, status: 'in_progress', ...extra });
const completed = (usage: object) => ({ type: 'turn.completed', usage });

describe('Codex exec --json normaliser', () => {
  it('pairs a command sent on item.started and item.completed into one started and one completed event', () => {
    const wrapped = `/bin/bash -lc 'echo '\\''hi there'\\'' && false'`;
    const { events } = normalizeLines(createCodexStreamNormalizer(), [
      { type: 'thread.started', thread_id: 'th-1' },
      item('started', command('item_1', wrapped)),
      { type: 'item.updated', item: command('item_1', wrapped) },
      item('completed', command('item_1', wrapped, { aggregated_output: 'hi there\n', exit_code: 1, status: 'failed' })),
      item('completed', command('item_1', wrapped, { aggregated_output: 'hi there\n', exit_code: 1, status: 'failed' })),
      item('completed', { id: 'item_2', type: 'agent_message', text: 'It failed.' }),
      completed({ input_tokens: 5, output_tokens: 2 }),
    ]);
    expect(events.map((e) => [e.role, e.content])).toEqual([
      ['candidate.tool_call.started', "shell: echo 'hi there' && false"],
      ['candidate.tool_call.completed', "shell: echo 'hi there' && false → exit=1 · out: hi there"],
      ['candidate', 'It failed.'],
    ]);
    expect(events[1]?.tool).toEqual({ id: 'item_1', name: 'command_execution', kind: 'shell', target: "echo 'hi there' && false", exit_code: 1, is_error: true });
  });

  it('reports file changes as writes or edits and keeps earlier agent messages as partials', () => {
    const { events, outcome } = normalizeLines(createCodexStreamNormalizer(), [
      item('completed', { id: 'r', type: 'reasoning', text: 'Plan: add a file.' }),
      item('completed', { id: 'm1', type: 'agent_message', text: 'Adding the file.' }),
      item('completed', { id: 'f1', type: 'file_change', changes: [{ path: 'src/new.ts', kind: 'add' }], status: 'completed' }),
      item('completed', { id: 'f2', type: 'file_change', changes: [{ path: 'src/a.ts', kind: 'update' }, { path: 'src/b.ts', kind: 'update' }], status: 'completed' }),
      item('completed', { id: 'm2', type: 'agent_message', text: 'Added.' }),
      completed({ input_tokens: 5, output_tokens: 2 }),
    ]);
    expect(events.map((e) => e.content)).toEqual([
      'Plan: add a file.',
      'Adding the file.',
      'write: src/new.ts',
      'write: src/new.ts',
      'edit: src/a.ts, src/b.ts',
      'edit: src/a.ts, src/b.ts',
      'Added.',
    ]);
    expect(events.map((e) => e.role).filter((r) => r === 'candidate.tool_call.started')).toHaveLength(2);
    expect(outcome.reply).toBe('Added.');
  });

  it('differences the thread-cumulative usage of a resumed turn', () => {
    const first = normalizeLines(createCodexStreamNormalizer(), [completed({ input_tokens: 222, cached_input_tokens: 10, output_tokens: 44, reasoning_output_tokens: 14 })]).outcome;
    const second = normalizeLines(createCodexStreamNormalizer({ previousCumulative: first.cumulativeUsage! }), [
      completed({ input_tokens: 500, cached_input_tokens: 25, output_tokens: 100, reasoning_output_tokens: 20 }),
    ]).outcome;
    expect(second.usage).toEqual({ input_tokens: 278, output_tokens: 56, cache_read_tokens: 15, reasoning_tokens: 6 });
  });

  it('fails on turn.failed and on a stream that ends after transport errors', () => {
    const failed = normalizeLines(createCodexStreamNormalizer(), [{ type: 'turn.started' }, { type: 'turn.failed', error: { message: 'stream disconnected' } }], { exitCode: 1, stderrTail: 'boom' }).outcome;
    expect(failed.failure).toEqual({ message: 'turn.failed: stream disconnected; the process exited with code 1', stderrTail: 'boom' });
    const cut = normalizeLines(createCodexStreamNormalizer(), [{ type: 'turn.started' }, { type: 'error', message: 'Reconnecting... 2/5' }]).outcome;
    expect(cut.failure?.message).toBe('no turn.completed; last error: Reconnecting... 2/5');
  });
});
