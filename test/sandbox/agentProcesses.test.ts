import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killLeftovers, recordAgentProcess } from '../../src/sandbox/agentProcesses.js';
import { tempDir } from './sandboxFixture.js';

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

/** A detached bash (its own process group) running `script` in `cwd`; resolves once it runs. */
async function detached(script: string, cwd: string): Promise<number> {
  const child = spawn('bash', ['-c', script], { cwd, detached: true, stdio: 'ignore' });
  child.unref();
  started.push(child.pid!);
  await new Promise((r) => setTimeout(r, 150));
  return child.pid!;
}

const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) [ZX] /.test(stat);
  } catch {
    return false;
  }
};

/** Pids of the processes in a process group (from /proc). */
const groupMembers = (pgid: number) =>
  readdirSyncSafe('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);

function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

async function runFolders() {
  const root = await tempDir('evalflow-procs-');
  const sandbox = join(root, 'work');
  const home = join(root, 'home');
  await mkdir(sandbox, { recursive: true });
  await mkdir(home, { recursive: true });
  return { processesDir: join(root, 'processes'), sandbox, home };
}

describe.runIf(existsSync('/proc/self/stat'))('killLeftovers', () => {
  it('kills a recorded process group, children included, and forgets the record', async () => {
    const { processesDir, sandbox, home } = await runFolders();
    const pgid = await detached('sleep 60 & sleep 60 & wait', sandbox);
    recordAgentProcess(processesDir, pgid, 'turn 1');
    const members = groupMembers(pgid);
    expect(members.length).toBeGreaterThanOrEqual(3);
    const report = await killLeftovers({ processesDir, dirs: [sandbox, home], scan: 'none' });
    expect(report.survivors).toEqual([]);
    expect(members.filter(alive)).toEqual([]);
    expect(await readdir(processesDir)).toEqual([]);
  });

  it('kills a process that escaped its group but works in the sandbox, when the scan asks for it', async () => {
    const { processesDir, sandbox, home } = await runFolders();
    const escaped = await detached('exec sleep 60', join(sandbox));
    expect((await killLeftovers({ processesDir, dirs: [sandbox, home], scan: 'none' })).killed).toEqual([]);
    expect(alive(escaped)).toBe(true);
    // Started before the interrupted attempt: a service the case's setup left running on purpose.
    expect((await killLeftovers({ processesDir, dirs: [sandbox, home], scan: { startedAfter: new Date(Date.now() + 60_000) } })).killed).toEqual([]);
    expect(alive(escaped)).toBe(true);
    const report = await killLeftovers({ processesDir, dirs: [sandbox, home], scan: { startedAfter: new Date(Date.now() - 60_000) } });
    expect(report.killed).toEqual([escaped]);
    expect(alive(escaped)).toBe(false);
  });

  it('at worker start, leaves the groups of live workers alone and kills those of dead ones', async () => {
    const { processesDir, sandbox, home } = await runFolders();
    const live = await detached('exec sleep 60', sandbox);
    const orphan = await detached('exec sleep 60', sandbox);
    const deadOwner = await detached('exit 0', sandbox);
    await new Promise((r) => setTimeout(r, 100));
    recordAgentProcess(processesDir, live, 'turn 1 of a live worker');
    recordAgentProcess(processesDir, orphan, 'turn 1 of a dead worker');
    // Rewrite the orphan's owner as a worker that has exited.
    const file = join(processesDir, `${orphan}.json`);
    const record = JSON.parse(readFileSync(file, 'utf8')) as { owner: { pid: number; start: string | null } };
    await writeFile(file, JSON.stringify({ ...record, owner: { pid: deadOwner, start: '1' } }));
    const report = await killLeftovers({ processesDir, dirs: [sandbox, home], scan: 'all', onlyDeadOwners: true });
    expect(report.killed).toEqual([orphan]);
    expect(alive(live)).toBe(true);
    expect(alive(orphan)).toBe(false);
    expect(await readdir(processesDir)).toEqual([`${live}.json`]);
  });

  it('does not kill a group whose pid was reused by an unrelated process', async () => {
    const { processesDir, sandbox, home } = await runFolders();
    const other = await detached('exec sleep 60', home);
    recordAgentProcess(processesDir, other, 'turn 1');
    const file = join(processesDir, `${other}.json`);
    const record = JSON.parse(readFileSync(file, 'utf8')) as object;
    await writeFile(file, JSON.stringify({ ...record, leaderStart: '1' }));
    expect((await killLeftovers({ processesDir, dirs: [sandbox], scan: 'none' })).killed).toEqual([]);
    expect(alive(other)).toBe(true);
  });
});
