import { describe, expect, it } from 'vitest';
import { FormatError } from '../../../src/errors.js';
import { geminiGenerateContentDialect } from '../../../src/llm/mock/geminiGenerateContent.js';
import { startMockServer } from '../../../src/llm/mock/server.js';

const PATH = '/v1beta/models/gemini-e2e:streamGenerateContent';

describe('Gemini generateContent mock dialect', () => {
  it('serves the streamed and the unstreamed route of a model, nothing else', () => {
    expect(geminiGenerateContentDialect.matches('POST', PATH)).toBe(true);
    expect(geminiGenerateContentDialect.matches('POST', '/v1beta/models/gemini-e2e:generateContent')).toBe(true);
    expect(geminiGenerateContentDialect.matches('POST', '/v1beta/models/gemini-e2e:countTokens')).toBe(false);
    expect(geminiGenerateContentDialect.matches('GET', PATH)).toBe(false);
    expect(geminiGenerateContentDialect.matches('POST', '/v1/chat/completions')).toBe(false);
  });

  it('parses the model from the path, the system instruction, function calls and their responses', () => {
    const body = {
      systemInstruction: { role: 'user', parts: [{ text: 'You are Gemini CLI.' }] },
      tools: [{ functionDeclarations: [{ name: 'run_shell_command', parametersJsonSchema: { type: 'object', properties: { command: { type: 'string' } } } }] }],
      contents: [
        { role: 'user', parts: [{ text: 'make a file' }] },
        { role: 'model', parts: [{ text: 'hm', thought: true }, { text: 'Running.' }, { functionCall: { id: 'call_1', name: 'run_shell_command', args: { command: 'touch a' } } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'call_1', name: 'run_shell_command', response: { output: 'done' } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'legacy', response: { output: 'x' } } }, { text: 'thanks' }] },
      ],
    };
    const request = geminiGenerateContentDialect.parse(body, {}, PATH);
    expect(request).toMatchObject({ dialect: 'gemini', model: 'gemini-e2e', system: 'You are Gemini CLI.', stream: true });
    expect(request.tools).toEqual([{ name: 'run_shell_command', parameters: { type: 'object', properties: { command: { type: 'string' } } } }]);
    expect(request.messages).toEqual([
      { role: 'user', content: 'make a file' },
      { role: 'assistant', content: 'Running.', toolCalls: [{ id: 'call_1', name: 'run_shell_command', arguments: '{"command":"touch a"}' }] },
      { role: 'tool', content: '{"output":"done"}', toolCallId: 'call_1' },
      // Without an id, a response is matched by the function's name.
      { role: 'tool', content: '{"output":"x"}', toolCallId: 'legacy' },
      { role: 'user', content: 'thanks' },
    ]);
    expect(geminiGenerateContentDialect.parse({}, {}, '/v1beta/models/m:generateContent').stream).toBe(false);
    expect(() => geminiGenerateContentDialect.parse({ contents: 'x' }, {}, PATH)).toThrow(FormatError);
  });

  it('streams thought, text and a function call as SSE chunks, the last with finish reason and usage', async () => {
    const mock = await startMockServer({
      dialects: [geminiGenerateContentDialect],
      script: () => ({ reasoning: 'think', text: 'Running.', toolCalls: [{ id: 'call_7', name: 'run_shell_command', arguments: { command: 'ls' } }], usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 10 } }),
    });
    try {
      const res = await fetch(`${mock.origin}${PATH}?alt=sse`, { method: 'POST', body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const chunks = (await res.text())
        .split('\r\n\r\n')
        .filter(Boolean)
        .map((c) => JSON.parse(c.replace(/^data: /, '')) as { candidates: { content: { parts: unknown[] }; finishReason?: string }[]; usageMetadata?: unknown });
      expect(chunks.map((c) => c.candidates[0]!.content.parts[0])).toEqual([
        { text: 'think', thought: true },
        { text: 'Running.' },
        { functionCall: { id: 'call_7', name: 'run_shell_command', args: { command: 'ls' } } },
      ]);
      expect(chunks.map((c) => c.candidates[0]!.finishReason)).toEqual([undefined, undefined, 'STOP']);
      expect(chunks[2]!.usageMetadata).toEqual({ promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 150, cachedContentTokenCount: 10 });
      expect(mock.requests[0]).toMatchObject({ dialect: 'gemini', model: 'gemini-e2e', messages: [{ role: 'user', content: 'hi' }] });
    } finally {
      await mock.close();
    }
  });

  it('answers the unstreamed route with one response holding every part', async () => {
    const mock = await startMockServer({ dialects: [geminiGenerateContentDialect], script: () => ({ text: 'ok' }) });
    try {
      const res = await fetch(`${mock.origin}/v1beta/models/m:generateContent`, { method: 'POST', body: '{}' });
      expect(await res.json()).toMatchObject({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 1 } });
    } finally {
      await mock.close();
    }
  });
});
