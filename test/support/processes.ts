import { execFileSync } from 'node:child_process';

/** Processes alive now (zombies aside) whose command line holds `marker`. */
export function processesWith(marker: string): number[] {
  const out = execFileSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, stat, ...args]) => stat !== undefined && !stat.startsWith('Z') && args.join(' ').includes(marker) && args[0] !== 'ps')
    .map(([pid]) => Number(pid));
}

/** Waits (up to `timeoutMs`) until no live process holds `marker`; returns those still there. */
export async function survivorsOf(marker: string, timeoutMs = 3_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let left = processesWith(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = processesWith(marker);
  }
  return left;
}
