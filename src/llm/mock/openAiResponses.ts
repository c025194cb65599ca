import type { ServerResponse } from 'node:http';
import { FormatError } from '../../errors.js';
import type { MockDialect, MockMessage, MockReply, MockRequest } from './types.js';
import { contentText, replyTokens } from './replyContent.js';

interface WireItem {
  type?: string;
  role?: string;
  content?: string | { type?: string; text?: string }[];
  call_id?: string;
  name?: string;
  arguments?: string;
  input?: string;
  output?: string | { type?: string; text?: string }[];
}

interface WireBody {
  model?: string;
  instructions?: string;
  input?: string | WireItem[];
  tools?: { type?: string; name?: string; parameters?: Record<string, unknown> }[];
  stream?: boolean;
}

/**
 * OpenAI Responses (`POST /v1/responses`), what Codex speaks: input items in (messages,
 * function calls and their outputs), output items back, streamed as SSE events
 * (`response.created`, `response.output_item.added`/`.done` per item, `response.completed`
 * with usage) or as one response object.
 */
export const openAiResponsesDialect: MockDialect = {
  matches: (method, path) => method === 'POST' && path.endsWith('/responses'),

  parse(body, headers): MockRequest {
    const wire = body as WireBody;
    if (wire.input !== undefined && typeof wire.input !== 'string' && !Array.isArray(wire.input)) {
      throw new FormatError('responses request: field input: expected a string or an array of items');
    }
    const items: WireItem[] = typeof wire.input === 'string' ? [{ type: 'message', role: 'user', content: wire.input }] : (wire.input ?? []);
    const messages = items.flatMap(messageOf);
    const developer = messages.filter((m) => m.role === 'system').map((m) => m.content);
    return {
      dialect: 'openai-responses',
      model: wire.model ?? '',
      system: [wire.instructions ?? '', ...developer].filter(Boolean).join('\n'),
      messages: messages.filter((m) => m.role !== 'system'),
      // Function tools and the named built-in ones (custom, local_shell...); nameless ones (web_search) are skipped.
      tools: (wire.tools ?? []).flatMap((t) => (t.name ? [{ name: t.name, parameters: t.parameters ?? {} }] : t.type === 'local_shell' ? [{ name: 'local_shell', parameters: {} }] : [])),
      stream: wire.stream === true,
      body,
      headers,
    };
  },

  write(reply, request, res) {
    const id = `resp_mock_${Date.now().toString(36)}`;
    const output = outputOf(reply);
    const usage = usageOf(reply);
    const response = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: `mock/${request.model}`, status: 'completed', output, usage };
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(response));
      return;
    }
    writeStream(res, response, output);
  },
};

function writeStream(res: ServerResponse, response: Record<string, unknown>, output: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } });
  output.forEach((item, output_index) => {
    event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
    if (item.type === 'message') {
      const text = (item.content as { text: string }[])[0]?.text ?? '';
      event('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: text });
      event('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text });
    }
    event('response.output_item.done', { output_index, item });
  });
  event('response.completed', { response });
  res.end();
}

/** One input item as a neutral message; reasoning and unknown items are dropped. */
function messageOf(item: WireItem): MockMessage[] {
  const type = item.type ?? (item.role ? 'message' : undefined);
  switch (type) {
    case 'message': {
      const role = item.role === 'assistant' ? 'assistant' : item.role === 'system' || item.role === 'developer' ? 'system' : 'user';
      return [{ role, content: contentText(item.content) }];
    }
    case 'function_call':
    case 'custom_tool_call':
      return [{ role: 'assistant', content: '', toolCalls: [{ id: item.call_id ?? '', name: item.name ?? '', arguments: item.arguments ?? item.input ?? '' }] }];
    case 'function_call_output':
    case 'custom_tool_call_output':
      return [{ role: 'tool', content: typeof item.output === 'string' ? item.output : contentText(item.output), toolCallId: item.call_id ?? '' }];
    default:
      return [];
  }
}

function outputOf(reply: MockReply): Record<string, unknown>[] {
  const stamp = Math.random().toString(36).slice(2, 8);
  const output: Record<string, unknown>[] = [];
  if (reply.reasoning) output.push({ type: 'reasoning', id: `rs_mock_${stamp}`, summary: [{ type: 'summary_text', text: reply.reasoning }] });
  if (reply.text) {
    output.push({ type: 'message', id: `msg_mock_${stamp}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] });
  }
  (reply.toolCalls ?? []).forEach((call, i) =>
    output.push({
      type: 'function_call',
      id: `fc_mock_${i}_${stamp}`,
      call_id: call.id ?? `call_mock_${i}_${stamp}`,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      status: 'completed',
    }),
  );
  return output;
}

function usageOf(reply: MockReply) {
  const { input, output } = replyTokens(reply);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: reply.usage?.cache_read_tokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reply.usage?.reasoning_tokens ?? 0 },
    total_tokens: input + output,
  };
}
