import type { Usage } from '../vocabulary/usage.js';

/** Which part of evalflow a model call serves; each role has its own model and endpoint. */
export type LlmRole = 'examiner' | 'judge' | 'candidate';

export interface ChatToolCall {
  id: string;
  name: string;
  /** Raw JSON arguments as the model produced them. */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface ChatTool {
  name: string;
  description: string;
  /** JSON schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ChatRequest {
  role: LlmRole;
  messages: ChatMessage[];
  tools?: ChatTool[];
  temperature?: number;
  maxTokens?: number;
  signal?: AbortSignal;
}

export interface ChatResponse {
  content: string | null;
  toolCalls: ChatToolCall[];
  /** Reasoning text if the endpoint returns it (reasoning_content). */
  reasoning?: string;
  usage?: Usage;
  model: string;
  finishReason: string | null;
}

/**
 * The port every model-backed part of evalflow talks to: the examiner, the judge and the
 * builtin candidate. Implementations: the OpenAI-compatible client, and an agent CLI in
 * text-only mode. Errors are `LlmError` with `retryable` set for 429, 5xx, timeouts and
 * connection failures.
 */
export interface LlmClient {
  chat(request: ChatRequest): Promise<ChatResponse>;
}
