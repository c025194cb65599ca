import OpenAI from 'openai';
import { LlmError } from '../errors.js';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient, LlmRole } from './port.js';
import type { Usage } from '../vocabulary/usage.js';

/** Model and endpoint of one role; the key itself is read from the environment by name. */
export interface RoleEndpoint {
  model: string;
  baseUrl?: string;
  /** The API key value (already resolved from `api_key_env`); never logged. */
  apiKey?: string;
  timeoutMs?: number;
}

/**
 * The OpenAI-compatible chat client for every role. Retries are off here on purpose: the
 * Temporal activity that calls it retries with backoff, visibly in the Web UI.
 */
export function createOpenAiClient(endpoints: Partial<Record<LlmRole, RoleEndpoint>>): LlmClient {
  const clients = new Map<LlmRole, OpenAI>();
  const clientFor = (role: LlmRole, endpoint: RoleEndpoint): OpenAI => {
    let client = clients.get(role);
    if (!client) {
      client = new OpenAI({
        baseURL: endpoint.baseUrl,
        apiKey: endpoint.apiKey ?? 'no-key',
        maxRetries: 0,
        timeout: endpoint.timeoutMs ?? 120_000,
      });
      clients.set(role, client);
    }
    return client;
  };

  return {
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const endpoint = endpoints[request.role];
      if (!endpoint) throw new LlmError(`no model is configured for the ${request.role} role`, undefined, false);
      const client = clientFor(request.role, endpoint);
      try {
        const completion = await client.chat.completions.create(
          {
            model: endpoint.model,
            messages: request.messages.map(toWireMessage),
            ...(request.tools?.length
              ? { tools: request.tools.map((t) => ({ type: 'function' as const, function: t })) }
              : {}),
            ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
            ...(request.maxTokens !== undefined ? { max_tokens: request.maxTokens } : {}),
          },
          { signal: request.signal },
        );
        const choice = completion.choices[0];
        if (!choice) throw new LlmError(`${request.role} model ${endpoint.model} returned no choices`, undefined, true);
        const message = choice.message as OpenAI.ChatCompletionMessage & { reasoning_content?: string };
        return {
          content: message.content ?? null,
          toolCalls: (message.tool_calls ?? []).flatMap((call) =>
            call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
          ),
          ...(message.reasoning_content ? { reasoning: message.reasoning_content } : {}),
          ...(completion.usage ? { usage: toUsage(completion.usage) } : {}),
          model: completion.model || endpoint.model,
          finishReason: choice.finish_reason ?? null,
        };
      } catch (err) {
        throw classifyLlmError(err, request.role, endpoint);
      }
    },
  };
}

/** 429, 5xx, timeouts and connection failures are retryable; other 4xx are not. */
export function classifyLlmError(err: unknown, role: LlmRole, endpoint: RoleEndpoint): LlmError {
  if (err instanceof LlmError) return err;
  const where = `${role} model ${endpoint.model}${endpoint.baseUrl ? ` at ${endpoint.baseUrl}` : ''}`;
  if (err instanceof OpenAI.APIUserAbortError) return new LlmError(`${where}: request cancelled`, undefined, false, { cause: err });
  if (err instanceof OpenAI.APIConnectionTimeoutError) return new LlmError(`${where}: timed out`, undefined, true, { cause: err });
  if (err instanceof OpenAI.APIConnectionError) return new LlmError(`${where}: connection failed (${err.message})`, undefined, true, { cause: err });
  if (err instanceof OpenAI.APIError) {
    const status = err.status;
    const retryable = status === undefined || status === 408 || status === 409 || status === 429 || status >= 500;
    const text = err.message.replace(new RegExp(`^${status ?? ''}\\s*`), '');
    const retryAfterMs = parseRetryAfter(err.headers?.get?.('retry-after') ?? null, Date.now());
    return new LlmError(`${where}: HTTP ${status ?? '?'} ${shortMessage(text)}`, status, retryable, { cause: err, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new LlmError(`${where}: ${message}`, undefined, false, { cause: err });
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function shortMessage(message: string): string {
  return message.length > 300 ? `${message.slice(0, 300)}…` : message;
}

function toWireMessage(message: ChatMessage): OpenAI.ChatCompletionMessageParam {
  if (message.role === 'assistant') {
    return {
      role: 'assistant',
      content: message.content,
      ...(message.tool_calls?.length
        ? {
            tool_calls: message.tool_calls.map((c) => ({
              id: c.id,
              type: 'function' as const,
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : {}),
    };
  }
  return message;
}

function toUsage(usage: OpenAI.CompletionUsage): Usage {
  return {
    input_tokens: usage.prompt_tokens,
    output_tokens: usage.completion_tokens,
    ...(usage.prompt_tokens_details?.cached_tokens ? { cache_read_tokens: usage.prompt_tokens_details.cached_tokens } : {}),
    ...(usage.completion_tokens_details?.reasoning_tokens
      ? { reasoning_tokens: usage.completion_tokens_details.reasoning_tokens }
      : {}),
  };
}
