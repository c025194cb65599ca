import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { anthropicMessagesDialect } from '../../../src/llm/mock/anthropicMessages.js';
import type { MockReply } from '../../../src/llm/mock/types.js';
import { FormatError } from '../../../src/errors.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A one-route server around the dialect: parse the body, write the given reply. */
async function serve(reply: MockReply): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = anthropicMessagesDialect.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')), req.headers, req.url ?? '');
      anthropicMessagesDialect.write(reply, request, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function sseEvents(text: string): { event: string; data: Record<string, unknown> }[] {
  return text
    .trim()
    .split('\n\n')
    .map((chunk) => {
      const [eventLine, dataLine] = chunk.split('\n');
      return { event: eventLine?.replace('event: ', '') ?? '', data: JSON.parse(dataLine?.replace('data: ', '') ?? '{}') as Record<string, unknown> };
    });
}

describe('Anthropic Messages mock dialect', () => {
  it('serves POST /v1/messages with or without ?beta=true', () => {
    expect(anthropicMessagesDialect.matches('POST', '/v1/messages')).toBe(true);
    expect(anthropicMessagesDialect.matches('POST', '/v1/messages?beta=true')).toBe(true);
    expect(anthropicMessagesDialect.matches('GET', '/v1/messages')).toBe(false);
    expect(anthropicMessagesDialect.matches('POST', '/v1/chat/completions')).toBe(false);
  });

  it('parses system blocks, tool use and tool results into the neutral request', () => {
    const body = {
      model: 'claude-x',
      stream: true,
      system: [{ type: 'text', text: 'You are Claude Code.' }, { type: 'text', text: 'Be brief.' }],
      tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'make a file' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 's' }, { type: 'text', text: 'Running.' }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'touch a' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'done' }] }, { type: 'text', text: 'thanks' }] },
      ],
    };
    const request = anthropicMessagesDialect.parse(body, { 'x-api-key': 'k' }, '/v1/messages?beta=true');
    expect(request).toMatchObject({
      dialect: 'anthropic-messages',
      model: 'claude-x',
      system: 'You are Claude Code.\nBe brief.',
      stream: true,
      tools: [{ name: 'Bash', parameters: body.tools[0]?.input_schema }],
      messages: [
        { role: 'user', content: 'make a file' },
        { role: 'assistant', content: 'Running.', toolCalls: [{ id: 'toolu_1', name: 'Bash', arguments: '{"command":"touch a"}' }] },
        { role: 'tool', content: 'done', toolCallId: 'toolu_1' },
        { role: 'user', content: 'thanks' },
      ],
    });
  });

  it('rejects a body that is not a Messages request, naming the field', () => {
    expect(() => anthropicMessagesDialect.parse({ messages: [] }, {}, '/v1/messages')).toThrow(FormatError);
    expect(() => anthropicMessagesDialect.parse({ messages: [] }, {}, '/v1/messages')).toThrow(/POST \/v1\/messages: model:/);
  });

  it('streams thinking, text and a tool call as Anthropic SSE', async () => {
    const url = await serve({ reasoning: 'I should run it.', text: 'Let me run a command.', toolCalls: [{ id: 'toolu_9', name: 'Bash', arguments: { command: 'ls' } }], usage: { input_tokens: 120, output_tokens: 22, cache_read_tokens: 20 } });
    const response = await fetch(`${url}/v1/messages?beta=true`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }) });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = sseEvents(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events.every((e) => e.data.type === e.event)).toBe(true);
    expect(events[2]?.data.delta).toEqual({ type: 'thinking_delta', thinking: 'I should run it.' });
    expect((events[3]?.data.delta as { type: string }).type).toBe('signature_delta');
    expect(events[6]?.data.delta).toEqual({ type: 'text_delta', text: 'Let me run a command.' });
    expect(events[8]?.data.content_block).toEqual({ type: 'tool_use', id: 'toolu_9', name: 'Bash', input: {} });
    expect(events[9]?.data.delta).toEqual({ type: 'input_json_delta', partial_json: '{"command":"ls"}' });
    expect(events[11]?.data).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { input_tokens: 100, output_tokens: 22, cache_read_input_tokens: 20 } });
  });

  it('answers a non-streamed request with one message, and errors in Anthropic shape', async () => {
    const url = await serve({ text: 'DONE' });
    const message = (await (await fetch(`${url}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }) })).json()) as Record<string, unknown>;
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'DONE' }], stop_reason: 'end_turn' });

    const failing = await serve({ status: 429, errorMessage: 'slow down' });
    const response = await fetch(`${failing}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', messages: [] }) });
    expect(response.status).toBe(429);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });
});
