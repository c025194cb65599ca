import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readlink, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { FormatError, InternalError } from '../errors.js';
import type { RestoredPath } from '../vocabulary/restoredPath.js';
import { revisionTree, type RevisionTree, type TreeEntry } from './revisionTree.js';

export interface ProtectedSource {
  /** The project repository on the host: read, never written. */
  repoDir: string;
  /** The commit the run's sandbox started at. */
  rev: string;
}

/**
 * Puts every protected path of the sandbox back as it is at the case's revision, so the
 * postconditions judge the candidate's work with checks it could not edit. The revision is
 * read from the host's project repository, never from the sandbox's `.git`, which the
 * candidate could have rewritten. Nothing is written through a symlink: a link where the
 * revision has a folder or file is removed and the real content put in its place, and files
 * are written aside and renamed over, so a hard link to a file elsewhere is replaced, not written.
 */
export async function restoreProtected(sandboxDir: string, source: ProtectedSource, paths: readonly string[]): Promise<RestoredPath[]> {
  const tree = revisionTree(source.repoDir, source.rev);
  const root = await realpath(sandboxDir);
  const restored = new Map<string, RestoredPath['change']>();
  for (const path of paths) {
    const restore = new Restore(root, tree, await expectedAt(tree, normalize(path)), restored);
    await restore.path(normalize(path));
  }
  return [...restored].map(([path, change]) => ({ path, change }));
}

/**
 * Refuses protected paths the revision lacks (a case's typo would otherwise only ever remove
 * files), and a path written as a folder (`name/`) that is a file there. One problem per path,
 * naming env.yaml and the field.
 */
export async function checkProtectedPathsExist(source: ProtectedSource, paths: readonly string[], envFile: string): Promise<void> {
  const tree = revisionTree(source.repoDir, source.rev);
  const problems: string[] = [];
  for (const [index, path] of paths.entries()) {
    const entry = (await tree.entriesAt(normalize(path))).find((found) => found.path === normalize(path));
    const at = `the project at ${source.rev.slice(0, 12)}`;
    if (!entry) problems.push(`${envFile}: protected.${index}: ${path} is not in ${at}; expected a file or folder it has`);
    else if (path.endsWith('/') && entry.type !== 'tree') problems.push(`${envFile}: protected.${index}: ${path} is a file in ${at}, not a folder; expected it without the trailing /`);
  }
  if (problems.length > 0) throw new FormatError(problems.join('\n'), problems);
}

interface Expected {
  entries: Map<string, TreeEntry>;
  blobs: Map<string, Buffer>;
}

async function expectedAt(tree: RevisionTree, path: string): Promise<Expected> {
  const entries = await tree.entriesAt(path);
  const blobs = await tree.blobs(entries.filter((entry) => entry.type === 'blob').map((entry) => entry.oid));
  return { entries: new Map(entries.map((entry) => [entry.path, entry])), blobs };
}

class Restore {
  constructor(
    private readonly root: string,
    private readonly tree: RevisionTree,
    private readonly expected: Expected,
    private readonly restored: Map<string, RestoredPath['change']>,
  ) {}

