import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessRequest } from '../../src/candidates/processRunner.js';
import { whyCannotContain } from '../../src/containment/index.js';
import { runCheck } from '../../src/sandbox/checks.js';
import { makeHost, processesWith, shellAsCandidate, survivorsOf, type HostFixture } from './containmentFixture.js';

let host: HostFixture;
beforeAll(async () => {
  host = await makeHost();
});
afterAll(async () => {
  await host?.close();
});

/** A candidate's shell command, in its sandbox with a scrubbed environment; contained when `contained`. */
function asCandidate(script: string, contained: boolean, extra: Partial<ProcessRequest> = {}) {
  return shellAsCandidate(host, script, { ...(contained ? { view: host.view } : {}), ...extra });
}

/** Each escape succeeds (exit 0, the token in its output) uncontained, and must fail contained. */
const READS: [string, (h: HostFixture) => string][] = [
  ["the user's HOME (an ssh key)", (h) => `cat ${h.home}/.ssh/id_ed25519`],
  ["the workspace's .env", (h) => `cat ${h.workspace}/.env`],
  ["the user's project working tree", (h) => `cat ${h.project}/app.js`],
  ["the user's project objects", (h) => `git --git-dir=${h.project}/.git cat-file --batch-all-objects --batch | grep -a ${h.token}`],
  ['the store in EVALFLOW_HOME', (h) => `cat ${h.stateDir}/pglite/PG_VERSION`],
  ['the runs dir (another score.yaml)', (h) => `cat ${h.runsDir}/run-1/score.yaml`],
  ["the eval bank (the case's rubric)", (h) => `cat ${h.caseDir}/rubric.md`],
  ["another run's sandbox", (h) => `ls ${h.sandboxRoot} && cat ${h.otherSandbox}/answer.txt`],
  ["a file in the host's /tmp", (h) => `cat ${h.hostTmpFile}`],
  ["another process's environment", (h) => `tr '\\0' '\\n' < /proc/${h.secretProcess.pid}/environ | grep EVF_SECRET`],
  ['a host loopback listener', (h) => `exec 3<>/dev/tcp/127.0.0.1/${h.listenerPort} && cat <&3`],
];

const WRITES: [string, (h: HostFixture) => string][] = [
  ["the user's working tree", (h) => join(h.project, 'planted.txt')],
  ["the user's objects", (h) => join(h.project, '.git', 'objects', 'planted')],
  ["the user's hooks (code run on their next commit)", (h) => join(h.project, '.git', 'hooks', 'post-commit')],
  ["another run's sandbox", (h) => join(h.otherSandbox, 'planted.txt')],
  ['the runs dir', (h) => join(h.runsDir, 'run-1', 'planted.txt')],
  ['the store', (h) => join(h.stateDir, 'pglite', 'planted')],
  ["the user's HOME", (h) => join(h.home, '.bashrc')],
];

