import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isInside } from '../containment/isInside.js';

/**
 * Records of the agent processes a run started, one file per process group under the run's
 * `processes/` folder, so that whoever comes after a crash (a retried turn, cleanup, the next
 * worker on this host) can kill what a dead attempt left running before touching the sandbox.
 */
export interface AgentProcessRecord {
  /** The process group (its leader's pid: agents run detached, each in a group of its own). */
  pgid: number;
  /** The leader's start time in clock ticks since boot (Linux), to tell a reused pid apart. */
  leaderStart: string | null;
  /** The worker process that started it. */
  owner: ProcessOwner;
  label: string;
  startedAt: string;
}

/** A process as a record's owner: its pid and (on Linux) its start time, so a reused pid is not taken for it. */
export interface ProcessOwner {
  pid: number;
  start: string | null;
}

export function ownerOfThisProcess(): ProcessOwner {
  return { pid: process.pid, start: startTimeSync(process.pid) };
}

/** Writes the record synchronously: it must be on disk before the agent can do anything. */
export function recordAgentProcess(processesDir: string, pgid: number, label: string): void {
  mkdirSync(processesDir, { recursive: true });
  const record: AgentProcessRecord = {
    pgid,
    leaderStart: startTimeSync(pgid),
    owner: ownerOfThisProcess(),
    label,
    startedAt: new Date().toISOString(),
  };
  writeFileSync(join(processesDir, `${pgid}.json`), JSON.stringify(record));
}

export function forgetAgentProcess(processesDir: string, pgid: number): void {
  rmSync(join(processesDir, `${pgid}.json`), { force: true });
}

export interface KillRequest {
  processesDir: string;
  /** Folders of the run (sandbox, agent home): processes working inside one may be leftovers too. */
  dirs: string[];
  /**
   * Which processes inside `dirs` count as leftovers: `all` (cleanup ends everything), those
   * started after a time (what an interrupted attempt started, not a service the case's setup
   * left running on purpose), or `none` (only the recorded groups).
   */
  scan: 'all' | 'none' | { startedAfter: Date };
  /** Leave records (and their groups) whose owner worker is still alive: for a sweep at worker start. */
  onlyDeadOwners?: boolean;
  /** How long to wait for the killed processes to be gone (default 5 s). */
  waitMs?: number;
}

export interface KillReport {
  /** Processes sent SIGKILL. */
  killed: number[];
  /** Processes still alive after the wait (should never happen; reported, not thrown). */
  survivors: number[];
}

/**
 * Kills what an earlier attempt left running for a run: every recorded process group, and
 * every process whose working directory is inside the run's folders (agents that escaped
 * their group). Then waits until they are gone. Linux reads /proc; elsewhere only the
 * recorded groups are killed.
 */
export async function killLeftovers(request: KillRequest): Promise<KillReport> {
  const records = await readAgentProcesses(request.processesDir);
  const dead = records.filter((record) => !request.onlyDeadOwners || !isOwnerAlive(record.owner));
  if (request.onlyDeadOwners && dead.length === 0) return { killed: [], survivors: [] };
  const table = await processTable();
  const targets = new Set<number>();
  for (const record of dead) {
    if (!table) {
      signalGroup(record.pgid);
      continue;
    }
    const leader = table.find((p) => p.pid === record.pgid);
    // A live leader with another start time means the pid was reused by an unrelated group.
    if (leader && record.leaderStart !== null && leader.start !== record.leaderStart) continue;
    for (const p of table) if (p.pgrp === record.pgid) targets.add(p.pid);
  }
  // While a live worker still runs a turn here, what works in the folders is its own.
  const liveOwners = request.onlyDeadOwners ? records.filter((record) => isOwnerAlive(record.owner)) : [];
  if (table && liveOwners.length === 0 && request.scan !== 'none') {
    const after = request.scan === 'all' ? null : request.scan.startedAfter.getTime();
    const boot = after === null ? 0 : bootTimeMs();
    for (const p of table) {
      if (!request.dirs.some((dir) => cwdInside(p.cwd, dir))) continue;
      if (after !== null && boot + ticksToMs(p.start) < after) continue;
      targets.add(p.pid);
    }
  }
  targets.delete(process.pid);
  for (const pid of targets) signalProcess(pid);
  const survivors = await waitGone([...targets], request.waitMs ?? 5_000);
  for (const record of dead) forgetAgentProcess(request.processesDir, record.pgid);
  return { killed: [...targets], survivors };
}

