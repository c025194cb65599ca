import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TurnRequest } from '../../src/candidates/adapter.js';
import { createBuiltinCandidate } from '../../src/candidates/builtin.js';
import { CandidateError } from '../../src/errors.js';
import type { ChatRequest, ChatResponse, LlmClient } from '../../src/llm/port.js';
import type { CandidateEvent } from '../../src/transcript/schema.js';
import { writeTempFiles } from './tempFiles.js';

/** A scripted model: returns the queued responses in order and records every request. */
function scriptedLlm(responses: Partial<ChatResponse>[]): LlmClient & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    requests,
    chat(request) {
      requests.push(structuredClone({ ...request, signal: undefined }));
      const next = responses.shift();
      if (!next) throw new Error('the script ran out of responses');
      return Promise.resolve({ content: null, toolCalls: [], model: 'fake', finishReason: 'stop', ...next });
    },
  };
}

const call = (id: string, name: string, args: object) => ({ id, name, arguments: JSON.stringify(args) });

async function sandbox() {
  const root = await writeTempFiles({ 'outside/secret.txt': 'top secret\n', 'sandbox/README.md': '# project\n', 'sandbox/AGENTS.md': 'Always write tests.\n' });
  await symlink(join(root, 'outside'), join(root, 'sandbox/link'));
  const events: CandidateEvent[] = [];
  const request = (overrides: Partial<TurnRequest> = {}): TurnRequest => ({
    runId: 'run-b',
    turn: 1,
    message: 'create src/a.js',
    sandboxDir: join(root, 'sandbox'),
    runDir: join(root, 'run'),
    homeDir: join(root, 'home'),
    session: undefined,
    candidate: { name: 'builtin', adapter: 'builtin', model: 'fake', args: [], env: {} },
    timeoutMs: 30_000,
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ...overrides,
  });
  return { root, events, request };
}

