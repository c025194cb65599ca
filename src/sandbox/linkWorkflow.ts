import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { WorkflowLink } from '../candidates/adapter.js';
import { WORKFLOW_FOLDERS } from './workflowSnapshot.js';

/**
 * Places the run's workflow snapshot where the candidate looks for it: a symlink to the
 * snapshot folder (`.claude/` and friends) or one generated file (`AGENTS.md`) that inlines
 * it. Returns the sandbox-relative paths placed, for hiding them from git.
 */
export async function linkWorkflow(sandboxDir: string, snapshotDir: string, links: WorkflowLink[]): Promise<string[]> {
  const placed: string[] = [];
  for (const link of links) {
    const target = join(sandboxDir, link.path);
    await mkdir(dirname(target), { recursive: true });
    if (link.kind === 'dir') {
      if (await isOurSymlink(target)) {
        placed.push(link.path);
        continue;
      }
      // The project's own copy (if any) is replaced for this run only; git sees it as excluded.
      if (existsSync(target)) await rm(target, { recursive: true, force: true });
      await symlink(snapshotDir, target, 'dir');
    } else {
      await writeFile(target, await renderWorkflowDocument(snapshotDir));
    }
    placed.push(link.path);
  }
  return placed;
}

async function isOurSymlink(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * One Markdown document with every file of the snapshot, for agents that read a single file.
 * Nested folders count (skills live in `skills/<name>/SKILL.md`); files are sorted by path.
 */
export async function renderWorkflowDocument(snapshotDir: string): Promise<string> {
  const parts = ['# Team workflow', '', 'These are the team\'s agents, commands, rules and skills. Follow them.', ''];
  for (const folder of WORKFLOW_FOLDERS) {
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
