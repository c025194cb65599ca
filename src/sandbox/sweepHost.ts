import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isOwnerAlive, killLeftovers, readAgentProcesses } from './agentProcesses.js';

export interface SweepReport {
  /** Processes left by workers that died, killed. */
  killed: number;
  /** Sandboxes of runs that are over (and not kept for resume), removed. */
  removed: string[];
}

/**
 * What a worker does on this host before it takes work: kill every agent process a dead
 * worker left running (so it cannot write into a sandbox a retry is about to use), and remove
 * the sandboxes of runs that are over and not kept for `evalflow resume`. `runState` says, for
 * a run id, whether its run is still `active`, `parked` here, `over`, or `unknown` (another store's: left alone).
 */
export async function sweepHost(sandboxRoot: string, runState: (runId: string) => Promise<'active' | 'parked' | 'over' | 'unknown'>): Promise<SweepReport> {
  const report: SweepReport = { killed: 0, removed: [] };
  if (!existsSync(sandboxRoot)) return report;
  for (const entry of await readdir(sandboxRoot, { withFileTypes: true })) {
    // Dot folders are evalflow's own (notes of running activities), not run sandboxes.
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const hostDir = join(sandboxRoot, entry.name);
    const processesDir = join(hostDir, 'processes');
    const dirs = [join(hostDir, 'work'), join(hostDir, 'home')];
    const records = await readAgentProcesses(processesDir);
    const dead = records.filter((record) => !isOwnerAlive(record.owner));
    if (dead.length > 0) {
      // What the dead attempts started, not services the case's setup left running earlier.
      const since = new Date(Math.min(...dead.map((record) => Date.parse(record.startedAt))) - 1_000);
      report.killed += (await killLeftovers({ processesDir, dirs, scan: { startedAfter: since }, onlyDeadOwners: true })).killed.length;
    }
    if (records.some((record) => isOwnerAlive(record.owner))) continue;
    if ((await runState(entry.name)) === 'over') {
      await killLeftovers({ processesDir, dirs, scan: 'all' });
      await rm(hostDir, { recursive: true, force: true });
      report.removed.push(entry.name);
    }
  }
  return report;
}
