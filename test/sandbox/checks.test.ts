import { describe, expect, it } from 'vitest';
import { runCheck, runCommands, type CheckCommand } from '../../src/sandbox/checks.js';
import { tempDir } from './sandboxFixture.js';

const aCheck = (check: string, severity: CheckCommand['severity'] = 'hard'): CheckCommand => ({ description: `check ${check}`, check, severity });

describe('runCheck', () => {
  it('passes on exit 0 and keeps the description, command, severity and output', async () => {
    const cwd = await tempDir();
    const result = await runCheck(aCheck('echo ok; echo err >&2', 'soft'), { cwd, env: {} });
    expect(result).toMatchObject({ description: 'check echo ok; echo err >&2', check: 'echo ok; echo err >&2', severity: 'soft', passed: true, exit_code: 0 });
    expect(result.output.split('\n').sort()).toEqual(['err', 'ok']);
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('fails with the exit code of the command', async () => {
    const result = await runCheck(aCheck('echo nope; exit 3'), { cwd: await tempDir(), env: {} });
    expect(result).toMatchObject({ passed: false, exit_code: 3, output: 'nope' });
  });

  it('runs in the sandbox with the given variables exported', async () => {
    const cwd = await tempDir();
    const result = await runCheck(aCheck('echo "$PWD|$SANDBOX_DIR|$RUN_DIR"'), { cwd, env: { SANDBOX_DIR: cwd, RUN_DIR: '/runs/r1' } });
    expect(result.output).toBe(`${cwd}|${cwd}|/runs/r1`);
  });

  it('times out with no exit code and says so in the output', async () => {
    const started = Date.now();
    const result = await runCheck(aCheck('echo started; sleep 20'), { cwd: await tempDir(), env: {}, timeoutMs: 300 });
    expect(result.passed).toBe(false);
    expect(result.exit_code).toBeNull();
    expect(result.output).toBe('timed out after 300 ms\nstarted');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops at the timeout even when the command left children holding its output', async () => {
    const started = Date.now();
    const result = await runCheck(aCheck('sleep 20 & sleep 20; echo never'), { cwd: await tempDir(), env: {}, timeoutMs: 300 });
    expect(result.exit_code).toBeNull();
    expect(result.output).toContain('timed out after 300 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps only the tail of long output', async () => {
    const result = await runCheck(aCheck("head -c 10000 /dev/zero | tr '\\0' a; echo; echo END"), { cwd: await tempDir(), env: {} });
    expect(result.passed).toBe(true);
    expect(result.output).toHaveLength(4_001);
    expect(result.output.startsWith('…a')).toBe(true);
    expect(result.output.endsWith('a\nEND')).toBe(true);
  });
});

describe('runCommands', () => {
  it('runs commands in order in the same folder', async () => {
    const cwd = await tempDir();
    const done = await runCommands(['echo one > f', 'echo two >> f', 'cat f'], { cwd, env: {} });
    expect(done).toEqual([
      { command: 'echo one > f', exitCode: 0, output: '' },
      { command: 'echo two >> f', exitCode: 0, output: '' },
      { command: 'cat f', exitCode: 0, output: 'one\ntwo' },
    ]);
  });

  it('stops at the first failure', async () => {
    const cwd = await tempDir();
    const done = await runCommands(['true', 'echo broken; exit 7', 'touch should-not-exist'], { cwd, env: { X: '1' } });
    expect(done).toEqual([
      { command: 'true', exitCode: 0, output: '' },
      { command: 'echo broken; exit 7', exitCode: 7, output: 'broken' },
    ]);
    expect((await runCheck(aCheck('test -e should-not-exist'), { cwd, env: {} })).passed).toBe(false);
  });

  it('stops at a command that times out, with no exit code', async () => {
    const done = await runCommands(['sleep 20', 'true'], { cwd: await tempDir(), env: {}, timeoutMs: 300 });
    expect(done).toEqual([{ command: 'sleep 20', exitCode: null, output: '' }]);
  });

  it('sees the given environment', async () => {
    const done = await runCommands(['echo $CASE_DIR'], { cwd: await tempDir(), env: { CASE_DIR: '/cases/a' } });
    expect(done[0]?.output).toBe('/cases/a');
  });
});
