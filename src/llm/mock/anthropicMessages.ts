import type { ServerResponse } from 'node:http';
import * as z from 'zod';
import { parseOrThrow } from '../../format.js';
import type { MockDialect, MockMessage, MockReply, MockRequest } from './types.js';
import type { Usage } from '../../vocabulary/usage.js';

const BlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  tool_use_id: z.string().optional(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
});

/** The parts of an Anthropic Messages request the mock reads; everything else is passed through. */
const AnthropicRequestSchema = z.looseObject({
  model: z.string(),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  // Claude Code 2.1 also puts `system` messages inside the list (environment notes).
  messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant', 'system']), content: z.union([z.string(), z.array(BlockSchema)]) })),
  tools: z.array(z.looseObject({ name: z.string(), input_schema: z.record(z.string(), z.unknown()).optional() })).optional(),
  stream: z.boolean().optional(),
});
type AnthropicRequest = z.infer<typeof AnthropicRequestSchema>;

let messageCounter = 0;

/**
 * Anthropic Messages (`POST /v1/messages`, with or without `?beta=true`), as Claude Code calls
 * it: the request becomes a neutral MockRequest; the reply is written as one JSON message or,
 * with `stream: true`, as the SSE sequence message_start → content blocks (thinking with
 * thinking_delta + signature_delta, text, tool_use with input_json_delta) → message_delta
 * (stop_reason, usage) → message_stop.
 */
export const anthropicMessagesDialect: MockDialect = {
  matches: (method, path) => method === 'POST' && (path.split('?')[0] ?? '').replace(/\/+$/, '').endsWith('/v1/messages'),

  parse(body, headers, path): MockRequest {
    const wire = parseOrThrow(AnthropicRequestSchema, body, `POST ${path}`);
    const system = typeof wire.system === 'string' ? wire.system : (wire.system ?? []).map((block) => block.text ?? '').join('\n');
    const inlineSystem = wire.messages.filter((m) => m.role === 'system').map((m) => (typeof m.content === 'string' ? m.content : textOf(m.content)));
    return {
      dialect: 'anthropic-messages',
      model: wire.model,
      system: [system, ...inlineSystem].filter(Boolean).join('\n'),
      messages: wire.messages.filter((m): m is typeof m & { role: 'user' | 'assistant' } => m.role !== 'system').flatMap(toMockMessages),
      tools: (wire.tools ?? []).map((tool) => ({ name: tool.name, parameters: tool.input_schema ?? {} })),
      stream: wire.stream === true,
      body,
      headers,
    };
  },

  write(reply, request, res) {
    if (reply.status && reply.status >= 400) {
      writeError(res, reply.status, reply.errorMessage ?? `mock error ${reply.status}`);
      return;
    }
    const id = `msg_mock_${++messageCounter}`;
    const blocks = contentBlocks(reply, messageCounter);
    const stopReason = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const usage = wireUsage(reply.usage, reply);
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id, type: 'message', role: 'assistant', model: request.model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage }));
      return;
    }
    writeStream(res, { id, model: request.model, blocks, stopReason, usage });
  },
};

function toMockMessages(message: AnthropicRequest['messages'][number] & { role: 'user' | 'assistant' }): MockMessage[] {
  if (typeof message.content === 'string') return [{ role: message.role, content: message.content }];
  if (message.role === 'assistant') {
    const toolCalls = message.content
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: block.id ?? '', name: block.name ?? '', arguments: JSON.stringify(block.input ?? {}) }));
    return [{ role: 'assistant', content: textOf(message.content), ...(toolCalls.length ? { toolCalls } : {}) }];
  }
  // A user turn carries tool results (one tool message each) and possibly more text after them.
  const out: MockMessage[] = message.content
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({ role: 'tool' as const, content: typeof block.content === 'string' ? block.content : textOf(block.content ?? []), toolCallId: block.tool_use_id ?? '' }));
  const text = textOf(message.content);
  if (text || out.length === 0) out.push({ role: 'user', content: text });
  return out;
}

function textOf(blocks: { type: string; text?: string | undefined }[]): string {
  return blocks
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('');
}

type WireBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function contentBlocks(reply: MockReply, counter: number): WireBlock[] {
  const blocks: WireBlock[] = [];
  if (reply.reasoning) blocks.push({ type: 'thinking', thinking: reply.reasoning, signature: `mock-signature-${counter}` });
  if (reply.text) blocks.push({ type: 'text', text: reply.text });
  for (const [index, call] of (reply.toolCalls ?? []).entries()) {
    blocks.push({ type: 'tool_use', id: call.id ?? `toolu_mock_${counter}_${index}`, name: call.name, input: inputOf(call.arguments) });
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
  return blocks;
}

function inputOf(args: Record<string, unknown> | string): Record<string, unknown> {
  if (typeof args !== 'string') return args;
  try {
    const parsed: unknown = JSON.parse(args || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Anthropic's input_tokens exclude cache reads and writes; evalflow's Usage includes them. */
function wireUsage(usage: Usage | undefined, reply: MockReply) {
  const cacheRead = usage?.cache_read_tokens ?? 0;
  const cacheWrite = usage?.cache_write_tokens ?? 0;
  const input = usage ? Math.max(0, usage.input_tokens - cacheRead - cacheWrite) : 100;
  const output = usage?.output_tokens ?? Math.max(1, Math.ceil(((reply.text ?? '') + (reply.reasoning ?? '')).length / 4));
  return { input_tokens: input, output_tokens: output, cache_read_input_tokens: cacheRead, cache_creation_input_tokens: cacheWrite };
}

function writeStream(
  res: ServerResponse,
  message: { id: string; model: string; blocks: WireBlock[]; stopReason: string; usage: ReturnType<typeof wireUsage> },
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const send = (event: string, data: Record<string, unknown>) => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', {
    message: {
      id: message.id,
      type: 'message',
      role: 'assistant',
      model: message.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...message.usage, output_tokens: 1 },
    },
  });
  message.blocks.forEach((block, index) => {
    if (block.type === 'thinking') {
      send('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      send('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
      send('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
    } else if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      if (block.text) send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      send('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  });
  send('message_delta', { delta: { stop_reason: message.stopReason, stop_sequence: null }, usage: message.usage });
  send('message_stop', {});
  res.end();
}

/** Anthropic's error body: `{type: "error", error: {type, message}}` with the matching type name. */
function writeError(res: ServerResponse, status: number, message: string): void {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    500: 'api_error',
    529: 'overloaded_error',
  };
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type: types[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } }));
}
