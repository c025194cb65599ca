import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CandidateError, isEvalflowError, LlmError } from '../errors.js';
import type { ChatMessage, ChatRequest, ChatResponse, LlmClient } from '../llm/port.js';
import type { CandidateSpec, TurnRequest } from './adapter.js';
import { networkFrom, runAgentTurn } from './agentTurn.js';
import { prepareInvocation } from './cliCandidate.js';
import { getCliAdapter } from './registry.js';

/** What text-only use needs of a candidate spec (the examiner/judge endpoint config). */
export type AgentCliLlmSpec = Partial<Pick<CandidateSpec, 'name' | 'model' | 'baseUrl' | 'apiKeyEnv' | 'executable' | 'args' | 'env'>>;

export interface AgentCliLlmDeps {
  hostEnv?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  network?: 'host' | 'loopback';
}

/**
 * An agent CLI as an `LlmClient` for the examiner or judge: every `chat` call runs the CLI once
 * in text-only mode (tools off or plan mode) with the whole conversation rendered as one
 * prompt, in an empty scratch directory with a scratch HOME, and returns its reply text.
 * `tools` in the request are not offered (the reply is text only).
 */
export function createAgentCliLlm(adapterName: string, spec: AgentCliLlmSpec, deps: AgentCliLlmDeps = {}): LlmClient {
  const adapter = getCliAdapter(adapterName);
  const hostEnv = deps.hostEnv ?? process.env;
  const fullSpec: CandidateSpec = { name: spec.name ?? adapter.name, adapter: adapter.name, args: spec.args ?? [], env: spec.env ?? {}, ...spec };
  return {
    async chat(request: ChatRequest): Promise<ChatResponse> {
      const scratch = await mkdtemp(join(tmpdir(), 'evalflow-agent-llm-'));
      const workDir = join(scratch, 'work');
      const homeDir = join(scratch, 'home');
      try {
        await mkdir(workDir, { recursive: true });
        const message = renderPrompt(request.messages);
        const invocation = await prepareInvocation(adapter, fullSpec, hostEnv, {
          message,
          sessionId: adapter.sessionId === 'preassigned' ? randomUUID() : undefined,
          resume: false,
          sandboxDir: workDir,
          homeDir,
          textOnly: true,
        });
        const turn: TurnRequest = {
          runId: 'text-only',
          turn: 1,
          message,
          sandboxDir: workDir,
          runDir: scratch,
          homeDir,
          session: undefined,
          candidate: fullSpec,
          timeoutMs: deps.timeoutMs ?? 600_000,
          signal: request.signal ?? new AbortController().signal,
          onEvent: () => undefined,
        };
        const outcome = await runAgentTurn(turn, invocation, adapter.createNormalizer({ cwd: workDir }), {
          network: deps.network ?? networkFrom(hostEnv),
          ...(fullSpec.baseUrl ? { baseUrl: fullSpec.baseUrl } : {}),
          label: `${adapter.name} as ${request.role}`,
        });
        return { content: outcome.reply, toolCalls: [], ...(outcome.usage ? { usage: outcome.usage } : {}), model: fullSpec.model ?? adapter.name, finishReason: 'stop' };
      } catch (err) {
        if (err instanceof LlmError || (isEvalflowError(err) && !(err instanceof CandidateError))) throw err;
        // A timeout may pass on a retry; a CLI that fails outright will fail again.
        const timedOut = err instanceof CandidateError && err.details.timedOut === true;
        throw new LlmError(err instanceof Error ? err.message : String(err), undefined, timedOut, { cause: err });
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    },
  };
}

/** The conversation as one prompt: the system text first, then each message under its role. */
export function renderPrompt(messages: ChatMessage[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    if (message.role === 'system') parts.push(message.content.trim());
    else if (message.role === 'user') parts.push(`[user]\n${message.content.trim()}`);
    else if (message.role === 'assistant') parts.push(`[assistant]\n${(message.content ?? '').trim()}`);
    else parts.push(`[tool result]\n${message.content.trim()}`);
  }
  return parts.filter(Boolean).join('\n\n');
}
