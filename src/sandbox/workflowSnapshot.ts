import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { execa } from 'execa';
import { simpleGit } from 'simple-git';
import { SandboxError } from '../errors.js';
import { describePath, FOLDER } from './describePath.js';
import { ensureMirrorAt } from './gitMirror.js';
import { gitSourceOf, looksLikeGitUrl, parseGitUrl } from './gitUrl.js';

/**
 * The four folders a team's agent workflow consists of. Each run copies them into its run
 * directory, so old runs stay reproducible after the workflow changes (docs/architecture.md,
 * "Principles").
 */
export const WORKFLOW_FOLDERS = ['agents', 'commands', 'rules', 'skills'] as const;

export interface WorkflowSnapshot {
  dir: string;
  /** Git commit of the workflow repository (`+dirty` when those folders have local changes), else the content hash. */
  workflowRev: string;
  /** The workflow folders had changes not committed in their repository. */
  dirty: boolean;
  /** `sha256:…` of the snapshot's files: what two runs of one dirty rev can be told apart by. */
  contentHash: string;
  folders: string[];
  files: number;
  /** The workflow's git URL, when it was given as one (`workflowRev` is then the commit its batch pinned). */
  url?: string;
}

/**
 * Copies the workflow folders into the run directory and makes the copies read-only, so the
 * run keeps exactly what it ran with after the workflow changes.
 */
export async function snapshotWorkflow(workflowDir: string, targetDir: string): Promise<WorkflowSnapshot> {
  const problem = await checkWorkflowFolder(workflowDir);
  if (problem) throw new SandboxError(problem);
  const folders = WORKFLOW_FOLDERS.filter((f) => existsSync(join(workflowDir, f)));
  await mkdir(targetDir, { recursive: true });
  for (const folder of folders) {
    const dest = join(targetDir, folder);
    if (existsSync(dest)) continue; // a retried prepare keeps the first snapshot
    // Copied aside and renamed, so a crash mid-copy never leaves a partial folder that a
    // retry would keep as if it were the snapshot.
    const partial = join(targetDir, `.${folder}.partial`);
    await rm(partial, { recursive: true, force: true });
    await cp(join(workflowDir, folder), partial, { recursive: true });
    await rename(partial, dest);
  }
  const files = await listFiles(targetDir);
  for (const file of files) await chmod(join(targetDir, file), 0o444);
  const contentHash = await hashFiles(targetDir, files);
  const commit = await workflowCommit(workflowDir, folders);
  return {
    dir: targetDir,
    workflowRev: commit ? `${commit.head}${commit.dirty ? '+dirty' : ''}` : contentHash,
    dirty: commit?.dirty ?? false,
    contentHash,
    folders,
    files: files.length,
  };
}

/** Why `workflowDir` cannot be snapshotted, as one line naming it, or undefined when it can. */
export async function checkWorkflowFolder(workflowDir: string): Promise<string | undefined> {
  // A URL is read on each host, from its mirror; what can be checked here is its form.
  if (looksLikeGitUrl(workflowDir)) {
    const parsed = parseGitUrl(workflowDir);
    return 'problem' in parsed ? `workflow ${parsed.problem}` : undefined;
  }
  const expected = `expected a folder holding at least one of ${WORKFLOW_FOLDERS.map((folder) => `${folder}/`).join(', ')}`;
  const found = await describePath(workflowDir);
  if (found !== FOLDER) return `workflow folder ${workflowDir}: ${expected}, found ${found}`;
  const entries = (await readdir(workflowDir)).sort();
  if (WORKFLOW_FOLDERS.some((folder) => entries.includes(folder))) return undefined;
  if (entries.length === 0) return `workflow folder ${workflowDir}: ${expected}, found an empty folder`;
  // What the folder does hold shows whether the path points one level too high or too low.
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  return `workflow folder ${workflowDir}: ${expected}, found none of them (it holds ${shown})`;
}

/** The commit of the workflow folder's repository, and whether its workflow folders have local changes; null outside git. */
async function workflowCommit(workflowDir: string, folders: string[]): Promise<{ head: string; dirty: boolean } | null> {
  if (!(await mayBeInRepository(workflowDir))) return null;
  const repo = simpleGit(workflowDir);
  try {
    if (!(await repo.checkIsRepo())) return null;
    const head = (await repo.revparse(['HEAD'])).trim();
    const status = await repo.raw(['status', '--porcelain', '--', ...folders]);
    return { head, dirty: status.trim() !== '' };
  } catch {
    // not a repository, or no commit yet
    return null;
  }
}

/**
 * False when no folder from `dir` up holds a `.git` (and git is not pointed elsewhere by its
 * environment): git would find no repository either, so it need not be asked.
 */
