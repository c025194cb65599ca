import type { ServerResponse } from 'node:http';
import type { MockDialect, MockMessage, MockReply, MockRequest } from './types.js';
import { contentText, replyTokens } from './replyContent.js';

interface WireMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

interface WireBody {
  model?: string;
  messages?: WireMessage[];
  tools?: { function?: { name: string; parameters?: Record<string, unknown> } }[];
  stream?: boolean;
}

/** OpenAI chat completions (`POST /v1/chat/completions`), streamed or not. */
export const openAiChatDialect: MockDialect = {
  matches: (method, path) => method === 'POST' && path.endsWith('/chat/completions'),

  parse(body, headers): MockRequest {
    const wire = body as WireBody;
    const messages: MockMessage[] = (wire.messages ?? []).map((m) => ({
      role: (['system', 'user', 'assistant', 'tool'].includes(m.role) ? m.role : 'user') as MockMessage['role'],
      content: contentText(m.content),
      ...(m.tool_calls?.length
        ? { toolCalls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) }
        : {}),
      ...(m.tool_call_id ? { toolCallId: m.tool_call_id } : {}),
    }));
    return {
      dialect: 'openai-chat',
      model: wire.model ?? '',
      system: messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n'),
      messages: messages.filter((m) => m.role !== 'system'),
      tools: (wire.tools ?? []).flatMap((t) => (t.function ? [{ name: t.function.name, parameters: t.function.parameters ?? {} }] : [])),
      stream: wire.stream === true,
      body,
      headers,
    };
  },

  write(reply, request, res) {
    const id = `chatcmpl-mock-${Date.now().toString(36)}`;
    const model = `mock/${request.model}`;
    const toolCalls = (reply.toolCalls ?? []).map((c, i) => ({
      id: c.id ?? `call_mock_${i}_${Math.random().toString(36).slice(2, 8)}`,
      type: 'function' as const,
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    }));
    const finish = toolCalls.length ? 'tool_calls' : 'stop';
    const usage = usageOf(reply);
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: reply.text ?? (toolCalls.length ? null : ''),
                ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
                ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
              },
              finish_reason: finish,
            },
          ],
          usage,
        }),
      );
      return;
    }
    writeStream(res, id, model, reply, toolCalls, finish, usage);
  },
};

function writeStream(
  res: ServerResponse,
  id: string,
  model: string,
  reply: MockReply,
  toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[],
  finish: string,
  usage: ReturnType<typeof usageOf>,
): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finishReason }], ...extra })}\n\n`,
    );
  chunk({ role: 'assistant', content: '' });
  if (reply.reasoning) chunk({ reasoning_content: reply.reasoning });
  if (reply.text) chunk({ content: reply.text });
  toolCalls.forEach((call, index) =>
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: call.function.arguments } }] }),
  );
  chunk({}, finish);
  res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', model, choices: [], usage })}\n\n`);
  res.end('data: [DONE]\n\n');
}

function usageOf(reply: MockReply) {
  const { input, output } = replyTokens(reply);
  const cached = reply.usage?.cache_read_tokens;
  const reasoning = reply.usage?.reasoning_tokens;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    // Only when scripted, as OpenAI itself sends these details only when it has them.
    ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
    ...(reasoning !== undefined ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
  };
}
