import type { ServerResponse } from 'node:http';
import type { Usage } from '../../vocabulary/usage.js';

/**
 * The mock model server speaks several wire dialects (OpenAI chat completions, Anthropic
 * Messages, ...). Each dialect turns its request into this neutral shape, asks the script,
 * and writes the scripted reply back in its own wire format (streamed or not).
 */
export interface MockMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Text content; for tool results, the result text. */
  content: string;
  toolCalls?: { id: string; name: string; arguments: string }[];
  toolCallId?: string;
}

export interface MockRequest {
  dialect: 'openai-chat' | 'anthropic-messages' | 'openai-responses' | 'gemini';
  model: string;
  system: string;
  messages: MockMessage[];
  /** Names of the tools offered, with their JSON schemas. */
  tools: { name: string; parameters: Record<string, unknown> }[];
  stream: boolean;
  /** Raw request body and headers, for assertions in tests. */
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
}

export interface MockReply {
  text?: string;
  reasoning?: string;
  toolCalls?: { id?: string; name: string; arguments: Record<string, unknown> | string }[];
  usage?: Usage;
  /** Answer with this HTTP error status instead (429, 500, 400 ...). */
  status?: number;
  errorMessage?: string;
  /** With an error status: send `Retry-After: <seconds>`, as rate-limited endpoints do. */
  retryAfterS?: number;
  /** Wait this long before answering (a model's latency, or a slow endpoint). */
  delayMs?: number;
}

/** A script decides each reply; it may be stateful (a queue, a counter). */
export type MockScript = (request: MockRequest) => MockReply | Promise<MockReply>;

export interface MockDialect {
  /** HTTP method + path this dialect serves, e.g. `POST /v1/chat/completions`. */
  matches(method: string, path: string): boolean;
  parse(body: unknown, headers: MockRequest['headers'], path: string): MockRequest;
  /** Write the reply; `res` is a node http.ServerResponse. */
  write(reply: MockReply, request: MockRequest, res: ServerResponse): void;
}
