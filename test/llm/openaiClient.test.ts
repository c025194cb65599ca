import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LlmError } from '../../src/errors.js';
import { startMockServer, type MockServer } from '../../src/llm/mock/server.js';
import type { MockReply, MockRequest } from '../../src/llm/mock/types.js';
import { classifyLlmError, createOpenAiClient } from '../../src/llm/openaiClient.js';
import type { ChatRequest } from '../../src/llm/port.js';
import { freePort } from '../support/temporalServer.js';

/** Replies are chosen by the last user message, so each test scripts its own case. */
const replies = new Map<string, MockReply | (() => Promise<MockReply>)>();
let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({
    script: async (request: MockRequest) => {
      const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const reply = replies.get(last);
      if (!reply) return { status: 400, errorMessage: `test script has no reply for '${last}'` };
      return typeof reply === 'function' ? reply() : reply;
    },
  });
});
afterAll(async () => {
  await mock.close();
});

function ask(key: string, reply: MockReply | (() => Promise<MockReply>), extra: Partial<ChatRequest> = {}): ChatRequest {
  replies.set(key, reply);
  return { role: 'judge', messages: [{ role: 'user', content: key }], ...extra };
}

const judgeClient = () => createOpenAiClient({ judge: { model: 'judge-m', baseUrl: mock.url, apiKey: 'sk-test' } });

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

