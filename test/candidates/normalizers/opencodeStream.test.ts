import { describe, expect, it } from 'vitest';
import { createOpencodeStreamNormalizer } from '../../../src/candidates/normalizers/opencodeStream.js';
import { normalizeLines } from '../tempFiles.js';

const line = (type: string, part: object) => ({ type, timestamp: 1_700_000_000_000, sessionID: 'ses_1', part });
const finish = (reason: string) => line('step_finish', { reason, tokens: { input: 100, output: 10, reasoning: 5, cache: { read: 20, write: 0 } }, cost: 0.001 });

describe('opencode run --format json normaliser', () => {
  it('synthesises the start of a finished tool and sums usage over steps', () => {
    const { events, outcome } = normalizeLines(createOpencodeStreamNormalizer({ cwd: '/repo' }), [
      line('step_start', {}),
      line('text', { text: 'Writing it.' }),
      line('tool_use', { tool: 'write', callID: 'c1', state: { status: 'completed', input: { filePath: '/repo/a.js', content: 'x\ny\n' }, output: '', time: { start: 1_700_000_000_100, end: 1_700_000_000_200 } } }),
      finish('tool-calls'),
      line('step_start', {}),
      line('text', { text: 'Written.' }),
      finish('stop'),
    ]);
    expect(events.map((e) => [e.role, e.content])).toEqual([
      ['candidate.assistant_partial', 'Writing it.'],
      ['candidate.tool_call.started', 'write: a.js'],
      ['candidate.tool_call.completed', 'write: a.js (+2 lines)'],
      ['candidate', 'Written.'],
    ]);
    expect(events[1]?.ts).toBe(new Date(1_700_000_000_100).toISOString());
    expect(outcome).toMatchObject({ sessionId: 'ses_1', reply: 'Written.' });
    expect(outcome.usage).toEqual({ input_tokens: 240, output_tokens: 30, cache_read_tokens: 40, reasoning_tokens: 10, cost_usd: 0.002 });
  });

  it('fails when the last step ended in tool calls (no final step) or an error event came', () => {
    const cut = normalizeLines(createOpencodeStreamNormalizer(), [line('step_start', {}), finish('tool-calls')]).outcome;
    expect(cut.failure?.message).toBe('the stream ended without its terminal `step_finish (reason other than tool-calls)` event');
    const errored = normalizeLines(createOpencodeStreamNormalizer(), [{ type: 'error', sessionID: 'ses_1', error: { name: 'APIError', data: { message: 'bad key' } } }], { exitCode: 1, stderrTail: '' }).outcome;
    expect(errored.failure?.message).toBe('APIError: bad key; the process exited with code 1');
  });

  it('reports a failing bash tool with its exit code', () => {
    const { events } = normalizeLines(createOpencodeStreamNormalizer(), [
      line('tool_use', { tool: 'bash', callID: 'b1', state: { status: 'completed', input: { command: 'go build' }, output: 'main.go:3: undefined: x\n', metadata: { exit: 1 } } }),
      finish('stop'),
    ]);
    expect(events[1]?.content).toBe('shell: go build → exit=1 · out: main.go:3: undefined: x');
  });
});
