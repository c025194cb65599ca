import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAgentCliLlm } from '../../src/candidates/agentCliLlm.js';
import { ConfigError, LlmError } from '../../src/errors.js';
import { writeTempFiles } from './tempFiles.js';

/** A stand-in Claude Code: records its arguments, answers with a result line built from the prompt's length. */
const FAKE_CLAUDE = `#!/bin/sh
printf '%s\\n' "$@" > "$RECORD"
[ -n "$FAIL" ] && { echo "model unavailable" >&2; exit 1; }
printf '{"type":"system","subtype":"init","session_id":"s"}\\n'
printf '{"type":"result","subtype":"success","is_error":false,"result":"<<END>>","usage":{"input_tokens":50,"output_tokens":3}}\\n'
`;

describe('createAgentCliLlm', () => {
  it('runs the CLI once with tools off and the conversation as one prompt', async () => {
    const root = await writeTempFiles({ 'bin/claude': FAKE_CLAUDE });
    const record = join(root, 'args.txt');
    const llm = createAgentCliLlm('claude-code', { executable: join(root, 'bin/claude'), model: 'judge-model', env: { RECORD: record } }, { hostEnv: { PATH: process.env.PATH } });
    const response = await llm.chat({
      role: 'examiner',
      messages: [
        { role: 'system', content: 'You simulate the user.' },
        { role: 'user', content: 'The agent said: done.' },
      ],
    });
    expect(response).toEqual({ content: '<<END>>', toolCalls: [], usage: { input_tokens: 50, output_tokens: 3 }, model: 'judge-model', finishReason: 'stop' });
    const args = (await readFile(record, 'utf8')).split('\n');
    expect(args[0]).toBe('-p');
    expect(args.slice(1, 5)).toEqual(['You simulate the user.', '', '[user]', 'The agent said: done.']);
    expect(args).toEqual(expect.arrayContaining(['--tools', '', '--max-turns', '1', '--no-session-persistence', '--model', 'judge-model']));
    expect(args).not.toContain('--allowedTools');
  });

  it('reports a failing CLI as a non-retryable LlmError, and a non-CLI adapter as a ConfigError', async () => {
    const root = await writeTempFiles({ 'bin/claude': FAKE_CLAUDE });
    const llm = createAgentCliLlm('claude-code', { executable: join(root, 'bin/claude'), env: { RECORD: join(root, 'a'), FAIL: '1' } }, { hostEnv: { PATH: process.env.PATH } });
    const error = await llm.chat({ role: 'judge', messages: [{ role: 'user', content: 'score it' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).retryable).toBe(false);
    expect((error as LlmError).message).toContain('the stream ended without its terminal `result` event; the process exited with code 1');
    expect(() => createAgentCliLlm('builtin', {})).toThrow(ConfigError);
  });
});
