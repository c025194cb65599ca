import { createHash } from 'node:crypto';
import { access, constants, readdir, readFile, rm, stat } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';

/**
 * A UUID derived from the run id (name-based, SHA-1, RFC 4122 version 5 layout), so a retried
 * turn 1 asks the agent for the same session id instead of starting a second session.
 */
export function stableSessionId(runId: string): string {
  const hash = createHash('sha1').update(`evalflow-candidate-session:${runId}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Before a retried turn 1, remove what a failed first attempt left under the run's private
 * HOME for this session id (CLIs refuse `--session-id` for an id that already exists). HOME is
 * private to the run, so anything named after the id is that attempt's. Best effort, bounded.
 */
export async function forgetSession(homeDir: string, sessionId: string, maxDepth = 6): Promise<number> {
  let removed = 0;
  let visited = 0;
  async function walk(dir: string, depth: number): Promise<void> {
    if (depth > maxDepth || visited > 20_000) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      visited++;
      const path = join(dir, entry.name);
      if (entry.name.includes(sessionId)) {
        await rm(path, { recursive: true, force: true });
        removed++;
      } else if (entry.isDirectory() && !entry.isSymbolicLink()) {
        await walk(path, depth + 1);
      }
    }
  }
  await walk(homeDir, 0);
  return removed;
}

/** The first of `names` that is an executable file on `pathVar`, as an absolute path. */
export async function findExecutable(names: string[], pathVar: string | undefined): Promise<string | undefined> {
  for (const name of names) {
    if (name.includes('/')) {
      if (await isExecutable(name)) return name;
      continue;
    }
    for (const dir of (pathVar ?? '').split(delimiter).filter(Boolean)) {
      const candidate = join(dir, name);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

/**
 * Why `command` cannot be run (a name looked up on `pathVar`, or a path, relative ones from
 * `cwd`), or undefined when it can.
 */
export async function whyCannotStart(command: string, pathVar: string | undefined, cwd?: string): Promise<string | undefined> {
  const path = command.includes('/') && cwd ? resolve(cwd, command) : command;
  if (await findExecutable([path], pathVar)) return undefined;
  if (!path.includes('/')) return `${command} is not on PATH`;
  const found = await stat(path).catch(() => undefined);
  if (!found) return `${path} does not exist`;
  if (found.isDirectory()) return `${path} is a directory`;
  return `${path} is not executable (chmod +x ${path})`;
}

/**
 * The program a command would run, when it is a script whose `#!` interpreter (an absolute
 * path) is missing: told before it starts, since inside a sandbox the exec failure would only
 * show as an exit code the candidate could also give.
 */
export async function missingInterpreter(command: string, pathVar: string | undefined, cwd?: string): Promise<string | undefined> {
  const path = await findExecutable([command.includes('/') && cwd ? resolve(cwd, command) : command], pathVar);
  if (!path) return undefined;
  const head = await readFile(path).then((bytes) => bytes.subarray(0, 256).toString('latin1')).catch(() => '');
  const interpreter = /^#!\s*(\/\S+)/.exec(head)?.[1];
  if (!interpreter || (await isExecutable(interpreter))) return undefined;
  return path;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
