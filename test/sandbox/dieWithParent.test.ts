import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dieWithParent } from '../../src/sandbox/dieWithParent.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.runIf(existsSync('/usr/bin/setpriv') || existsSync('/bin/setpriv'))('dieWithParent', () => {
  it('has the kernel kill the command when the process that started it is killed with SIGKILL', async () => {
    const module = resolve(import.meta.dirname, '../../src/sandbox/dieWithParent.ts');
    // A parent (standing in for a worker) that starts a long command the way agents are started, then waits.
    const script = `import { spawn } from 'node:child_process'; import { dieWithParent } from ${JSON.stringify(module)};
const { command, args } = dieWithParent('sleep', ['60']);
const child = spawn(command, args, { detached: true, stdio: 'ignore' });
console.log(child.pid); setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const childPid = await new Promise<number>((done) => parent.stdout!.once('data', (chunk: Buffer) => done(Number(chunk.toString().trim()))));
    expect(alive(childPid)).toBe(true);
    parent.kill('SIGKILL');
    const deadline = Date.now() + 3_000;
    while (alive(childPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(alive(childPid)).toBe(false);
  });

  it('is the command itself where setpriv does not exist', () => {
    const wrapped = dieWithParent('claude', ['-p', 'hi']);
    expect(wrapped.args.slice(-3)).toEqual(['claude', '-p', 'hi']);
  });
});
