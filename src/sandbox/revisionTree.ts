import { execa } from 'execa';
import { SandboxError } from '../errors.js';

/** One entry of a commit's tree: a file (`100644`, `100755`), a symlink (`120000`), a folder (`040000`) or a submodule (`160000`). */
export interface TreeEntry {
  mode: string;
  type: 'blob' | 'tree' | 'commit';
  oid: string;
  /** Repository-relative, `/`-separated. */
  path: string;
}

/**
 * Reads files of one commit from a repository, never writing to it: no index, no work tree,
 * no optional locks. Paths are taken literally, so a protected path is never a glob.
 */
export function revisionTree(repoDir: string, rev: string) {
  const run = (args: string[], input?: string) => gitRead(repoDir, args, input);
  return {
    /**
     * `path` and everything below it, with every folder on the way there (so the caller knows
     * which ancestors are folders at the revision). Empty below the folders when `path` is absent.
     */
    async entriesAt(path: string): Promise<TreeEntry[]> {
      const out = await run(['ls-tree', '-r', '-t', '-z', '--full-tree', rev, '--', path]);
      return parseEntries(out.toString('utf8'));
    },

    /** The entry at exactly `path` (a file, symlink, folder or submodule), or undefined when the revision has none. */
    async entryOf(path: string): Promise<TreeEntry | undefined> {
      const slash = path.lastIndexOf('/');
      const parent = slash < 0 ? '' : path.slice(0, slash);
      // Listing the parent folder itself answers exactly, whatever kind `path` is.
      const out = await run(['ls-tree', '-z', '--full-tree', `${rev}:${parent}`], undefined).catch(() => Buffer.alloc(0));
      const name = path.slice(slash + 1);
      return parseEntries(out.toString('utf8'))
        .filter((entry) => entry.path === name)
        .map((entry) => ({ ...entry, path }))[0];
    },

    /** The contents of blobs (files and symlink targets), read in one git call. */
    async blobs(oids: readonly string[]): Promise<Map<string, Buffer>> {
      const unique = [...new Set(oids)];
      const found = new Map<string, Buffer>();
      if (unique.length === 0) return found;
      const out = await run(['cat-file', '--batch'], `${unique.join('\n')}\n`);
      let at = 0;
      while (at < out.length) {
        const end = out.indexOf(0x0a, at);
        const header = out.subarray(at, end).toString('utf8').split(' ');
        const [oid, type, size] = header;
        if (oid === undefined || type !== 'blob' || size === undefined) throw new SandboxError(`git cat-file in ${repoDir}: unexpected answer ${header.join(' ')}`);
        const start = end + 1;
        found.set(oid, out.subarray(start, start + Number(size)));
        at = start + Number(size) + 1;
      }
      return found;
    },
  };
}

export type RevisionTree = ReturnType<typeof revisionTree>;

function parseEntries(text: string): TreeEntry[] {
  return text
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const tab = line.indexOf('\t');
      const [mode = '', type = '', oid = ''] = line.slice(0, tab).split(' ');
      return { mode, type: type as TreeEntry['type'], oid, path: line.slice(tab + 1) };
    });
}

/**
 * git with output as bytes (file contents need not be UTF-8), no user or system config, and
 * no replace refs: the commit's own objects, whatever `refs/replace` says.
 */
async function gitRead(repoDir: string, args: string[], input?: string): Promise<Buffer> {
  const result = await execa('git', ['--no-optional-locks', '--no-replace-objects', '--literal-pathspecs', '-C', repoDir, ...args], {
    reject: false,
    encoding: 'buffer',
    ...(input !== undefined ? { input } : {}),
    env: { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' },
  });
  if (result.exitCode !== 0) {
    throw new SandboxError(`git ${args.join(' ')} failed in ${repoDir}: ${Buffer.from(result.stderr).toString('utf8').trim()}`);
  }
  return Buffer.from(result.stdout);
}
