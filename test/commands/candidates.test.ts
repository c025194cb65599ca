import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/candidates.js';
import { memoryIo } from '../../src/cli/io.js';
import { ConfigError } from '../../src/errors.js';
import { TranscriptEventSchema } from '../../src/transcript/schema.js';
import { writeTempFiles } from '../candidates/tempFiles.js';

const NOW = () => new Date('2000-01-01T00:00:00.000Z');

describe('evalflow candidates', () => {
  it('lists every adapter with whether its CLI is installed and its version', async () => {
    const root = await writeTempFiles({ 'bin/claude': '#!/bin/sh\necho "2.1.332 (Claude Code)"\n', 'bin/qwen': '#!/bin/sh\nexit 1\n' });
    const io = memoryIo(root, { PATH: join(root, 'bin') });
    expect(await run({}, io)).toBe(0);
    expect(io.stdout[0]).toMatch(/^adapter\s+agent\s+installed\s+version$/);
    expect(io.stdout).toHaveLength(10);
    const row = (name: string) => io.stdout.find((line) => line.startsWith(`${name} `)) ?? '';
    expect(row('claude-code')).toMatch(new RegExp(`^claude-code\\s+Claude Code \\[claude\\]\\s+yes \\(${join(root, 'bin/claude')}\\)\\s+2\\.1\\.332 \\(Claude Code\\)$`));
    expect(row('qwen-code')).toMatch(/yes .*\s+unknown$/);
    expect(row('codex')).toMatch(/no \(npm install -g @openai\/codex\)\s+-$/);
    expect(row('builtin')).toMatch(/^builtin\s+evalflow's own small tool-calling agent .*\s+-\s+-$/);
  });

  it('also finds a CLI in the agents cache that scripts/agent-clis.sh fills', async () => {
    const root = await writeTempFiles({ 'cache/agents/gemini/node_modules/.bin/gemini': '#!/bin/sh\necho 0.61.0\n' });
    await chmod(join(root, 'cache/agents/gemini/node_modules/.bin/gemini'), 0o755);
    const io = memoryIo(root, { PATH: join(root, 'bin'), EVALFLOW_CACHE_DIR: join(root, 'cache') });
    expect(await run({}, io)).toBe(0);
    const row = (name: string) => io.stdout.find((line) => line.startsWith(`${name} `)) ?? '';
    expect(row('gemini')).toMatch(new RegExp(`yes \\(${join(root, 'cache/agents/gemini/node_modules/.bin/gemini')}\\)\\s+0\\.61\\.0$`));
    expect(row('qwen-code')).toMatch(/no \(npm install -g @qwen-code\/qwen-code\)/);
  });

  it('normalises consecutive stream files as turns of one session', async () => {
    const lines = (turn: number, input: number) =>
      [
        { type: 'thread.started', thread_id: 'th-1' },
        { type: 'item.completed', item: { id: 'm', type: 'agent_message', text: `answer ${turn}` } },
        { type: 'turn.completed', usage: { input_tokens: input, output_tokens: 10 * turn } },
      ]
        .map((l) => JSON.stringify(l))
        .join('\n');
    const root = await writeTempFiles({ 't1.jsonl': lines(1, 100), 't2.jsonl': `${lines(2, 250)}\nnot json\n` });
    const io = memoryIo(root);
    expect(await run({ normalize: { adapter: 'codex', files: ['t1.jsonl', 't2.jsonl'] } }, io, { now: NOW })).toBe(0);
    const events = io.stdout.map((line) => TranscriptEventSchema.parse(JSON.parse(line)));
    expect(events).toEqual([
      { run_id: 'normalize', turn: 1, seq: 0, attempt: 1, ts: '2000-01-01T00:00:00.000Z', role: 'candidate', content: 'answer 1', usage: { input_tokens: 100, output_tokens: 10 } },
      { run_id: 'normalize', turn: 2, seq: 0, attempt: 1, ts: '2000-01-01T00:00:00.000Z', role: 'candidate', content: 'answer 2', usage: { input_tokens: 150, output_tokens: 10 } },
    ]);
    expect(io.stderr[1]).toBe('turn 2 (t2.jsonl): session th-1, 1 events, 1 ignored lines, usage {"input_tokens":150,"output_tokens":10}');
  });

  it('shows a failed turn as a system event and exits 1', async () => {
    const root = await writeTempFiles({ 'cut.jsonl': '{"type":"system","subtype":"init","session_id":"s"}\n{"type":"assistant","message":{"content":[{"type":"text","text":"half"}]}}\n' });
    const io = memoryIo(root);
    expect(await run({ normalize: { adapter: 'claude-code', files: ['cut.jsonl'] } }, io, { now: NOW })).toBe(1);
    expect(io.stdout.map((l) => (JSON.parse(l) as { role: string; content: string }).content)).toEqual(['half', 'turn 1 failed: the stream ended without its terminal `result` event']);
  });

  it('rejects an unknown adapter, the builtin agent and a missing file as configuration errors', async () => {
    const io = memoryIo('/');
    await expect(run({ normalize: { adapter: 'nope', files: ['x'] } }, io)).rejects.toThrow(ConfigError);
    await expect(run({ normalize: { adapter: 'builtin', files: ['x'] } }, io)).rejects.toThrow('adapter "builtin" has no output stream to normalise');
    await expect(run({ normalize: { adapter: 'gemini', files: ['/no/such/file.jsonl'] } }, io)).rejects.toThrow('cannot read stream file /no/such/file.jsonl: ENOENT');
  });
});
