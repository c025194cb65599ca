import { describe, expect, it } from 'vitest';
import { cutNote } from '../../../src/candidates/normalizers/cutNote.js';
import { describeToolCall, describeToolResult, stripShellWrapper } from '../../../src/candidates/normalizers/toolSummary.js';

describe('tool summaries', () => {
  it('strips the shell wrappers Codex puts around commands', () => {
    expect(stripShellWrapper("/bin/bash -lc 'go build ./...'")).toBe('go build ./...');
    expect(stripShellWrapper(`/bin/bash -lc 'echo '\\''quoted'\\'''`)).toBe("echo 'quoted'");
    expect(stripShellWrapper('bash -c "echo \\"hi\\""')).toBe('echo "hi"');
    expect(stripShellWrapper('/usr/bin/zsh -lc ls')).toBe('ls');
    expect(stripShellWrapper('go test ./...')).toBe('go test ./...');
  });

  it('describes calls of each kind as one line', () => {
    const started = (name: string, input: Record<string, unknown>) => describeToolCall({ id: 'x', name, input }, '/repo').started;
    expect(started('Grep', { pattern: 'TODO', path: '/repo/src' })).toBe('search: TODO in src');
    expect(started('LS', { path: '/repo' })).toBe('list: .');
    expect(started('WebFetch', { url: 'https://example.test' })).toBe('web: https://example.test');
    expect(started('Task', { description: 'review the diff', prompt: 'long…' })).toBe('task: review the diff');
    expect(started('TodoWrite', { todos: [{ content: 'a' }] })).toBe('TodoWrite: {"todos":[{"content":"a"}]}');
    expect(started('read_file', { absolute_path: '/elsewhere/x' })).toBe('read: /elsewhere/x');
  });

  it('says whether a call succeeded, with a short output tail for commands', () => {
    const call = describeToolCall({ id: 's', name: 'Bash', input: { command: 'npm test' } });
    const long = `${'line\n'.repeat(1000)}42 passing`;
    const done = describeToolResult(call, { exitCode: 0, output: long });
    expect(done.content.startsWith('shell: npm test → exit=0 · out: …')).toBe(true);
    expect(done.content.endsWith('42 passing')).toBe(true);
    expect(done.content.length).toBeLessThan(260);
    expect(describeToolResult(call, { isError: true, errorMessage: 'permission denied' }).content).toBe('shell: npm test → error: permission denied');
  });

  it('states the real size of an output or file body that was cut as it was read, never counting its lines', () => {
    const big = (end: string) => `${'a'.repeat(300)}${cutNote(10_000_000, 300, 300)}${'b'.repeat(300 - end.length)}${end}`;
    const shell = describeToolCall({ id: 's', name: 'Bash', input: { command: 'npm test' } });
    const done = describeToolResult(shell, { exitCode: 0, output: big('42 passing') });
    expect(done.content).toBe(`shell: npm test → exit=0 (tool result 10.0 MB) · out: …${'b'.repeat(189)}42 passing`);
    expect(done.tool).toMatchObject({ exit_code: 0, is_error: false });
    const read = describeToolCall({ id: 'r', name: 'Read', input: { file_path: 'big.json' } });
    expect(describeToolResult(read, { output: big('') }).content).toBe('read: big.json (tool result 10.0 MB, not shown)');
    const write = describeToolCall({ id: 'w', name: 'Write', input: { file_path: 'big.txt', content: big('') } });
    expect(describeToolResult(write, {}).content).toBe('write: big.txt (10.0 MB, not shown)');
  });
});
