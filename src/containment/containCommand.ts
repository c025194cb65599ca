import { existsSync, realpathSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { bwrapArgs, STATUS_FD, type ResolvedView } from './bwrapArgs.js';
import { isInside } from './isInside.js';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loopbackTargets, openPortRelay, relayedCommand, type RelayTarget } from './relay.js';
import type { Endpoint, SandboxView } from './sandboxView.js';

/**
 * The command line that runs a command inside its view, and what to undo once it ended.
 * Spawned as it is, with no `setpriv --pdeathsig` in front: bubblewrap's `--die-with-parent`
 * arms the same parent-death signal in its launcher before it lets the sandbox be set up, and
 * one exec less is a good part of what a contained start costs (docs/isolation.md).
 */
export interface ContainedCommand {
  command: string;
  args: string[];
  /** The fd (in the spawned process's stdio) where bubblewrap reports the sandbox's status. */
  statusFd: number;
  close(): Promise<void>;
}

/** Never emptied, nor anything above them, whatever a setting says: the system the contained process runs on. */
const SYSTEM = ['/', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/opt', '/proc', '/dev', '/sys', '/var'];

/**
 * `command args` wrapped in bubblewrap with `view`. The command's own file is made readable
 * (it may live in a hidden place, e.g. a script beside the config). With `forwardPorts` and a
 * loopback network, a port relay in `scratchRoot` carries those host loopback ports in; the
 * view's allowed remote endpoints come in the same way, each host named in the sandbox's
 * /etc/hosts at a loopback address of its own (there is no resolver inside).
 */
export async function containCommand(
  view: SandboxView,
  request: { command: string; args: string[]; cwd: string; env: Record<string, string>; forwardPorts?: number[]; scratchRoot: string; asInit?: boolean },
): Promise<ContainedCommand> {
  const program = locate(request.command, request.env.PATH, request.cwd);
  // Node's own install: most agent CLIs run on it, and so does the port relay on a host without Perl.
  const node = dirname(dirname(process.execPath));
  const resolved = resolveView(view, request.cwd, program ? [program, node] : [node]);
  if (request.asInit) resolved.asInit = true;
  const targets = view.network === 'loopback' ? [...loopbackTargets(request.forwardPorts ?? []), ...remoteTargets(view.allow ?? [])] : [];
  if (targets.length === 0) {
    return { command: bwrapPath(), args: [...bwrapArgs(resolved), request.command, ...request.args], statusFd: STATUS_FD, close: async () => undefined };
  }
  const dir = await mkdtemp(join(request.scratchRoot, 'relay-'));
  const relay = await openPortRelay(dir, targets);
  resolved.writable.push(dir);
  const remote = targets.filter((target) => target.inside.address !== '127.0.0.1');
  if (remote.length > 0) {
    const hosts = join(dir, 'hosts');
    const names = remote.map((target) => `${target.inside.address} ${target.upstream.host}`).join('\n');
    await writeFile(hosts, `${readHosts()}\n# evalflow: allowed endpoints, relayed\n${names}\n`);
    resolved.etcHosts = hosts;
    // A provider on 443 is listened for inside the sandbox's own network namespace: that alone needs the capability.
    if (remote.some((target) => target.inside.port < 1024)) resolved.bindLowPorts = true;
  }
  const inside = relayedCommand(process.execPath, relay, request.command, request.args);
  return {
    command: bwrapPath(),
    args: [...bwrapArgs(resolved), inside.command, ...inside.args],
    statusFd: STATUS_FD,
    async close() {
      await relay.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The view with real paths (bubblewrap mounts on what a path resolves to), places that do not
 * exist dropped, system folders never hidden, and hidden places inside other hidden ones
 * folded into them. `programs` stay readable wherever they are.
 */
export function resolveView(view: SandboxView, cwd: string, programs: string[]): ResolvedView {
  const hiddenDirs: string[] = [];
  const hiddenFiles: string[] = [];
  for (const place of new Set(view.hidden.flatMap(realPaths))) {
    if (SYSTEM.some((system) => isInside(system, place))) continue;
    if (statSync(place).isDirectory()) hiddenDirs.push(place);
    else hiddenFiles.push(place);
  }
  const outer = hiddenDirs.filter((dir) => !hiddenDirs.some((other) => other !== dir && isInside(dir, other)));
  const readable = [...view.readable, ...programs].flatMap(realPaths).filter((path) => isHidden(path, outer, hiddenFiles));
  return {
    hiddenDirs: outer,
    hiddenFiles: hiddenFiles.filter((file) => !outer.some((dir) => isInside(file, dir))),
    readable: [...new Set(readable)],
    writable: [...new Set(view.writable.flatMap(realPaths))],
    network: view.network,
    cwd,
  };
}

/** Where a path leads (a link to a hidden place is hidden with it); none when it does not exist. */
function realPaths(path: string): string[] {
  try {
    return [realpathSync(path)];
  } catch {
    return [];
  }
}

function isHidden(path: string, dirs: string[], files: string[]): boolean {
  return files.includes(path) || dirs.some((dir) => isInside(path, dir));
}


/** Each allowed endpoint at a loopback address of its own host (127.0.1.1, 127.0.1.2, …), its port kept. */
function remoteTargets(allow: Endpoint[]): RelayTarget[] {
  const hosts = [...new Set(allow.map((endpoint) => endpoint.host))];
  return allow.map((endpoint) => ({ inside: { address: `127.0.1.${hosts.indexOf(endpoint.host) + 1}`, port: endpoint.port }, upstream: endpoint }));
}

function readHosts(): string {
  try {
    return readFileSync('/etc/hosts', 'utf8');
  } catch {
    return '127.0.0.1 localhost';
  }
}

/** bubblewrap as found on the worker's PATH: the candidate's own PATH may not have it. */
function bwrapPath(): string {
  return locate('bwrap', process.env.PATH, '/') ?? 'bwrap';
}

/** The file a command names: a path (from `cwd`), or the first match on PATH. */
function locate(command: string, path: string | undefined, cwd: string): string | undefined {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    return existsSync(file) ? file : undefined;
  }
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    const file = join(dir, command);
    if (existsSync(file)) return file;
  }
  return undefined;
}
