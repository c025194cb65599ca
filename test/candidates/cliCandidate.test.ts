import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CandidateSpec, TurnRequest } from '../../src/candidates/adapter.js';
import { claudeCode } from '../../src/candidates/claudeCode.js';
import { createCliCandidate } from '../../src/candidates/cliCandidate.js';
import { codex } from '../../src/candidates/codex.js';
import { cursorAgent } from '../../src/candidates/cursorAgent.js';
import { gemini } from '../../src/candidates/gemini.js';
import { stableSessionId } from '../../src/candidates/sessionFiles.js';
import { CandidateError, ConfigError } from '../../src/errors.js';
import type { CandidateEvent } from '../../src/transcript/schema.js';
import { writeTempFiles } from './tempFiles.js';

/** A stand-in agent CLI: records its arguments and environment in HOME, prints a canned stream. */
const FAKE_AGENT = `#!/bin/sh
printf '%s\\n' "$@" > "$HOME/args.txt"
env > "$HOME/env.txt"
cat "$FAKE_STREAM"
echo "fake stderr line" >&2
[ -n "$FAKE_SLEEP" ] && sleep "$FAKE_SLEEP"
exit \${FAKE_EXIT:-0}
`;

const claudeStream = (sessionId: string, turn: number) =>
  [
    { type: 'system', subtype: 'init', session_id: sessionId },
    { type: 'assistant', message: { content: [{ type: 'tool_use', id: `t${turn}`, name: 'Bash', input: { command: 'go build' } }] } },
    { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: `t${turn}`, content: '', is_error: false }] } },
    { type: 'result', subtype: 'success', is_error: false, result: `done ${turn}`, session_id: sessionId, usage: { input_tokens: 10, output_tokens: 2 }, total_cost_usd: 0.01 * turn },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');

async function setup(stream: string) {
  const root = await writeTempFiles({ 'bin/fake-agent': FAKE_AGENT, 'stream.jsonl': stream });
  const sandboxDir = join(root, 'sandbox');
  await mkdir(sandboxDir);
  const hostEnv = { PATH: process.env.PATH, MY_KEY: 'sk-test-secret', SECRET_TOKEN: 's3cret', STREAM_FILE: join(root, 'stream.jsonl') };
  const spec: CandidateSpec = {
    name: 'fake',
    adapter: 'claude-code',
    executable: join(root, 'bin/fake-agent'),
    model: 'm1',
    args: ['--max-turns', '5'],
    env: { FAKE_STREAM: '${STREAM_FILE}' },
    baseUrl: 'http://127.0.0.1:9',
    apiKeyEnv: 'MY_KEY',
  };
  const events: CandidateEvent[] = [];
  const request = (overrides: Partial<TurnRequest> = {}): TurnRequest => ({
    runId: 'run-case-fake@20260101T000000',
    turn: 1,
    message: 'Build the project',
    sandboxDir,
    runDir: root,
    homeDir: join(root, 'home'),
    session: undefined,
    candidate: spec,
    timeoutMs: 10_000,
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
    ...overrides,
  });
  const read = (name: string) => readFile(join(root, 'home', name), 'utf8');
  return { root, sandboxDir, hostEnv, spec, events, request, read };
}