describe.runIf(whyCannotContain() === null)('a contained candidate (bubblewrap)', () => {
  describe.each(READS)('reads %s', (_what, script) => {
    it('uncontained: it can (so this test can fail)', async () => {
      const run = await asCandidate(script(host), false);
      expect(run.exitCode, run.output).toBe(0);
      expect(run.output).toContain(host.token);
    });
    it('contained: it cannot', async () => {
      const run = await asCandidate(script(host), true);
      expect(run.spawnError).toBeUndefined();
      expect(run.output).not.toContain(host.token);
      expect(run.exitCode).not.toBe(0);
    });
  });

  describe.each(WRITES)('writes %s', (_what, target) => {
    it('uncontained it can, contained it cannot', async () => {
      const path = target(host);
      const script = `mkdir -p "$(dirname ${path})" 2>/dev/null; echo planted > ${path}`;
      // Contained, the place is an empty folder of its own (read-only, or its private /tmp): the write never reaches the host.
      await asCandidate(script, true);
      expect(existsSync(path)).toBe(false);
      const uncontained = await asCandidate(script, false);
      expect(uncontained.exitCode, uncontained.output).toBe(0);
      expect(readFileSync(path, 'utf8')).toBe('planted\n');
      await asCandidate(`rm -f ${path}`, false);
    });
  });

  it('sees no host process and cannot signal one by its pid', async () => {
    const pid = host.secretProcess.pid!;
    const uncontained = await asCandidate(`kill -0 ${pid}`, false);
    expect(uncontained.exitCode).toBe(0);
    const contained = await asCandidate(`kill -0 ${pid} || exit 3; echo still-here`, true);
    expect(contained.exitCode).toBe(3);
    const listing = await asCandidate('ls /proc | grep -E "^[0-9]+$" | wc -l', true);
    // bwrap's init, the shell, ls, grep, wc: nothing of the host.
    expect(Number(listing.output.trim())).toBeLessThan(10);
    expect(host.secretProcess.exitCode).toBeNull();
  });

  it("holds no capability, as root too, and cannot read the system's password hashes", async () => {
    const run = await asCandidate('grep CapEff /proc/self/status; cat /etc/shadow 2>&1 | head -c 200; umount /tmp 2>&1', true);
    expect(run.output).toMatch(/CapEff:\s+0000000000000000/);
    expect(run.output).not.toMatch(/^root:/m);
  });

  it('leaves nothing running after a cancel, even a setsid grandchild that left for /', async () => {
    for (const contained of [false, true]) {
      const marker = `evf-orphan-${randomBytes(4).toString('hex')}`;
      const script = `setsid bash -c 'cd /; exec -a ${marker} sleep 120' </dev/null >/dev/null 2>&1 & sleep 60`;
      const abort = new AbortController();
      setTimeout(() => abort.abort(), 1_500);
      await asCandidate(script, contained, { signal: abort.signal, killGraceMs: 200 });
      const left = contained ? await survivorsOf(marker) : processesWith(marker);
      if (contained) expect(left).toEqual([]);
      else {
        // Uncontained, the grandchild outlives the cancel: what containment is for.
        expect(left.length).toBeGreaterThan(0);
        for (const pid of left) process.kill(pid, 'SIGKILL');
      }
    }
  });

  it('leaves nothing running after its worker is killed with kill -9', async () => {
    for (const contained of [false, true]) {
      const marker = `evf-orphan-${randomBytes(4).toString('hex')}`;
      const worker = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'containedWorker.ts'), JSON.stringify({ host: { sandboxDir: host.sandboxDir, homeDir: host.homeDir, view: host.view }, contained })], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, EVF_MARK: marker },
      });
      await new Promise<void>((resolve) => worker.stdout.once('data', () => resolve()));
      await waitFor(() => processesWith(marker).length > 0);
      worker.kill('SIGKILL');
      const left = contained ? await survivorsOf(marker) : (await new Promise((resolve) => setTimeout(resolve, 500)), processesWith(marker));
      if (contained) expect(left).toEqual([]);
      else {
        expect(left.length).toBeGreaterThan(0);
        for (const pid of left) process.kill(pid, 'SIGKILL');
      }
    }
  }, 60_000);

  it('still does its legitimate work: commits in its clone, writes HOME and TMPDIR, runs node and git, reaches the relayed model port', async () => {
    const script = [
      'set -e',
      'echo hi > note.txt && git add note.txt && git -c user.name=c -c user.email=c@x commit -qm note && git log --oneline | wc -l',
      'echo h > "$HOME/h" && cat "$HOME/h"',
      'echo t > "$TMPDIR/t" && cat "$TMPDIR/t" && test "$TMPDIR" = /tmp',
      `node -e "require('net').connect(${host.listenerPort},'127.0.0.1').on('data',d=>process.stdout.write(String(d)))"`,
    ].join('\n');
    const run = await asCandidate(script, true, { forwardPorts: [host.listenerPort] });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output.split('\n')).toEqual(['1', 'h', 't', host.token]);
    expect(readFileSync(join(host.homeDir, 'h'), 'utf8')).toBe('h\n');
    // Its /tmp was its own: nothing of it is left in the host's.
    expect((await readdir('/tmp')).includes('t')).toBe(false);
  });

  it('reaches a remote endpoint on its allow-list by name, on a low port too, and no other', async () => {
    // This machine's own name, at its non-loopback address, stands in for a provider's host.
    const name = hostname();
    const server = createServer((socket) => socket.end(`remote ${host.token}\n`));
    const port = await new Promise<number>((resolve) => server.listen(0, '0.0.0.0', () => resolve((server.address() as { port: number }).port)));
    try {
      const reach = (endpoint: string) => `node -e "require('net').connect(${endpoint.split(':')[1]},'${endpoint.split(':')[0]}').on('data',d=>process.stdout.write(String(d))).on('error',e=>{console.log(e.code);process.exit(3)})"`;
      const allowed = await asCandidate(reach(`${name}:${port}`), true, { view: { ...host.view, allow: [{ host: name, port }] } });
      expect(allowed.output, allowed.output).toContain(`remote ${host.token}`);
      const other = await asCandidate(`${reach(`${name}:${host.listenerPort}`)}`, true, { view: { ...host.view, allow: [{ host: name, port }] } });
      expect(other.output).not.toContain(host.token);
      const none = await asCandidate(reach(`${name}:${port}`), true);
      expect(none.output).not.toContain(host.token);
      // A provider's https port is below 1024: the relay listens for it inside.
      const listening = `node -e "require('net').connect(443,'api.provider.invalid').on('connect',()=>{console.log('listening');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(3)})"`;
      const low = await asCandidate(`tail -1 /etc/hosts; ${listening}`, true, { view: { ...host.view, allow: [{ host: 'api.provider.invalid', port: 443 }] } });
      expect(low.output.split('\n'), low.output).toEqual(['127.0.1.1 api.provider.invalid', 'listening']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('a sandbox that cannot be made is ours, not the command failing; a command that fails is its own', async () => {
    // A bubblewrap that refuses, as one on a host without user namespaces does.
    const fake = await mkdtemp(join(tmpdir(), 'evf-fake-bwrap-'));
    await writeFile(join(fake, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n', { mode: 0o755 });
    const path = process.env.PATH;
    process.env.PATH = `${fake}:${path}`;
    try {
      const refused = await asCandidate('echo ran', true);
      expect(refused.spawnError).toBe('the sandbox could not be made (bubblewrap: No permissions to create new namespace)');
      await expect(runCheck({ description: 'c', check: 'true', severity: 'hard' }, { cwd: host.sandboxDir, env: {}, view: host.checkView })).rejects.toThrow(/the sandbox for a check could not be made: No permissions/);
    } finally {
      process.env.PATH = path;
    }
    // The candidate printing bubblewrap's words cannot pass its own failure off as ours.
    const forged = await asCandidate('echo "bwrap: No permissions to create new namespace" >&2; echo "setpriv: failed to execute x: No such file" >&2; exit 127', true);
    expect(forged.spawnError).toBeUndefined();
    expect(forged.exitCode).toBe(127);
  });

  it("setup that asks for the network (setup_network: true) has the host's; checks without it do not", async () => {
    const reach = { description: 'reach', check: `exec 3<>/dev/tcp/127.0.0.1/${host.listenerPort} && cat <&3`, severity: 'hard' as const };
    const offline = await runCheck(reach, { cwd: host.sandboxDir, env: {}, view: host.checkView, home: host.homeDir });
    expect(offline.passed).toBe(false);
    const online = await runCheck(reach, { cwd: host.sandboxDir, env: {}, view: { ...host.checkView, network: 'host' }, home: host.homeDir });
    expect(online.output).toContain(host.token);
    expect(online.passed).toBe(true);
  });

  it('a check (postcondition) runs contained too, with no secret of the worker in its environment', async () => {
    process.env.EVF_WORKER_SECRET = host.token;
    try {
      const check = { description: 'reads', check: `cat ${host.workspace}/.env; env | grep EVF_WORKER_SECRET; cat ${host.caseDir}/rubric.md`, severity: 'hard' as const };
      const open = await runCheck(check, { cwd: host.sandboxDir, env: {} });
      expect(open.output).toContain(`OPENAI_API_KEY=${host.token}`);
      const contained = await runCheck(check, { cwd: host.sandboxDir, env: {}, view: host.checkView, home: host.homeDir });
      expect(contained.output).not.toContain(`OPENAI_API_KEY=${host.token}`);
      expect(contained.output).not.toContain(`EVF_WORKER_SECRET=`);
      // The case folder is readable to checks (they may run its scripts), never writable.
      expect(contained.output).toContain(`hidden ${host.token}`);
      const write = await runCheck({ description: 'w', check: `echo x > ${host.caseDir}/planted`, severity: 'hard' }, { cwd: host.sandboxDir, env: {}, view: host.checkView, home: host.homeDir });
      expect(write.passed).toBe(false);
      expect(existsSync(join(host.caseDir, 'planted'))).toBe(false);
    } finally {
      delete process.env.EVF_WORKER_SECRET;
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
