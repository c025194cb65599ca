import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FolderPlacement, WorkflowFolder, WorkflowPlacement } from '../vocabulary/workflowUsage.js';
import type { WorkflowSupport } from '../workflowUsage/workflowSupport.js';
import { WORKFLOW_FOLDERS } from './workflowSnapshot.js';

export interface PlacedWorkflow {
  placement: WorkflowPlacement;
  /** Sandbox-relative paths evalflow put there, for hiding them from git. */
  placed: string[];
}

/**
 * Places the run's workflow snapshot where the candidate discovers it by itself: each folder
 * the agent knows natively is linked there (`skills/` → `.claude/skills`), the folders it has
 * no place for are inlined into one generated context file (`AGENTS.md`), and an agent with
 * no discovery at all gets the whole snapshot linked at one path. Returns where each folder
 * went, recorded per run: an inlined skill cannot show whether it was triggered.
 */
export async function placeWorkflow(sandboxDir: string, snapshotDir: string, adapter: string, support: WorkflowSupport): Promise<PlacedWorkflow> {
  const present = WORKFLOW_FOLDERS.filter((folder) => existsSync(join(snapshotDir, folder)));
  const folders: FolderPlacement[] = [];
  const placed: string[] = [];
  if (support.linkedAt) {
    await linkDir(join(sandboxDir, support.linkedAt), snapshotDir);
    placed.push(support.linkedAt);
    for (const folder of present) folders.push({ folder, mode: 'linked', path: `${support.linkedAt}/${folder}` });
    return { placement: { adapter, folders }, placed };
  }
  const inlined: WorkflowFolder[] = [];
  for (const folder of present) {
    const path = support.native[folder];
    if (path === undefined) {
      inlined.push(folder);
      continue;
    }
    await linkDir(join(sandboxDir, path), join(snapshotDir, folder));
    placed.push(path);
    folders.push({ folder, mode: 'native', path });
  }
  if (inlined.length > 0) {
    const target = join(sandboxDir, support.contextFile);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, await renderWorkflowDocument(snapshotDir, inlined));
    placed.push(support.contextFile);
    for (const folder of inlined) folders.push({ folder, mode: 'inlined', path: support.contextFile });
  }
  return { placement: { adapter, folders: folders.sort((a, b) => a.folder.localeCompare(b.folder)) }, placed };
}

/** A symlink at `target` to `source`; the project's own copy (if any) is replaced for this run only (git sees it as excluded). */
async function linkDir(target: string, source: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  if (await isSymlinkTo(target, source)) return;
  if (existsSync(target) || (await isSymlink(target))) await rm(target, { recursive: true, force: true });
  await symlink(source, target, 'dir');
}

async function isSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

async function isSymlinkTo(path: string, source: string): Promise<boolean> {
  return (await isSymlink(path)) && (await readlink(path)) === source;
}

/**
 * One Markdown document with every file of the given folders of the snapshot, for agents
 * that read a single file. Nested folders count (skills live in `skills/<name>/SKILL.md`);
 * files are sorted by path.
 */
export async function renderWorkflowDocument(snapshotDir: string, folders: readonly WorkflowFolder[] = WORKFLOW_FOLDERS): Promise<string> {
  const parts = ['# Team workflow', '', 'These are the team\'s agents, commands, rules and skills. Follow them.', ''];
  for (const folder of WORKFLOW_FOLDERS.filter((f) => folders.includes(f))) {
    const dir = join(snapshotDir, folder);
    if (!existsSync(dir)) continue;
    for (const file of (await filesBelow(dir)).sort()) {
      parts.push(`## ${folder}/${file}`, '', (await readFile(join(dir, file), 'utf8')).trim(), '');
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

/** Regular files below `dir`, as `/`-separated relative paths; symlinks are not followed. */
async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const name of await readdir(dir)) {
    const info = await lstat(join(dir, name));
    if (info.isDirectory()) files.push(...(await filesBelow(join(dir, name), `${prefix}${name}/`)));
    else if (info.isFile()) files.push(`${prefix}${name}`);
  }
  return files;
}