/** Whether the worker that wrote a record still runs (same pid and, on Linux, same start time). */
export function isOwnerAlive(owner: ProcessOwner): boolean {
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const start = startTimeSync(owner.pid);
  return owner.start === null || start === null || start === owner.start;
}

/** The records in a run's `processes/` folder (a record cut short by a crash is skipped). */
export async function readAgentProcesses(processesDir: string): Promise<AgentProcessRecord[]> {
  if (!existsSync(processesDir)) return [];
  const records: AgentProcessRecord[] = [];
  for (const name of await readdir(processesDir)) {
    if (!name.endsWith('.json')) continue;
    try {
      records.push(JSON.parse(await readFile(join(processesDir, name), 'utf8')) as AgentProcessRecord);
    } catch {
      // a record cut short by a crash: its group is found by the folder scan
    }
  }
  return records;
}

interface ProcessInfo {
  pid: number;
  pgrp: number;
  state: string;
  start: string;
  cwd: string | null;
}

/**
 * Every live (not zombie) process with its group, start time and working directory; null
 * without /proc. Read synchronously: /proc is served from memory, and a few hundred small
 * reads take a tenth of the time the thread pool's round trips would.
 */
async function processTable(): Promise<ProcessInfo[] | null> {
  if (!existsSync('/proc/self/stat')) return null;
  const table: ProcessInfo[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = parseStat(safeRead(`/proc/${name}/stat`));
    if (!stat || stat.state === 'Z' || stat.state === 'X') continue;
    table.push({ pid: Number(name), ...stat, cwd: safeReadlink(`/proc/${name}/cwd`) });
  }
  return table;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function parseStat(text: string): { state: string; pgrp: number; start: string } | null {
  const close = text.lastIndexOf(')');
  if (close === -1) return null;
  const fields = text.slice(close + 2).split(' ');
  // state is field 3, pgrp field 5, starttime field 22 of stat(5); fields[] starts at field 3.
  return { state: fields[0] ?? '', pgrp: Number(fields[2]), start: fields[19] ?? '' };
}

/** Clock ticks of /proc: USER_HZ, which Linux fixes at 100 for user space. */
function ticksToMs(ticks: string): number {
  return Number(ticks) * 10;
}

let bootTime: number | undefined;

/** When the machine booted (ms since the epoch), from /proc/stat's btime. */
function bootTimeMs(): number {
  if (bootTime === undefined) {
    const btime = /^btime (\d+)$/m.exec(safeRead('/proc/stat'));
    bootTime = btime ? Number(btime[1]) * 1000 : 0;
  }
  return bootTime;
}

function startTimeSync(pid: number): string | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.start ?? null;
  } catch {
    return null;
  }
}

/** A working directory (as /proc shows it, ` (deleted)` when it was removed) inside `dir`. */
function cwdInside(path: string | null, dir: string): boolean {
  return path !== null && isInside(path.replace(/ \(deleted\)$/, ''), dir);
}

function signalGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}

function signalProcess(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

async function waitGone(pids: number[], waitMs: number): Promise<number[]> {
  const deadline = Date.now() + waitMs;
  let alive = pids;
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter((pid) => {
      const stat = parseStat(safeRead(`/proc/${pid}/stat`));
      return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
    });
  }
  return alive;
}

function safeReadlink(path: string): string | null {
  try {
    return readlinkSync(path);
  } catch {
    return null;
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