describe('the builtin candidate', () => {
  it('writes files and runs commands in the sandbox, and refuses every way out of it', async () => {
    const { root, events, request } = await sandbox();
    const body = Array.from({ length: 12 }, (_, i) => `console.log(${i});`).join('\n');
    const llm = scriptedLlm([
      { content: 'Writing the file.', toolCalls: [call('c1', 'write_file', { path: 'src/a.js', content: body })], usage: { input_tokens: 10, output_tokens: 5 } },
      { reasoning: 'Check it.', toolCalls: [call('c2', 'run_shell', { command: 'wc -l < src/a.js; exit 0' })], usage: { input_tokens: 20, output_tokens: 5 } },
      {
        toolCalls: [
          call('e1', 'read_file', { path: join(root, 'outside/secret.txt') }),
          call('e2', 'read_file', { path: '../outside/secret.txt' }),
          call('e3', 'read_file', { path: 'link/secret.txt' }),
          call('e4', 'write_file', { path: 'link/planted.txt', content: 'x' }),
          call('e5', 'list_files', {}),
        ],
        usage: { input_tokens: 30, output_tokens: 5 },
      },
      { content: 'Created src/a.js.', usage: { input_tokens: 40, output_tokens: 5 } },
    ]);
    const result = await createBuiltinCandidate({ llm }).runTurn(request());

    expect(result.reply).toBe('Created src/a.js.');
    expect(result.usage).toEqual({ input_tokens: 100, output_tokens: 20 });
    expect(await readFile(join(root, 'sandbox/src/a.js'), 'utf8')).toBe(body);
    expect(existsSync(join(root, 'outside/planted.txt'))).toBe(false);
    const completed = events.filter((e) => e.role === 'candidate.tool_call.completed').map((e) => e.content);
    expect(completed[0]).toBe('write: src/a.js (+12 lines)');
    expect(completed[1]).toBe('shell: wc -l < src/a.js; exit 0 → exit=0 · out: 11');
    expect(completed.slice(2, 6).every((c) => c.includes('→ error:'))).toBe(true);
    expect(completed[2]).toContain('is outside the sandbox');
    expect(completed[4]).toContain('through a symbolic link');
    expect(events[0]).toEqual({ role: 'candidate.assistant_partial', content: 'Writing the file.' });
    expect(events.some((e) => e.role === 'candidate.thinking' && e.content === 'Check it.')).toBe(true);
    const toolMessages = llm.requests[3]?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(toolMessages.slice(2).map((m) => m.content.startsWith('error:'))).toEqual([true, true, true, true, false]);
    expect(toolMessages.some((m) => m.content.includes('top secret'))).toBe(false);
    expect(llm.requests[0]?.messages[0]?.content).toContain('Always write tests.');
  });

  it('keeps the conversation in the run directory, so a new process continues it and a retried turn replaces itself', async () => {
    const { request } = await sandbox();
    const first = await createBuiltinCandidate({ llm: scriptedLlm([{ content: 'Hi.' }]) }).runTurn(request({ message: 'hello' }));
    expect(first.session.conversationPath).toBe(join(request().runDir, '.candidate/builtin-session.json'));

    const restarted = scriptedLlm([{ content: 'Second.' }, { content: 'Second, again.' }]);
    const candidate = createBuiltinCandidate({ llm: restarted });
    await candidate.runTurn(request({ turn: 2, message: 'and now?', session: first.session }));
    await candidate.runTurn(request({ turn: 2, message: 'and now?', session: first.session }));
    const roles = (i: number) => restarted.requests[i]?.messages.map((m) => `${m.role}:${m.content ?? ''}`.slice(0, 20));
    expect(roles(0)).toEqual(['system:You are a cod', 'user:hello', 'assistant:Hi.', 'user:and now?']);
    expect(roles(1)).toEqual(roles(0));
    const saved = JSON.parse(await readFile(first.session.conversationPath as string, 'utf8')) as { messages: unknown[]; turn_starts: Record<string, number> };
    expect(saved.messages).toHaveLength(5);
    expect(saved.turn_starts).toEqual({ '1': 1, '2': 3 });
  });

  it('fails clearly when the model never stops calling tools', async () => {
    const { request, events } = await sandbox();
    const loop = Array.from({ length: 3 }, (_, i) => ({ toolCalls: [call(`l${i}`, 'list_files', {})] }));
    const error = await createBuiltinCandidate({ llm: scriptedLlm(loop), maxSteps: 3 }).runTurn(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateError);
    expect((error as CandidateError).message).toBe('builtin (builtin) turn 1: no final answer after 3 model calls (the per-turn step limit); the model kept calling tools');
    expect(events.filter((e) => e.role === 'candidate.tool_call.completed')).toHaveLength(3);
  });

  it('waits out a failing model endpoint for its outage window, then fails the turn as ours with the last error', async () => {
    const { LlmError } = await import('../../src/errors.js');
    const { request } = await sandbox();
    let calls = 0;
    const failing: LlmClient = {
      chat: () => {
        calls += 1;
        return Promise.reject(new LlmError('429 rate limited', 429, true));
      },
    };
    const error = await createBuiltinCandidate({ llm: failing, modelOutageMs: 2_500 }).runTurn(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateError);
    expect((error as CandidateError).cause).toBeInstanceOf(LlmError);
    expect((error as CandidateError).retryable).toBe(false);
    expect((error as CandidateError).message).toMatch(/the model call failed: 429 rate limited \(still failing after \d s of retries; the outage window is 3 s\)/);
    // 1 s, then the 1.5 s left of the window: three calls in all.
    expect(calls).toBe(3);
  });

  it('passes a model error that retrying cannot fix (a 400) through at once', async () => {
    const { LlmError } = await import('../../src/errors.js');
    const { request } = await sandbox();
    const failing: LlmClient = { chat: () => Promise.reject(new LlmError('400 bad request', 400, false)) };
    const error = await createBuiltinCandidate({ llm: failing }).runTurn(request()).catch((e: unknown) => e);
    expect((error as CandidateError).retryable).toBe(false);
    expect((error as CandidateError).message).toContain('the model call failed: 400 bad request');
  });

  it('does not confuse a sibling directory with the sandbox', async () => {
    const { root, request, events } = await sandbox();
    await mkdir(join(root, 'sandbox-evil'));
    await writeFile(join(root, 'sandbox-evil/x.txt'), 'nope');
    const llm = scriptedLlm([{ toolCalls: [call('s', 'read_file', { path: join(root, 'sandbox-evil/x.txt') })] }, { content: 'ok' }]);
    await createBuiltinCandidate({ llm }).runTurn(request());
    expect(events.find((e) => e.role === 'candidate.tool_call.completed')?.content).toContain('is outside the sandbox');
  });
});
