import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { execa } from 'execa';

/** A fixed identity and no system config, so the fixtures behave the same on every machine. */
const GIT_ENV = {
  GIT_AUTHOR_NAME: 'evalflow test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'evalflow test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

export async function tempDir(prefix = 'evalflow-sandbox-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Writes path→content fixtures under `root`; a path ending in `.sh` is made executable. */
export async function writeFiles(root: string, files: Record<string, string>): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, content);
    if (path.endsWith('.sh')) await chmod(full, 0o755);
  }
  return root;
}

export async function gitIn(cwd: string, args: string[]): Promise<string> {
  const result = await execa('git', args, { cwd, env: GIT_ENV });
  return String(result.stdout).trim();
}

/** A git repository with one commit holding `files`; returns its path. */
export async function createRepo(files: Record<string, string>, root?: string): Promise<string> {
  const repo = root ?? (await tempDir('evalflow-repo-'));
  await mkdir(repo, { recursive: true });
  await gitIn(repo, ['init', '-q', '-b', 'main']);
  await writeFiles(repo, files);
  await gitIn(repo, ['add', '-A']);
  await gitIn(repo, ['commit', '-q', '-m', 'initial']);
  return repo;
}

/** Every file below `root` (not `.git`) with its content, sorted by path: a tree to compare. */
export async function readTree(root: string, skip: readonly string[] = ['.git']): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const rel = relative(root, path);
      if (skip.includes(rel)) continue;
      const info = await lstat(path);
      if (info.isDirectory()) await walk(path);
      else out[rel] = info.isSymbolicLink() ? '<symlink>' : await readFile(path, 'utf8');
    }
  };
  await walk(root);
  return out;
}
