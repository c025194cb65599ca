import type { IOType } from 'node:child_process';

/** Where bubblewrap reports the sandbox's status (`--json-status-fd`), in the spawned process's stdio. */
export const STATUS_FD = 3;

/**
 * A contained spawn's stdio: `std` for fds 0–2, a pipe at `statusFd` for bubblewrap's report,
 * and Node's default for any fd between (undefined: not opened, as 'ignore', and still typed as a pipe array).
 */
export function stdioWithStatus<T extends IOType>(std: readonly [T, T, T], statusFd: number = STATUS_FD): (T | 'pipe' | undefined)[] {
  return [...std, ...Array<undefined>(Math.max(0, statusFd - std.length)).fill(undefined), 'pipe'];
}

/**
 * Whether the sandbox was made, from what bubblewrap wrote on STATUS_FD: it reports the
 * child's pid before the command starts, so nothing the command prints can forge or hide it.
 */
export function sandboxWasMade(status: string): boolean {
  return status.includes('"child-pid"');
}

/** A view of the host resolved to real paths, each with what it is: what bubblewrap is told. */
export interface ResolvedView {
  /** Folders to empty (an empty tmpfs over each). */
  hiddenDirs: string[];
  /** Files to empty (/dev/null over each). */
  hiddenFiles: string[];
  /** Bound read-only, at their own paths, over the hidden places. */
  readable: string[];
  /** Bound read-write, at their own paths, last. */
  writable: string[];
  network: 'loopback' | 'host';
  cwd: string;
  /** A hosts file to see as /etc/hosts (allowed endpoints by name). */
  etcHosts?: string;
  /** Keep the one capability to listen on ports under 1024 in its own network namespace (a relayed provider on 443). */
  bindLowPorts?: boolean;
  /** The command is the sandbox's PID 1 (no init of bubblewrap's own): nothing inside can signal it. */
  asInit?: boolean;
}

/**
 * bubblewrap's arguments for a view, in the order mounts must be made: the system read-only,
 * fresh /proc and /dev, a private /tmp, every hidden place emptied, then what is readable and
 * writable bound over them (a bind made before a tmpfs above it would vanish under it).
 * Every namespace is new (user, pid, ipc, uts, cgroup, and network unless `host`), every
 * capability is dropped (as root too: the user namespace's root holds none), the session is
 * new (no terminal to inject into) and the whole tree dies with its parent. The status of the
 * sandbox goes to STATUS_FD, so a sandbox that could not be made is told from the command failing.
 */
export function bwrapArgs(view: ResolvedView): string[] {
  const args = ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'];
  if (view.asInit) args.push('--as-pid-1');
  if (view.network === 'loopback') args.push('--unshare-net');
  args.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL', ...(view.bindLowPorts ? ['--cap-add', 'CAP_NET_BIND_SERVICE'] : []), '--json-status-fd', String(STATUS_FD));
  args.push('--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  // /tmp is the process's own already; every other hidden place is empty and read-only.
  const hidden = byDepth(view.hiddenDirs.filter((dir) => dir !== '/tmp'));
  for (const dir of hidden) args.push('--tmpfs', dir);
  for (const file of view.hiddenFiles) args.push('--ro-bind', '/dev/null', file);
  for (const path of byDepth(view.readable)) args.push('--ro-bind', path, path);
  for (const path of byDepth(view.writable)) args.push('--bind', path, path);
  if (view.etcHosts) args.push('--ro-bind', view.etcHosts, '/etc/hosts');
  // After the binds, whose mount points were made in them: a write there fails instead of vanishing.
  for (const dir of hidden) args.push('--remount-ro', dir);
  args.push('--setenv', 'TMPDIR', '/tmp', '--chdir', view.cwd, '--');
  return args;
}

/** Outer places first, so an inner mount lands on top of the outer one. */
function byDepth(paths: string[]): string[] {
  return [...new Set(paths)].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
}
