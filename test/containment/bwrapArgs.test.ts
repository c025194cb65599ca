import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { STATUS_FD, stdioWithStatus } from '../../src/containment/bwrapArgs.js';

/** Runs `script` in sh with `stdio`; what it wrote on `fd`, and its exit code. */
function run(script: string, stdio: ReturnType<typeof stdioWithStatus>, fd: number): Promise<{ written: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script], { stdio });
    let written = '';
    child.stdio[fd]?.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ written, code }));
  });
}

describe('stdioWithStatus', () => {
  it('puts the status pipe at STATUS_FD, after the three standard streams', () => {
    const stdio = stdioWithStatus(['ignore', 'pipe', 'pipe']);
    expect(stdio).toHaveLength(STATUS_FD + 1);
    expect(stdio.slice(0, 3)).toEqual(['ignore', 'pipe', 'pipe']);
    expect(stdio[STATUS_FD]).toBe('pipe');
  });

  it('opens the pipe at another fd, and no fd between', async () => {
    const stdio = stdioWithStatus(['ignore', 'pipe', 'pipe'], 5);
    expect(await run('echo made >&5', stdio, 5)).toEqual({ written: 'made\n', code: 0 });
    // fd 3 and 4 are not open in the child: writing there fails.
    expect((await run('echo x >&3', stdio, 5)).code).not.toBe(0);
    expect((await run('echo x >&4', stdio, 5)).code).not.toBe(0);
  });
});
