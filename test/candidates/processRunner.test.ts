import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../src/candidates/processRunner.js';
import { writeTempFiles } from './tempFiles.js';

const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** Dead, or a zombie waiting for a parent that is gone. */
async function isAlive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(path: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.trim()) return text.trim();
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${path} never appeared`);
}

describe('runProcess', () => {
  it('kills the whole process group on timeout, grandchildren included', async () => {
    const dir = await writeTempFiles({ 'spawn.sh': '#!/bin/sh\necho $$ > shell.pid\nsleep 300 &\necho $! > grandchild.pid\nsleep 300\n' });
    const result = await runProcess({ command: join(dir, 'spawn.sh'), args: [], cwd: dir, env: { PATH }, timeoutMs: 500, killGraceMs: 300 });
    expect(result.timedOut).toBe(true);
    const shell = Number(await waitFor(join(dir, 'shell.pid')));
    const grandchild = Number(await waitFor(join(dir, 'grandchild.pid')));
    expect(await isAlive(shell)).toBe(false);
    expect(await isAlive(grandchild)).toBe(false);
  });

  it('kills the group when the abort signal fires', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = Date.now();
    const result = await runProcess({ command: 'sh', args: ['-c', 'sleep 300'], cwd: '/', env: { PATH }, timeoutMs: 60_000, signal: controller.signal, killGraceMs: 300 });
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives the child exactly the environment it is handed, nothing of the host', async () => {
    expect(process.env.VITEST).toBeDefined();
    const lines: string[] = [];
    const result = await runProcess({ command: 'env', args: [], cwd: '/', env: { PATH, ONLY_THIS: 'yes' }, timeoutMs: 5000, onStdoutLine: (l) => lines.push(l) });
    expect(result.exitCode).toBe(0);
    expect(lines).toContain('ONLY_THIS=yes');
    expect(lines.some((l) => l.startsWith('VITEST='))).toBe(false);
  });

  it('keeps a bounded stderr tail, splits stdout into lines and reports activity', async () => {
    const lines: string[] = [];
    let activity = 0;
    const result = await runProcess({
      command: 'sh',
      args: ['-c', "i=0; while [ $i -lt 500 ]; do echo 'noise noise noise' >&2; i=$((i+1)); done; echo LAST-ERROR >&2; printf 'one\\ntwo\\nthree'; exit 3"],
      cwd: '/',
      env: { PATH },
      timeoutMs: 5000,
      stderrTailBytes: 100,
      onStdoutLine: (l) => lines.push(l),
      onActivity: () => activity++,
    });
    expect(result.exitCode).toBe(3);
    expect(result.stderrTail).toHaveLength(100);
    expect(result.stderrTail.trimEnd().endsWith('LAST-ERROR')).toBe(true);
    expect(lines).toEqual(['one', 'two', 'three']);
    expect(activity).toBeGreaterThan(0);
  });

  it('reports an executable that does not exist instead of throwing', async () => {
    const result = await runProcess({ command: 'evalflow-no-such-agent', args: [], cwd: '/', env: { PATH }, timeoutMs: 5000 });
    expect(result.spawnError).toBe('evalflow-no-such-agent: not found');
  });

  it('runs in a loopback-only network namespace when asked', async () => {
    const lines: string[] = [];
    // /proc/net/dev lists the interfaces of the caller's network namespace.
    const result = await runProcess({ command: 'cat', args: ['/proc/net/dev'], cwd: '/', env: { PATH: `${PATH}:/usr/sbin:/sbin` }, timeoutMs: 10_000, network: 'loopback', onStdoutLine: (l) => lines.push(l) });
    expect(result.exitCode).toBe(0);
    const interfaces = lines.slice(2).map((l) => l.split(':')[0]?.trim());
    expect(interfaces).toEqual(['lo']);
  });
});

describe('runProcess in a loopback namespace with forwarded ports', () => {
  it('reaches the forwarded model port and nothing else of the host', async () => {
    const servers = await Promise.all(
      ['model', 'other'].map(
        (name) =>
          new Promise<Server>((resolve) => {
            const server = createServer((_req, res) => res.end(`hello from ${name}`));
            server.listen(0, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    const [model, other] = servers.map((s) => (s.address() as AddressInfo).port);
    const probe = `for (const port of process.argv.slice(1)) { try { const r = await fetch('http://127.0.0.1:' + port + '/'); console.log(port, await r.text()); } catch (e) { console.log(port, 'unreachable'); } }`;
    const lines: string[] = [];
    try {
      const result = await runProcess({
        command: process.execPath,
        args: ['--input-type=module', '-e', probe, String(model), String(other)],
        cwd: '/',
        env: { PATH: `${PATH}:/usr/sbin:/sbin` },
        timeoutMs: 20_000,
        network: 'loopback',
        forwardPorts: [model as number],
        onStdoutLine: (l) => lines.push(l),
      });
      expect(result.exitCode).toBe(0);
    } finally {
      for (const server of servers) server.close();
    }
    expect(lines).toEqual([`${model} hello from model`, `${other} unreachable`]);
  });
});