async function mayBeInRepository(dir: string): Promise<boolean> {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined) return true;
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (existsSync(join(at, '.git'))) return true;
    if (dirname(at) === at) return false;
  }
}

async function hashFiles(snapshotDir: string, files: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(await readFile(join(snapshotDir, file))).update('\0');
  return `sha256:${hash.digest('hex').slice(0, 16)}`;
}

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if ((await stat(path)).isFile()) out.push(relative(root, path));
    }
  };
  await walk(root);
  return out;
}

/**
 * The workflow folders as they were at commit `rev` of `workflowDir`'s repository, copied
 * into the run directory with `git archive` (no checkout of the user's is touched). For an
 * A/B arm such as `workflow_rev=HEAD~1`. The snapshot's workflow_rev is the commit itself.
 */
export async function snapshotWorkflowAt(workflowDir: string, rev: string, targetDir: string): Promise<WorkflowSnapshot> {
  const top = await gitIn(workflowDir, ['rev-parse', '--show-toplevel']).catch(() => null);
  if (!top) throw new SandboxError(`workflow folder ${workflowDir}: a workflow revision (${rev}) was asked for, but the folder is not in a git repository`);
  const commit = await gitIn(workflowDir, ['rev-parse', '--verify', `${rev}^{commit}`]).catch(() => null);
  if (!commit) throw new SandboxError(`workflow folder ${workflowDir}: no commit ${rev} in its repository ${top}`);
  const prefix = relative(await realpathOf(top), await realpathOf(workflowDir));
  return extractWorkflowAt({ repo: workflowDir, commit, prefix, label: `workflow folder ${workflowDir} at ${rev}` }, targetDir);
}

/**
 * The workflow folders at the top of a repository given by URL, at `pinned`, the commit its
 * batch pinned, read from this host's mirror of it (gitMirror.ts): as `snapshotWorkflowAt`.
 */
export async function snapshotWorkflowFromUrl(value: string, pinned: string | undefined, stateDir: string, targetDir: string): Promise<WorkflowSnapshot> {
  const source = gitSourceOf(value);
  if (!source) throw new SandboxError(`workflow ${(parseGitUrl(value) as { problem: string }).problem}`);
  if (!pinned) throw new SandboxError(`workflow ${value}: a git URL needs the commit its batch pinned, and this run has none (started by an evalflow without git URLs?)`);
  const mirror = await ensureMirrorAt(stateDir, source.url, pinned, 'workflow');
  return { ...(await extractWorkflowAt({ repo: mirror, commit: pinned, prefix: '', label: `workflow ${source.url} at ${pinned}` }, targetDir)), url: source.url };
}

/** `git archive` of the workflow folders under `prefix` at `commit` of `repo`, into `targetDir`, read-only. */
async function extractWorkflowAt(from: { repo: string; commit: string; prefix: string; label: string }, targetDir: string): Promise<WorkflowSnapshot> {
  const { repo, commit, prefix } = from;
  const done = join(targetDir, '.complete');
  if (!existsSync(done)) {
    // Extracted aside and renamed, so a crash mid-way leaves nothing a retry would take for the snapshot.
    const partial = `${targetDir}.partial`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    const listed = (await gitIn(repo, ['ls-tree', '--name-only', commit, ...(prefix ? [`${prefix}/`] : [])])).split('\n').map((p) => p.split('/').pop()!);
    const folders = WORKFLOW_FOLDERS.filter((folder) => listed.includes(folder));
    if (folders.length === 0) throw new SandboxError(`${from.label}: none of ${WORKFLOW_FOLDERS.map((f) => `${f}/`).join(', ')} existed in that commit`);
    const archive = await execa('git', ['archive', '--format=tar', commit, '--', ...folders.map((f) => (prefix ? `${prefix}/${f}` : f))], { cwd: repo, encoding: 'buffer' });
    const strip = prefix ? prefix.split('/').length : 0;
    await execa('tar', ['-x', ...(strip ? [`--strip-components=${strip}`] : []), '-C', partial], { input: archive.stdout });
    await rm(targetDir, { recursive: true, force: true });
    await rename(partial, targetDir);
    const files = await listFiles(targetDir);
    for (const file of files) await chmod(join(targetDir, file), 0o444);
    await writeFile(done, commit);
  }
  const files = (await listFiles(targetDir)).filter((f) => f !== '.complete');
  return { dir: targetDir, workflowRev: commit, dirty: false, contentHash: await hashFiles(targetDir, files), folders: WORKFLOW_FOLDERS.filter((f) => existsSync(join(targetDir, f))), files: files.length };
}

async function gitIn(cwd: string, args: string[]): Promise<string> {
  return String((await execa('git', args, { cwd })).stdout).trim();
}

function realpathOf(path: string): Promise<string> {
  return realpath(path);
}
