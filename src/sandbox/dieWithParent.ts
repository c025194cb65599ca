import { existsSync } from 'node:fs';

/** util-linux's setpriv, on Linux: sets a parent-death signal, then execs the command. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((path) => existsSync(path));

/**
 * The command line that runs `command` so the kernel kills it (SIGKILL) the moment the
 * process that started it dies: a worker killed with `kill -9` takes its agent along instead
 * of leaving it writing into the sandbox. What the command itself started is killed by the
 * next attempt or worker start (see agentProcesses.ts). Without setpriv, unchanged.
 */
export function dieWithParent(command: string, args: string[]): { command: string; args: string[] } {
  if (!SETPRIV || process.platform !== 'linux') return { command, args };
  return { command: SETPRIV, args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}