describe('createOpenAiClient against the mock server', () => {
  it('sends model, messages, tools and options, and returns text with the served model', async () => {
    const response = await judgeClient().chat(
      ask('plain', { text: 'verdict: pass' }, {
        messages: [{ role: 'system', content: 'You are the judge.' }, { role: 'user', content: 'plain' }],
        temperature: 0,
        maxTokens: 321,
      }),
    );
    expect(response).toMatchObject({ content: 'verdict: pass', toolCalls: [], model: 'mock/judge-m', finishReason: 'stop' });
    expect(response).not.toHaveProperty('reasoning');
    const served = mock.requests.at(-1)!;
    expect(served).toMatchObject({ model: 'judge-m', system: 'You are the judge.', stream: false });
    expect(served.body).toMatchObject({ temperature: 0, max_tokens: 321 });
    expect(served.headers.authorization).toBe('Bearer sk-test');
  });

  it('round-trips tool calls: offered tools, the model call, and the tool result', async () => {
    const client = createOpenAiClient({ candidate: { model: 'cand-m', baseUrl: mock.url } });
    replies.set('make a file', { toolCalls: [{ id: 'call_1', name: 'write_file', arguments: { path: 'a.txt', content: 'hi' } }] });
    const tools = [{ name: 'write_file', description: 'Write a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
    const first = await client.chat({ role: 'candidate', messages: [{ role: 'user', content: 'make a file' }], tools });
    expect(first).toMatchObject({ content: null, finishReason: 'tool_calls' });
    expect(first.toolCalls).toEqual([{ id: 'call_1', name: 'write_file', arguments: '{"path":"a.txt","content":"hi"}' }]);
    expect(mock.requests.at(-1)!.tools).toEqual([{ name: 'write_file', parameters: tools[0]!.parameters }]);

    replies.set('make a file', { text: 'done' });
    const second = await client.chat({
      role: 'candidate',
      tools,
      messages: [
        { role: 'user', content: 'make a file' },
        { role: 'assistant', content: null, tool_calls: first.toolCalls },
        { role: 'tool', tool_call_id: 'call_1', content: 'wrote 2 bytes' },
      ],
    });
    expect(second.content).toBe('done');
    expect(mock.requests.at(-1)!.messages).toEqual([
      { role: 'user', content: 'make a file' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'write_file', arguments: '{"path":"a.txt","content":"hi"}' }] },
      { role: 'tool', content: 'wrote 2 bytes', toolCallId: 'call_1' },
    ]);
  });

  it('maps usage, including cached and reasoning tokens when present', async () => {
    const plain = await judgeClient().chat(ask('usage plain', { text: 'x', usage: { input_tokens: 1234, output_tokens: 56 } }));
    expect(plain.usage).toEqual({ input_tokens: 1234, output_tokens: 56 });
    const detailed = await judgeClient().chat(
      ask('usage detailed', { text: 'x', usage: { input_tokens: 900, output_tokens: 70, cache_read_tokens: 800, reasoning_tokens: 40 } }),
    );
    expect(detailed.usage).toEqual({ input_tokens: 900, output_tokens: 70, cache_read_tokens: 800, reasoning_tokens: 40 });
  });

  it('returns reasoning_content as reasoning', async () => {
    const response = await judgeClient().chat(ask('think', { reasoning: 'Let me weigh the evidence.', text: 'pass' }));
    expect(response).toMatchObject({ reasoning: 'Let me weigh the evidence.', content: 'pass' });
  });

  it.each([429, 500, 503])('HTTP %i is retryable, with the status once in the message', async (status) => {
    const err = await failure(judgeClient().chat(ask(`status ${status}`, { status, errorMessage: 'slow down' })));
    expect(err).toMatchObject({ status, retryable: true });
    expect(err.message).toBe(`judge model judge-m at ${mock.url}: HTTP ${status} slow down`);
  });

  it.each([400, 401, 404])('HTTP %i is not retryable', async (status) => {
    const err = await failure(judgeClient().chat(ask(`status ${status}`, { status, errorMessage: 'bad request' })));
    expect(err).toMatchObject({ status, retryable: false });
    expect(err.message).toBe(`judge model judge-m at ${mock.url}: HTTP ${status} bad request`);
  });

  it('a closed port is a retryable connection failure', async () => {
    const port = await freePort();
    const client = createOpenAiClient({ examiner: { model: 'exam-m', baseUrl: `http://127.0.0.1:${port}/v1` } });
    const err = await failure(client.chat({ role: 'examiner', messages: [{ role: 'user', content: 'hi' }] }));
    expect(err).toMatchObject({ status: undefined, retryable: true });
    expect(err.message).toMatch(new RegExp(`^examiner model exam-m at http://127\\.0\\.0\\.1:${port}/v1: connection failed \\(`));
  });

  it('a request slower than the timeout is a retryable timeout', async () => {
    const client = createOpenAiClient({ judge: { model: 'judge-m', baseUrl: mock.url, timeoutMs: 200 } });
    const slow = () => new Promise<MockReply>((resolve) => setTimeout(() => resolve({ text: 'late' }), 2_000));
    const err = await failure(client.chat(ask('slow for timeout', slow)));
    expect(err).toMatchObject({ retryable: true });
    expect(err.message).toBe(`judge model judge-m at ${mock.url}: timed out`);
  });

  it('an aborted request is cancelled and not retryable', async () => {
    const controller = new AbortController();
    const slow = () => new Promise<MockReply>((resolve) => setTimeout(() => resolve({ text: 'late' }), 2_000));
    setTimeout(() => controller.abort(), 100);
    const err = await failure(judgeClient().chat(ask('slow for abort', slow, { signal: controller.signal })));
    expect(err).toMatchObject({ retryable: false, status: undefined });
    expect(err.message).toBe(`judge model judge-m at ${mock.url}: request cancelled`);

    const before = mock.requests.length;
    const already = await failure(judgeClient().chat(ask('plain', { text: 'x' }, { signal: AbortSignal.abort() })));
    expect(already.message).toContain('request cancelled');
    expect(mock.requests.length).toBe(before);
  });

  it('a role without a configured model is an LlmError, and nothing is sent', async () => {
    const before = mock.requests.length;
    const err = await failure(judgeClient().chat({ role: 'examiner', messages: [{ role: 'user', content: 'hi' }] }));
    expect(err).toMatchObject({ retryable: false });
    expect(err.message).toBe('no model is configured for the examiner role');
    expect(mock.requests.length).toBe(before);
  });

});

describe('classifyLlmError', () => {
  const endpoint = { model: 'judge-m' };

  it('leaves out the base URL when none is configured', () => {
    const err = classifyLlmError(new OpenAI.APIUserAbortError(), 'judge', endpoint);
    expect(err.message).toBe('judge model judge-m: request cancelled');
  });

  it('keeps an LlmError as it is', () => {
    const original = new LlmError('already classified', 429, true);
    expect(classifyLlmError(original, 'judge', endpoint)).toBe(original);
  });

  it('treats an unknown failure as not retryable, keeping its message and cause', () => {
    const cause = new TypeError('boom');
    const err = classifyLlmError(cause, 'candidate', endpoint);
    expect(err).toMatchObject({ retryable: false, status: undefined, message: 'candidate model judge-m: boom', cause });
  });

  it('cuts very long error bodies', () => {
    const body = 'x'.repeat(1_000);
    const err = classifyLlmError(OpenAI.APIError.generate(500, { error: { message: body } }, undefined, new Headers()), 'judge', endpoint);
    expect(err.message).toBe(`judge model judge-m: HTTP 500 ${'x'.repeat(300)}…`);
  });
});