describe('createCliCandidate', () => {
  it('runs turn 1 with a stable session id and turn 2 as a resume, in a scrubbed environment', async () => {
    const sessionId = stableSessionId('run-case-fake@20260101T000000');
    const t = await setup(claudeStream(sessionId, 1));
    const candidate = createCliCandidate(claudeCode, { hostEnv: t.hostEnv });
    const first = await candidate.runTurn(t.request());
    const args1 = (await t.read('args.txt')).split('\n');
    expect(args1.slice(0, 2)).toEqual(['-p', 'Build the project']);
    expect(args1).toEqual(expect.arrayContaining(['--session-id', sessionId, '--model', 'm1', '--permission-mode', 'acceptEdits', 'Bash,Write,Edit,Read,Skill,Task', '--max-turns', '5']));
    const env = (await t.read('env.txt')).split('\n');
    expect(env).toEqual(
      expect.arrayContaining([
        'ANTHROPIC_API_KEY=sk-test-secret',
        'ANTHROPIC_BASE_URL=http://127.0.0.1:9',
        'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
        'DISABLE_TELEMETRY=1',
        `HOME=${join(t.root, 'home')}`,
        `FAKE_STREAM=${join(t.root, 'stream.jsonl')}`,
      ]),
    );
    expect(env.some((line) => line.startsWith('SECRET_TOKEN=') || line.startsWith('MY_KEY='))).toBe(false);
    expect(first).toEqual({ reply: 'done 1', session: { id: sessionId, cumulativeUsage: { input_tokens: 10, output_tokens: 2, cost_usd: 0.01 } }, usage: { input_tokens: 10, output_tokens: 2, cost_usd: 0.01 } });
    expect(t.events.map((e) => e.content)).toEqual(['shell: go build', 'shell: go build → exit=0', 'done 1']);

    await writeFile(join(t.root, 'stream.jsonl'), claudeStream(sessionId, 2));
    const second = await candidate.runTurn(t.request({ turn: 2, message: 'Now test it', session: first.session }));
    const args2 = (await t.read('args.txt')).split('\n');
    expect(args2).toEqual(expect.arrayContaining(['--resume', sessionId]));
    expect(args2).not.toContain('--session-id');
    expect(second.usage).toEqual({ input_tokens: 10, output_tokens: 2, cost_usd: 0.01 });

    expect(JSON.stringify(t.events)).not.toContain('sk-test-secret');
    expect(args1.join(' ') + args2.join(' ')).not.toContain('sk-test-secret');
    expect(await readdir(t.sandboxDir)).toEqual([]);
  });

  it('fails a non-zero exit with CandidateError carrying the exit code, the stderr and stdout tails and a note', async () => {
    const t = await setup(claudeStream('s', 1));
    t.spec.env.FAKE_EXIT = '3';
    const error = await createCliCandidate(claudeCode, { hostEnv: t.hostEnv }).runTurn(t.request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateError);
    expect((error as CandidateError).message).toBe('fake (claude-code) turn 1 failed: the process exited with code 3');
    const stream = claudeStream('s', 1);
    expect((error as CandidateError).details).toEqual({
      exitCode: 3,
      stderrTail: 'fake stderr line\n',
      stdoutTail: stream,
      notes: [`exited with code 3; stdout ended: …${stream.replace(/\n/g, ' ⏎ ').slice(-199)}`],
    });
  });

  it('times out a hanging agent and says so', async () => {
    const t = await setup(claudeStream('s', 1));
    t.spec.env.FAKE_SLEEP = '30';
    const error = await createCliCandidate(claudeCode, { hostEnv: t.hostEnv, killGraceMs: 200 }).runTurn(t.request({ timeoutMs: 500 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandidateError);
    expect((error as CandidateError).details.timedOut).toBe(true);
    expect((error as CandidateError).message).toContain('timed out after 1 s');
  });

  it('removes what a failed first attempt left under the session id before retrying turn 1', async () => {
    const sessionId = stableSessionId('run-case-fake@20260101T000000');
    const t = await setup(claudeStream(sessionId, 1));
    const leftover = join(t.root, 'home/.claude/projects/-sandbox');
    await mkdir(leftover, { recursive: true });
    await writeFile(join(leftover, `${sessionId}.jsonl`), '{}\n');
    await writeFile(join(leftover, 'other-session.jsonl'), '{}\n');
    await createCliCandidate(claudeCode, { hostEnv: t.hostEnv }).runTurn(t.request());
    expect(await readdir(leftover)).toEqual(['other-session.jsonl']);
  });

  it('writes the telemetry-off settings gemini needs into the private HOME', async () => {
    const t = await setup('');
    await createCliCandidate(gemini, { hostEnv: t.hostEnv })
      .runTurn(t.request({ candidate: { ...t.spec, adapter: 'gemini' } }))
      .catch(() => undefined);
    const settings = JSON.parse(await t.read('.gemini/settings.json')) as Record<string, Record<string, unknown>>;
    expect(settings.privacy).toEqual({ usageStatisticsEnabled: false });
    expect(settings.general).toEqual({ enableAutoUpdate: false, enableAutoUpdateNotification: false });
    expect((await t.read('env.txt')).split('\n')).toEqual(expect.arrayContaining(['GEMINI_API_KEY=sk-test-secret', 'GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:9']));
  });

  it('runs codex with analytics off, a custom provider, and resume by thread id', async () => {
    const stream = [{ type: 'thread.started', thread_id: 'th-9' }, { type: 'item.completed', item: { id: 'i', type: 'agent_message', text: 'ok' } }, { type: 'turn.completed', usage: { input_tokens: 5, output_tokens: 1 } }]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const t = await setup(stream);
    const candidate = createCliCandidate(codex, { hostEnv: t.hostEnv });
    const first = await candidate.runTurn(t.request({ candidate: { ...t.spec, adapter: 'codex' } }));
    const args1 = (await t.read('args.txt')).trim().split('\n');
    expect(args1.slice(0, 2)).toEqual(['exec', '--json']);
    expect(args1).toEqual(
      expect.arrayContaining(['analytics.enabled=false', 'features.plugins=false', 'model_provider="evalflow"', 'model_providers.evalflow.base_url="http://127.0.0.1:9"', 'model_providers.evalflow.wire_api="responses"']),
    );
    expect(args1.at(-1)).toBe('Build the project');
    expect(first.session.id).toBe('th-9');
    await candidate.runTurn(t.request({ turn: 2, message: 'again', session: first.session, candidate: { ...t.spec, adapter: 'codex' } }));
    const args2 = (await t.read('args.txt')).trim().split('\n');
    expect(args2.slice(0, 3)).toEqual(['exec', 'resume', '--json']);
    expect(args2.slice(-2)).toEqual(['th-9', 'again']);
  });

  it('refuses a base URL for cursor-agent and an unset api_key_env, as configuration errors', async () => {
    const t = await setup('');
    await expect(createCliCandidate(cursorAgent, { hostEnv: t.hostEnv }).runTurn(t.request())).rejects.toThrow(ConfigError);
    const noKey = createCliCandidate(claudeCode, { hostEnv: { PATH: process.env.PATH } });
    await expect(noKey.runTurn(t.request())).rejects.toThrow('candidate "fake": api_key_env names MY_KEY, but MY_KEY is not set in the environment');
  });
});

describe('createCliCandidate with a real stream of any line length', () => {
  it('reads a 10 MB tool result line: the tool keeps its real status and its summary states the size', { timeout: 30_000 }, async () => {
    // A stand-in Claude Code: a Bash call whose result (10 MB, twice in the line as Claude Code sends it) succeeds.
    const fakeClaude = `#!/usr/bin/env node
const out = 'built module '.repeat(769_230) + 'ok: 42 passing\\n';
const lines = [
  { type: 'system', subtype: 'init', session_id: 'big-1' },
  { type: 'assistant', message: { content: [{ type: 'tool_use', id: 'toolu_big', name: 'Bash', input: { command: 'make all' } }] } },
  { type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_big', content: out, is_error: false }] }, tool_use_result: { stdout: out, stderr: '', interrupted: false } },
  { type: 'result', subtype: 'success', is_error: false, result: 'Built.', session_id: 'big-1', usage: { input_tokens: 10, output_tokens: 2 } },
];
process.stdout.write(lines.map((line) => JSON.stringify(line)).join('\\n') + '\\n');
`;
    const root = await writeTempFiles({ 'bin/claude': fakeClaude });
    const sandboxDir = join(root, 'sandbox');
    await mkdir(sandboxDir);
    const events: CandidateEvent[] = [];
    const result = await createCliCandidate(claudeCode, { hostEnv: { PATH: process.env.PATH } }).runTurn({
      runId: 'run-big@20260101T000000',
      turn: 1,
      message: 'Build it',
      sandboxDir,
      runDir: root,
      homeDir: join(root, 'home'),
      session: undefined,
      candidate: { name: 'big', adapter: 'claude-code', executable: join(root, 'bin/claude'), args: [], env: {} },
      timeoutMs: 20_000,
      signal: new AbortController().signal,
      onEvent: (e) => events.push(e),
    });
    const completed = events.find((e) => e.role === 'candidate.tool_call.completed');
    expect(completed?.tool).toEqual({ id: 'toolu_big', name: 'Bash', kind: 'shell', target: 'make all', exit_code: 0, is_error: false });
    expect(completed?.content).toMatch(/^shell: make all → exit=0 \(tool result 10\.0 MB\) · out: …[a-z ]+ built module ok: 42 passing$/);
    expect(result.reply).toBe('Built.');
    expect(result.notes).toEqual(['stdout line 3 (20.0 MB) was read with 2 long strings cut to their first and last 16,000 characters']);
    for (const event of events) expect(event.content.length).toBeLessThan(400);
  });
});
