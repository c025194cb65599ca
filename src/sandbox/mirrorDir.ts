import { chmod, lstat, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A folder's content as read once: files with their mode and bytes, folders with theirs. */
type Entry = { kind: 'file'; mode: number; data: Buffer } | { kind: 'dir'; mode: number; entries: Map<string, Entry> };

interface Folder {
  mode: number;
  entries: Map<string, Entry>;
}

/** Folders that never change once made (a pristine `.git`), read once per process. */
const cache = new Map<string, Promise<Folder>>();

/**
 * Makes `target` hold exactly what `source` holds — the same names, file bytes and modes,
 * nothing more — except the top-level names in `keep`, which are left alone. Only what differs
 * is written, so a folder that was barely touched costs reads, not a copy. Anything that is
 * not a plain file or folder (a symlink, a file with other hard links) is replaced. `source`
 * must not change: its content is read once per process.
 */
export async function mirrorDir(source: string, target: string, keep: readonly string[] = []): Promise<void> {
  let want = cache.get(source);
  if (!want) {
    want = readFolder(source);
    cache.set(source, want);
    want.catch(() => cache.delete(source));
  }
  await mirrorFolder(await want, target, new Set(keep));
}

async function readFolder(dir: string): Promise<Folder> {
  const entries = new Map<string, Entry>();
  for (const dirent of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, dirent.name);
    if (dirent.isDirectory()) entries.set(dirent.name, { kind: 'dir', ...(await readFolder(path)) });
    else if (dirent.isFile()) entries.set(dirent.name, { kind: 'file', mode: (await lstat(path)).mode & 0o7777, data: await readFile(path) });
    else throw new Error(`${path}: neither a file nor a folder`);
  }
  return { mode: (await lstat(dir)).mode & 0o7777, entries };
}

async function mirrorFolder(want: Folder, target: string, keep: ReadonlySet<string>): Promise<void> {
  // lstat, not readdir: a symlink to a folder elsewhere is replaced, never written through.
  const found = await lstat(target).catch(() => null);
  const have = found?.isDirectory() ? await readdir(target) : null;
  if (have === null) {
    await rm(target, { recursive: true, force: true });
    await mkdir(target);
  }
  if (have === null || (found!.mode & 0o7777) !== want.mode) await chmod(target, want.mode);
  await Promise.all((have ?? []).filter((name) => !want.entries.has(name) && !keep.has(name)).map((name) => rm(join(target, name), { recursive: true, force: true })));
  await Promise.all(
    [...want.entries].map(async ([name, entry]) => {
      const path = join(target, name);
      if (entry.kind === 'dir') return mirrorFolder(entry, path, new Set());
      const file = await lstat(path).catch(() => null);
      if (file?.isFile() && file.nlink === 1 && (file.mode & 0o7777) === entry.mode && file.size === entry.data.length && (await readFile(path)).equals(entry.data)) return;
      await rm(path, { recursive: true, force: true });
      await writeFile(path, entry.data, { mode: entry.mode });
      await chmod(path, entry.mode);
    }),
  );
}

/**
 * Makes `target` a plain file with `source`'s bytes and modification time, writing the bytes
 * only when they differ. The time matters for a git index: git re-reads files changed in the
 * same instant the index was written, and knows which those are by the index file's mtime.
 */
export async function mirrorFile(source: string, target: string): Promise<void> {
  const [data, times, file] = await Promise.all([readFile(source), stat(source), lstat(target).catch(() => null)]);
  const same = file?.isFile() && file.nlink === 1 && file.size === data.length && (await readFile(target)).equals(data);
  if (!same) {
    await rm(target, { recursive: true, force: true });
    await writeFile(target, data);
  }
  if (!same || file?.mtimeMs !== times.mtimeMs) await utimes(target, times.atime, times.mtime);
}
