import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../../src/llm/mock/server.js';
import type { MockDialect, MockReply, MockScript } from '../../../src/llm/mock/types.js';

const servers: MockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(script: MockScript, dialects?: MockDialect[]): Promise<{ server: MockServer; client: OpenAI }> {
  const server = await startMockServer({ script, ...(dialects ? { dialects } : {}) });
  servers.push(server);
  return { server, client: new OpenAI({ baseURL: server.url, apiKey: 'k', maxRetries: 0 }) };
}

const always = (reply: MockReply): MockScript => () => reply;

const TOOL_REPLY: MockReply = {
  text: 'Writing it.',
  toolCalls: [
    { id: 'call_a', name: 'write_file', arguments: { path: 'a.txt', content: 'hi' } },
    { name: 'run_shell', arguments: '{"command":"ls"}' },
  ],
  usage: { input_tokens: 12, output_tokens: 7 },
};

describe('mock server: OpenAI chat completions', () => {
  it('answers a non-streamed request in the OpenAI format', async () => {
    const { client } = await serve(always(TOOL_REPLY));
    const completion = await client.chat.completions.create({ model: 'cand', messages: [{ role: 'user', content: 'go' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.model).toBe('mock/cand');
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBe('Writing it.');
    const calls = (choice.message.tool_calls ?? []).map((c) => (c.type === 'function' ? [c.id, c.function.name, c.function.arguments] : []));
    expect(calls[0]).toEqual(['call_a', 'write_file', '{"path":"a.txt","content":"hi"}']);
    expect(calls[1]?.slice(1)).toEqual(['run_shell', '{"command":"ls"}']);
    expect(calls[1]?.[0]).toMatch(/^call_mock_1_/);
    expect(completion.usage).toEqual({ prompt_tokens: 12, completion_tokens: 7, total_tokens: 19 });
  });

  it('streams the same reply, as the SDK stream helper assembles it', async () => {
    const { client } = await serve(always({ ...TOOL_REPLY, reasoning: 'thinking first' }));
    const stream = client.chat.completions.stream({
      model: 'cand',
      messages: [{ role: 'user', content: 'go' }],
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    stream.on('content', (delta) => deltas.push(delta));
    const completion = await stream.finalChatCompletion();
    const choice = completion.choices[0]!;
    expect(deltas.join('')).toBe('Writing it.');
    expect(choice.message.content).toBe('Writing it.');
    expect(choice.finish_reason).toBe('tool_calls');
    expect((choice.message.tool_calls ?? []).map((c) => (c.type === 'function' ? [c.function.name, c.function.arguments] : []))).toEqual([
      ['write_file', '{"path":"a.txt","content":"hi"}'],
      ['run_shell', '{"command":"ls"}'],
    ]);
    expect(choice.message.tool_calls?.[0]?.id).toBe('call_a');
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 7 });
  });

  it('streams raw chunks: role first, reasoning, text, finish reason, then usage', async () => {
    const { client } = await serve(always({ text: 'Hello there', reasoning: 'hm' }));
    const stream = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const deltas = chunks.map((c) => c.choices[0]?.delta as Record<string, unknown> | undefined);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas[1]).toEqual({ reasoning_content: 'hm' });
    expect(deltas[2]).toEqual({ content: 'Hello there' });
    expect(chunks.map((c) => c.choices[0]?.finish_reason ?? null).filter(Boolean)).toEqual(['stop']);
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 100, completion_tokens: 3 } });
  });

  it('records each request in the neutral shape', async () => {
    const { server, client } = await serve(always({ text: 'ok' }));
    await client.chat.completions.create({
      model: 'judge',
      messages: [
        { role: 'system', content: 'rules' },
        { role: 'user', content: [{ type: 'text', text: 'part one, ' }, { type: 'text', text: 'part two' }] },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      dialect: 'openai-chat',
      model: 'judge',
      system: 'rules',
      messages: [{ role: 'user', content: 'part one, part two' }],
      tools: [{ name: 'f', parameters: { type: 'object' } }],
      stream: false,
    });
  });

  it('answers scripted errors with their status and message', async () => {
    const { client } = await serve(always({ status: 429, errorMessage: 'rate limited by script' }));
    const err = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as Error).message).toBe('429 rate limited by script');
  });

  it('answers 500 naming the failure when the script throws', async () => {
    const { server } = await serve(() => {
      throw new Error('script exploded');
    });
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{"model":"m","messages":[]}' });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { message: 'mock server: POST /v1/chat/completions: script exploded', type: 'server_error' } });
    expect(server.errors).toEqual(['mock server: POST /v1/chat/completions: script exploded']);
  });

  it('answers 400 to a body that is not JSON, without asking the script', async () => {
    const { server } = await serve(always({ text: 'never' }));
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{not json' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/^mock server: request body is not JSON: /);
    expect(server.requests).toEqual([]);
  });
});

describe('mock server: other routes', () => {
  it('lists a model', async () => {
    const { client } = await serve(always({ text: 'x' }));
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models).toEqual(['mock']);
  });

  it('answers 404 for a path no dialect serves', async () => {
    const { server } = await serve(always({ text: 'x' }));
    const response = await fetch(`${server.origin}/v1/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { message: 'mock server: no dialect serves POST /v1/embeddings' } });
    expect((await fetch(`${server.url}/chat/completions`)).status).toBe(404);
  });

  it('serves extra dialects next to OpenAI chat', async () => {
    const echo: MockDialect = {
      matches: (method, path) => method === 'POST' && path === '/echo',
      parse: (body, headers) => ({ dialect: 'gemini', model: 'echo', system: '', messages: [], tools: [], stream: false, body, headers }),
      write: (reply, _request, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`echo: ${reply.text ?? ''}`);
      },
    };
    const { server } = await serve(always({ text: 'from script' }), [echo]);
    const response = await fetch(`${server.origin}/echo?x=1`, { method: 'POST', body: '{"a":1}' });
    expect(await response.text()).toBe('echo: from script');
    expect(server.requests[0]?.body).toEqual({ a: 1 });
  });

  it('listens on loopback and stops accepting connections when closed', async () => {
    const server = await startMockServer({ script: always({ text: 'x' }) });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(server.url).toBe(`${server.origin}/v1`);
    expect((await fetch(`${server.url}/models`)).status).toBe(200);
    await server.close();
    await expect(fetch(`${server.url}/models`)).rejects.toThrow();
  });
});
