import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/errors.js';
import { openAiResponsesDialect } from '../../../src/llm/mock/openAiResponses.js';
import { startMockServer } from '../../../src/llm/mock/server.js';

describe('OpenAI Responses mock dialect', () => {
  it('serves POST /v1/responses only', () => {
    expect(openAiResponsesDialect.matches('POST', '/v1/responses')).toBe(true);
    expect(openAiResponsesDialect.matches('GET', '/v1/responses')).toBe(false);
    expect(openAiResponsesDialect.matches('POST', '/v1/chat/completions')).toBe(false);
  });

  it('parses instructions, developer and user messages, function calls and their outputs', () => {
    const body = {
      model: 'codex-x',
      instructions: 'You are Codex.',
      stream: true,
      tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }, { type: 'web_search' }, { type: 'custom', name: 'apply_patch' }],
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Sandbox: none.' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'make a file' }] },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'hm' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Running.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"touch a"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'done' },
      ],
    };
    const request = openAiResponsesDialect.parse(body, {}, '/v1/responses');
    expect(request).toMatchObject({ dialect: 'openai-responses', model: 'codex-x', system: 'You are Codex.\nSandbox: none.', stream: true });
    expect(request.tools.map((t) => t.name)).toEqual(['exec_command', 'apply_patch']);
    expect(request.messages).toEqual([
      { role: 'user', content: 'make a file' },
      { role: 'assistant', content: 'Running.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'exec_command', arguments: '{"cmd":"touch a"}' }] },
      { role: 'tool', content: 'done', toolCallId: 'call_1' },
    ]);
    expect(openAiResponsesDialect.parse({ input: 'hi' }, {}, '/v1/responses').messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(() => openAiResponsesDialect.parse({ input: 3 }, {}, '/v1/responses')).toThrow(FormatError);
  });

  it('streams created, each output item added and done, and completed with usage', async () => {
    const mock = await startMockServer({
      dialects: [openAiResponsesDialect],
      script: () => ({ reasoning: 'think', text: 'Running.', toolCalls: [{ id: 'call_7', name: 'exec_command', arguments: { cmd: 'ls' } }], usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 10 } }),
    });
    try {
      const res = await fetch(`${mock.url}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, input: 'hi' }) });
      const events = (await res.text())
        .trim()
        .split('\n\n')
        .map((chunk) => {
          const [eventLine, dataLine] = chunk.split('\n');
          const data = JSON.parse(dataLine!.replace('data: ', '')) as { type: string; item?: Record<string, unknown>; response?: { usage: unknown; output: unknown[] } };
          expect(eventLine).toBe(`event: ${data.type}`);
          return data;
        });
      expect(events.map((e) => e.type)).toEqual([
        'response.created',
        'response.output_item.added',
        'response.output_item.done',
        'response.output_item.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.output_item.done',
        'response.output_item.added',
        'response.output_item.done',
        'response.completed',
      ]);
      const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
      expect(done).toMatchObject([
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Running.' }] },
        { type: 'function_call', call_id: 'call_7', name: 'exec_command', arguments: '{"cmd":"ls"}' },
      ]);
      expect(events.at(-1)!.response!.usage).toEqual({
        input_tokens: 120,
        input_tokens_details: { cached_tokens: 10 },
        output_tokens: 30,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 150,
      });
    } finally {
      await mock.close();
    }
  });

  it('answers an unstreamed request with one response object', async () => {
    const mock = await startMockServer({ dialects: [openAiResponsesDialect], script: () => ({ text: 'ok' }) });
    try {
      const res = await fetch(`${mock.url}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'hi' }) });
      expect(await res.json()).toMatchObject({ object: 'response', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'ok' }] }], usage: { input_tokens: 100 } });
    } finally {
      await mock.close();
    }
  });
});
