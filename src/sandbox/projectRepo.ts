import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { SandboxError } from '../errors.js';
import { describePath, FOLDER } from './describePath.js';
import { git } from './git.js';
import { ensureMirrorAt } from './gitMirror.js';
import { gitSourceOf, looksLikeGitUrl, parseGitUrl } from './gitUrl.js';

export interface ProjectRepo {
  /** The git repository worktrees are added from. */
  repoDir: string;
  /** The commit the sandbox starts at. */
  rev: string;
  /** True when evalflow made the repository from a plain folder. */
  imported: boolean;
  /** The project's git URL, when it was given as one (`repoDir` is then this host's mirror of it). */
  url?: string;
}

/**
 * The project under test as a git repository. A git checkout is used as it is (its HEAD);
 * a plain folder is imported once into `<stateDir>/projects/<name>-<hash>` with one commit,
 * keyed by its content so an edited folder gives a new repository. A git URL is read from this
 * host's mirror of it (gitMirror.ts) at `pinned`, the commit its batch pinned when it started.
 */
export async function ensureProjectRepo(project: string, stateDir: string, pinned?: string): Promise<ProjectRepo> {
  if (looksLikeGitUrl(project)) {
    const source = gitSourceOf(project);
    if (!source) throw new SandboxError(`project ${project}: ${(parseGitUrl(project) as { problem: string }).problem}`);
    if (!pinned) throw new SandboxError(`project ${project}: a git URL needs the commit its batch pinned, and this run has none (started by an evalflow without git URLs?)`);
    return { repoDir: await ensureMirrorAt(stateDir, source.url, pinned, 'project'), rev: pinned, imported: false, url: source.url };
  }
  const problem = await checkProjectFolder(project);
  if (problem) throw new SandboxError(problem);
  // git reports the top level with symlinks resolved, so compare (and copy) the real path.
  const source = await realpath(project);
  // Without a .git entry the folder cannot be a checkout's top level: no need to ask git.
  const top = existsSync(join(source, '.git')) ? await git(source, ['rev-parse', '--show-toplevel'], { allowFail: true }) : undefined;
  if (top && top.exitCode === 0 && top.stdout.trim() === source) {
    const head = await git(project, ['rev-parse', 'HEAD'], { allowFail: true });
    if (head.exitCode !== 0) throw new SandboxError(`project repository ${project} has no commit yet; commit something first`);
    return { repoDir: project, rev: head.stdout.trim(), imported: false };
  }
  const hash = await hashFolder(source);
  const repoDir = join(stateDir, 'projects', `${basename(project)}-${hash.slice(0, 12)}`);
  if (!existsSync(join(repoDir, '.git'))) {
    // Build aside and rename, so a crash never leaves a half-made repository behind.
    const tmp = `${repoDir}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    await rm(tmp, { recursive: true, force: true });
    await mkdir(tmp, { recursive: true });
    // Only names below the project count: the project itself may live under a node_modules folder.
    const skipped = (src: string) => relative(source, src).split(/[\\/]/).some((part) => part === '.git' || part === 'node_modules');
    await cp(source, tmp, { recursive: true, filter: (src) => !skipped(src) });
    await git(tmp, ['init', '-q', '-b', 'main']);
    await git(tmp, ['add', '-A']);
    // An empty folder is a valid start for "create a new project" cases.
    await git(tmp, ['commit', '-q', '--allow-empty', '-m', `import ${basename(project)} for evalflow`]);
    await mkdir(join(stateDir, 'projects'), { recursive: true });
    try {
      await rename(tmp, repoDir);
    } catch (err) {
      await rm(tmp, { recursive: true, force: true });
      if (!existsSync(join(repoDir, '.git'))) throw err;
    }
  }
  return { repoDir, rev: await importedHead(repoDir), imported: true };
}

/**
 * The commit of a repository evalflow imported: read from its HEAD and branch files (it made
 * them, one commit on `main`, never packed), asking git only when they say something else.
 */
async function importedHead(repoDir: string): Promise<string> {
  const head = await readFile(join(repoDir, '.git', 'HEAD'), 'utf8').catch(() => '');
  const ref = /^ref: (refs\/heads\/[\w.-]+)\n?$/.exec(head)?.[1];
  const rev = ref ? (await readFile(join(repoDir, '.git', ref), 'utf8').catch(() => '')).trim() : '';
  if (/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(rev)) return rev;
  return (await git(repoDir, ['rev-parse', 'HEAD'])).stdout.trim();
}

/**
 * Why `project` cannot be the project under test, as one line naming it, or undefined when it
 * is a folder. Checked before git or a copy touch it, whose errors (a bare ENOTDIR) name neither.
 */
export async function checkProjectFolder(project: string): Promise<string | undefined> {
  // A URL is read on each host, from its mirror; what can be checked here is its form.
  if (looksLikeGitUrl(project)) {
    const parsed = parseGitUrl(project);
    return 'problem' in parsed ? `project ${parsed.problem}` : undefined;
  }
  const found = await describePath(project);
  if (found === FOLDER) return undefined;
  return `project folder ${project}: expected a folder (a git repository or a plain folder), found ${found}`;
}

/**
 * What sandboxes of a git checkout will lack: they start from its HEAD, so uncommitted changes
 * (tracked or untracked, not ignored) are not in them. Null when `project` is not the top level
 * of a checkout (a plain folder is imported as it is, changes included).
 */
export async function uncommittedChanges(project: string): Promise<string[] | null> {
  if (!existsSync(project)) return null;
  const source = await realpath(project);
  const top = await git(source, ['rev-parse', '--show-toplevel'], { allowFail: true });
  if (top.exitCode !== 0 || top.stdout.trim() !== source) return null;
  const status = await git(source, ['status', '--porcelain', '--untracked-files=all'], { allowFail: true });
  if (status.exitCode !== 0) return null;
  return status.stdout.split('\n').filter(Boolean).map((line) => line.slice(3));
}

async function hashFolder(root: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name === '.git' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        hash.update(relative(root, path)).update('\0').update(String((await stat(path)).mode & 0o111 ? 'x' : '-'));
        hash.update(await readFile(path)).update('\0');
      }
    }
  };
  await walk(root);
  return hash.digest('hex');
}
