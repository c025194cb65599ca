import type { ChatRequest, ChatResponse, LlmClient } from '../../../src/llm/port.js';

/** An LlmClient that answers with scripted replies (or errors) and records every request. */
export function fakeLlm(replies: Array<string | Error>): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    async chat(request: ChatRequest): Promise<ChatResponse> {
      requests.push(request);
      const reply = replies.shift();
      if (reply === undefined) throw new Error('fakeLlm: no scripted reply left');
      if (reply instanceof Error) throw reply;
      return { content: reply, toolCalls: [], model: 'fake-model', finishReason: 'stop' };
    },
  };
}
