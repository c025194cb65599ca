import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CandidateSpec, TurnRequest } from '../../src/candidates/adapter.js';
import { createCommandCandidate } from '../../src/candidates/command.js';
import { CandidateError, CandidateSetupError, ConfigError } from '../../src/errors.js';
import type { CandidateEvent } from '../../src/transcript/schema.js';
import { writeTempFiles } from './tempFiles.js';

async function turn(script: string, overrides: Partial<TurnRequest> = {}, spec: Partial<CandidateSpec> = {}) {
  const root = await writeTempFiles({ 'agent.sh': script });
  const sandboxDir = join(root, 'sandbox');
  await mkdir(sandboxDir);
  const events: CandidateEvent[] = [];
  const candidate = createCommandCandidate({ hostEnv: { PATH: process.env.PATH, SECRET_TOKEN: 's3cret' } });
  const result = await candidate.runTurn({
    runId: 'run-x',
    turn: 2,
    message: 'hello agent',
    sandboxDir,
    runDir: root,
    homeDir: join(root, 'home'),
    session: undefined,
    candidate: { name: 'script', adapter: 'command', args: [join(root, 'agent.sh')], env: {}, ...spec },
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ...overrides,
  });
  return { result, events };
}

describe('the command candidate', () => {
  it('sends the message on stdin and takes plain stdout as the reply', async () => {
    const { result, events } = await turn('#!/bin/sh\nread line\necho "you said: $line (turn $EVALFLOW_TURN, secret ${SECRET_TOKEN:-unset})"\n');
    expect(result.reply).toBe('you said: hello agent (turn 2, secret unset)');
    expect(events).toEqual([{ role: 'candidate', content: 'you said: hello agent (turn 2, secret unset)' }]);
  });

  it('parses Claude-style stream-json on stdout', async () => {
    const lines = [
      { type: 'system', subtype: 'init', session_id: 'script-session' },
      { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'w1', name: 'Write', input: { file_path: 'a.txt', content: 'x\n' } }] } },
      { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'w1', content: 'ok' }] } },
      { type: 'result', subtype: 'success', result: 'wrote it', usage: { input_tokens: 3, output_tokens: 1 } },
    ];
    const script = `#!/bin/sh\ncat > /dev/null\ncat <<'EOF'\n${lines.map((l) => JSON.stringify(l)).join('\n')}\nEOF\n`;
    const { result, events } = await turn(script);
    expect(result).toEqual({ reply: 'wrote it', session: { id: 'script-session' }, usage: { input_tokens: 3, output_tokens: 1 } });
    expect(events.map((e) => e.content)).toEqual(['write: a.txt', 'write: a.txt (+1 lines)', 'wrote it']);
  });

  it('fails the turn on a non-zero exit, keeping the stdout tail as evidence beside the stderr tail', async () => {
    const error = await turn('#!/bin/sh\necho partial answer\necho "oops: broken" >&2\nexit 1\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateError);
    expect((error as CandidateError).message).toBe('script (command) turn 2 failed: the process exited with code 1');
    expect((error as CandidateError).details).toEqual({
      exitCode: 1,
      stderrTail: 'oops: broken\n',
      stdoutTail: 'partial answer\n',
      notes: ['exited with code 1; stdout ended: partial answer'],
    });
  });

  it('keeps the first and last 16,000 characters of a 60 MB plain stdout, in the reply and its note', { timeout: 30_000 }, async () => {
    // 600,000 lines of 100 bytes: line i is i padded with dots to 99 characters, then a newline.
    const script = `#!/usr/bin/env node
const line = (i) => String(i).padStart(99, '.') + '\\n';
let i = 0;
(function write() {
  while (i < 600000) if (!process.stdout.write(Array.from({ length: 1000 }, () => line(i++)).join(''))) return process.stdout.once('drain', write);
})();
`;
    const { result, events } = await turn(script);
    const line = (i: number) => String(i).padStart(99, '.');
    const head = Array.from({ length: 160 }, (_, i) => `${line(i)}\n`).join('');
    const tail = Array.from({ length: 160 }, (_, i) => line(599_840 + i)).join('\n');
    const reply = `${head}[… 60.0 MB cut: kept the first 16,000 and last 16,000 characters]\n${tail}`;
    expect(result.reply).toBe(reply);
    expect(events).toEqual([{ role: 'candidate', content: reply }]);
    expect(result.notes).toEqual(['the reply was cut: 60.0 MB of it is not in the transcript']);
  });

  it('is refused as ours, not failed as the candidate, when its executable does not exist', async () => {
    const error = await turn('', {}, { args: ['/nonexistent/agent.sh'] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateSetupError);
    expect(error).not.toBeInstanceOf(CandidateError);
    expect((error as Error).message).toBe('script (command) turn 2: cannot start on this host: /nonexistent/agent.sh does not exist; args[0] (or executable) must name an executable file');
  });

  it('is refused as ours when its script names an interpreter that does not exist', async () => {
    const error = await turn('#!/nonexistent/bash\necho hi\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateSetupError);
    expect((error as Error).message).toMatch(/^script \(command\) turn 2: could not start \/.*\/agent\.sh: .*agent\.sh: not found \(the file exists: is the interpreter on its #! line installed\?\); args\[0\]/);
  });

  it('needs a command to run', async () => {
    await expect(turn('', {}, { args: [] })).rejects.toThrow(ConfigError);
  });
});
