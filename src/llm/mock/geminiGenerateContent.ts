import { FormatError } from '../../errors.js';
import type { MockDialect, MockMessage, MockReply, MockRequest } from './types.js';
import { replyTokens } from './replyContent.js';

interface WirePart {
  text?: string;
  thought?: boolean;
  functionCall?: { id?: string; name: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response?: unknown };
}

interface WireContent {
  role?: string;
  parts?: WirePart[];
}

interface WireBody {
  contents?: WireContent[];
  systemInstruction?: WireContent | string;
  tools?: { functionDeclarations?: { name: string; parameters?: Record<string, unknown>; parametersJsonSchema?: Record<string, unknown> }[] }[];
}

const ROUTE = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/**
 * Gemini `generateContent` (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, or the
 * unstreamed `:generateContent`), what Gemini CLI speaks under `GOOGLE_GEMINI_BASE_URL`. The
 * model is in the path; a function call's `id` is sent so the CLI echoes it in its
 * `functionResponse`, which makes tool results line up by id as in the other dialects.
 */
export const geminiGenerateContentDialect: MockDialect = {
  matches: (method, path) => method === 'POST' && ROUTE.test(path),

  parse(body, headers, path): MockRequest {
    const route = ROUTE.exec(path);
    if (!route) throw new FormatError(`gemini request: path ${path} is not /models/<model>:streamGenerateContent or :generateContent`);
    const wire = body as WireBody;
    if (wire.contents !== undefined && !Array.isArray(wire.contents)) throw new FormatError('gemini request: field contents: expected an array of contents');
    const messages = (wire.contents ?? []).flatMap(messagesOf);
    const system = typeof wire.systemInstruction === 'string' ? wire.systemInstruction : (wire.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n');
    return {
      dialect: 'gemini',
      model: decodeURIComponent(route[1] ?? ''),
      system,
      messages,
      tools: (wire.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => ({ name: f.name, parameters: f.parameters ?? f.parametersJsonSchema ?? {} }))),
      stream: route[2] === 'streamGenerateContent',
      body,
      headers,
    };
  },

  write(reply, request, res) {
    const parts = partsOf(reply);
    const finish = { finishReason: 'STOP', index: 0 };
    const usageMetadata = usageOf(reply);
    const modelVersion = `mock/${request.model}`;
    if (!request.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ candidates: [{ content: { role: 'model', parts }, ...finish }], usageMetadata, modelVersion }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // One chunk per part, as the real API streams them; the last carries the finish and usage.
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const chunk = { candidates: [{ content: { role: 'model', parts: [part] }, ...(last ? finish : { index: 0 }) }], ...(last ? { usageMetadata } : {}), modelVersion };
      res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
    });
    res.end();
  },
};

/** One wire content as neutral messages: function responses become tool messages of their own. */
function messagesOf(content: WireContent): MockMessage[] {
  const parts = content.parts ?? [];
  if (content.role === 'model') {
    const calls = parts.flatMap((p) => (p.functionCall ? [p.functionCall] : []));
    return [
      {
        role: 'assistant',
        content: parts.filter((p) => p.text !== undefined && !p.thought).map((p) => p.text).join(''),
        ...(calls.length ? { toolCalls: calls.map((c) => ({ id: c.id ?? c.name, name: c.name, arguments: JSON.stringify(c.args ?? {}) })) } : {}),
      },
    ];
  }
  const results: MockMessage[] = parts.flatMap((p) =>
    p.functionResponse ? [{ role: 'tool' as const, content: JSON.stringify(p.functionResponse.response ?? {}), toolCallId: p.functionResponse.id ?? p.functionResponse.name }] : [],
  );
  const text = parts.filter((p) => p.text !== undefined).map((p) => p.text).join('');
  return [...results, ...(text !== '' || results.length === 0 ? [{ role: 'user' as const, content: text }] : [])];
}

function partsOf(reply: MockReply): WirePart[] {
  const parts: WirePart[] = [];
  if (reply.reasoning) parts.push({ text: reply.reasoning, thought: true });
  if (reply.text) parts.push({ text: reply.text });
  (reply.toolCalls ?? []).forEach((call, i) =>
    parts.push({
      functionCall: {
        id: call.id ?? `call_mock_${i}_${Math.random().toString(36).slice(2, 8)}`,
        name: call.name,
        args: typeof call.arguments === 'string' ? (JSON.parse(call.arguments) as Record<string, unknown>) : call.arguments,
      },
    }),
  );
  // The API never sends an empty candidate: an empty reply is one empty text part.
  return parts.length ? parts : [{ text: '' }];
}

function usageOf(reply: MockReply) {
  const { input, output } = replyTokens(reply);
  const cached = reply.usage?.cache_read_tokens;
  const thoughts = reply.usage?.reasoning_tokens;
  return {
    promptTokenCount: input,
    candidatesTokenCount: output,
    totalTokenCount: input + output + (thoughts ?? 0),
    ...(cached !== undefined ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts !== undefined ? { thoughtsTokenCount: thoughts } : {}),
  };
}