  /** Makes the ancestors of `path` real folders where the revision has folders, then restores `path`. */
  async path(path: string): Promise<void> {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const ancestor = segments.slice(0, depth).join('/');
      const full = join(this.root, ancestor);
      const info = await lstatOrNull(full);
      if (!info) {
        // Nothing is there, so nothing the candidate made can be at `path` either.
        if (!this.expected.entries.has(path)) return;
        await mkdir(dirname(join(this.root, path)), { recursive: true });
        return this.node(path, false);
      }
      if (info.isDirectory()) continue;
      if (this.expected.entries.get(ancestor)?.type === 'tree') {
        await this.replaceWithFolder(full, ancestor);
        continue;
      }
      // The revision has no folder here, so `path` is absent at it; only a link can lead somewhere.
      if (info.isSymbolicLink()) await this.undoLinkedAncestor(full, ancestor);
      return;
    }
    await this.node(path, false);
  }

  /**
   * An ancestor that is a symlink where the revision has a file, a different link or nothing:
   * the candidate made `path` reachable through it. The project's own link is left as it is.
   */
  private async undoLinkedAncestor(full: string, ancestor: string): Promise<void> {
    const own = await this.tree.entryOf(ancestor);
    const blobs = own?.type === 'blob' ? await this.tree.blobs([own.oid]) : new Map<string, Buffer>();
    const target = own?.mode === '120000' ? blobs.get(own.oid)?.toString('utf8') : undefined;
    if (target !== undefined && (await readlink(full)) === target) return;
    await rm(full, { force: true });
    if (own) await new Restore(this.root, this.tree, { entries: new Map([[ancestor, own]]), blobs }, this.restored).node(ancestor, true);
    this.note(ancestor, own ? 'changed' : 'added');
  }

  /** Restores one entry (and, for a folder, what is below it); `quiet` when its parent was already reported. */
  async node(path: string, quiet: boolean): Promise<void> {
    const full = join(this.root, path);
    const info = await lstatOrNull(full);
    const expected = this.expected.entries.get(path);
    if (!expected) {
      if (!info) return;
      await rm(full, { recursive: true, force: true });
      if (!quiet) this.note(info.isDirectory() ? `${path}/` : path, 'added');
      return;
    }
    if (expected.type === 'tree' || expected.type === 'commit') {
      if (!info || !info.isDirectory()) {
        if (info) await rm(full, { recursive: true, force: true });
        await mkdir(full);
        if (!quiet) this.note(`${path}/`, info ? 'changed' : 'deleted');
        quiet = true;
      }
      // A submodule's content is another repository's: only its folder is restored.
      if (expected.type === 'commit') return;
      const names = new Set([...(await readdir(full)), ...this.childrenOf(path)]);
      for (const name of [...names].sort()) await this.node(`${path}/${name}`, quiet);
      return;
    }
    if (await this.matches(full, info, expected)) return;
    if (info?.isDirectory()) await rm(full, { recursive: true, force: true });
    await this.writeEntry(full, expected);
    if (!quiet) this.note(path, info ? 'changed' : 'deleted');
  }

  private childrenOf(path: string): string[] {
    const prefix = `${path}/`;
    return [...this.expected.entries.keys()].filter((key) => key.startsWith(prefix) && !key.slice(prefix.length).includes('/')).map((key) => key.slice(prefix.length));
  }

  /** Whether a file or symlink is already as the revision has it (a file's executable bit, as git sees modes). */
  private async matches(full: string, info: Stats | null, expected: TreeEntry): Promise<boolean> {
    const content = this.blob(expected);
    if (expected.mode === '120000') return info?.isSymbolicLink() === true && (await readlink(full)) === content.toString('utf8');
    // A second link to the same file means its content can change from outside the sandbox.
    if (!info?.isFile() || info.nlink !== 1) return false;
    if (((info.mode & 0o100) !== 0) !== (expected.mode === '100755')) return false;
    return (await readNoFollow(full))?.equals(content) === true;
  }

  private async writeEntry(full: string, expected: TreeEntry): Promise<void> {
    const content = this.blob(expected);
    // Aside and renamed over, so the old entry (a link, a hard link) is replaced, never written into.
    const aside = join(dirname(full), `.evalflow-restore-${randomBytes(6).toString('hex')}`);
    if (expected.mode === '120000') {
      await symlink(content.toString('utf8'), aside);
    } else {
      const mode = expected.mode === '100755' ? 0o755 : 0o644;
      await writeFile(aside, content, { flag: 'wx', mode });
      await chmod(aside, mode);
    }
    await rename(aside, full);
  }

  private async replaceWithFolder(full: string, path: string): Promise<void> {
    await rm(full, { recursive: true, force: true });
    await mkdir(full);
    this.note(`${path}/`, 'changed');
  }

  private blob(entry: TreeEntry): Buffer {
    const content = this.expected.blobs.get(entry.oid);
    if (!content) throw new InternalError(`no content read for ${entry.path} (${entry.oid})`);
    return content;
  }

  private note(path: string, change: RestoredPath['change']): void {
    if (!this.restored.has(path)) this.restored.set(path, change);
  }
}

/** `test/fixtures/` and `test/fixtures` name the same entry. */
function normalize(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

/** The file's bytes, not following a link; null when it cannot be read (then it is written again). */
async function readNoFollow(path: string): Promise<Buffer | null> {
  try {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}
