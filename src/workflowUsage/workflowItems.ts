import { existsSync } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkflowFolder, WorkflowItemKind } from '../vocabulary/workflowUsage.js';

/** One item of a workflow snapshot, with the files that make it up. */
export interface WorkflowItem {
  /** `skills/node-test`, `agents/reviewer`, `commands/git/commit`. */
  ref: string;
  kind: WorkflowItemKind;
  /** What the agent calls it: the skill folder, the file name without `.md`. */
  name: string;
  folder: WorkflowFolder;
  /** Folder-relative paths of its files (`node-test/SKILL.md`), `/`-separated. */
  files: string[];
  /** Folder-relative path that stands for the item: the skill's folder, or the item's file. */
  path: string;
}

const KINDS = { agents: 'agent', commands: 'command', rules: 'rule', skills: 'skill' } as const satisfies Record<WorkflowFolder, WorkflowItemKind>;
const FOLDERS = Object.keys(KINDS) as WorkflowFolder[];

/**
 * The items of a workflow snapshot: each folder below `skills/` is one skill; each file below
 * `agents/`, `commands/` and `rules/` is one item, named by its path without the extension
 * (nested commands keep their folder, `git/commit`). Sorted by ref.
 */
export async function listWorkflowItems(snapshotDir: string): Promise<WorkflowItem[]> {
  const items: WorkflowItem[] = [];
  for (const folder of FOLDERS) {
    const dir = join(snapshotDir, folder);
    if (!existsSync(dir)) continue;
    const files = await filesBelow(dir);
    if (folder === 'skills') {
      const byName = new Map<string, string[]>();
      for (const file of files) {
        const [name, ...rest] = file.split('/');
        if (!name || rest.length === 0) continue; // a loose file beside the skill folders is no skill
        byName.set(name, [...(byName.get(name) ?? []), file]);
      }
      for (const [name, skillFiles] of byName) items.push({ ref: `skills/${name}`, kind: 'skill', name, folder, files: skillFiles, path: name });
    } else {
      for (const file of files) {
        const name = itemName(file);
        items.push({ ref: `${folder}/${name}`, kind: KINDS[folder], name, folder, files: [file], path: file });
      }
    }
  }
  return items.sort((a, b) => a.ref.localeCompare(b.ref));
}

/** An agent, command or rule is named by its folder-relative path without the extension. */
function itemName(file: string): string {
  return file.replace(/\.[^./]+$/, '');
}

/**
 * The item a workflow file belongs to (`skills/node-test/SKILL.md` → `skills/node-test`,
 * `commands/git/commit.md` → `commands/git/commit`), by the same rules as `listWorkflowItems`;
 * null outside the four folders or for a loose file beside the skill folders.
 */
export function itemRefOfFile(path: string): string | null {
  const [folder, ...rest] = path.split('/');
  // Hidden files are no part of a snapshot (filesBelow skips them).
  if (!folder || !(folder in KINDS) || rest.length === 0 || rest.some((part) => part.startsWith('.'))) return null;
  if (folder === 'skills') return rest.length > 1 && rest[0] ? `skills/${rest[0]}` : null;
  return `${folder}/${itemName(rest.join('/'))}`;
}

async function filesBelow(dir: string, prefix = ''): Promise<string[]> {
  const files: string[] = [];
  for (const name of (await readdir(dir)).sort()) {
    if (name.startsWith('.')) continue;
    const info = await lstat(join(dir, name));
    if (info.isDirectory()) files.push(...(await filesBelow(join(dir, name), `${prefix}${name}/`)));
    else if (info.isFile()) files.push(`${prefix}${name}`);
  }
  return files;
}
