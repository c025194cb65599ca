import { execa } from 'execa';
import { itemRefOfFile } from './workflowItems.js';

export interface ChangedItems {
  /** The commit the revision names. */
  commit: string;
  /** Refs of the items whose files were added, changed or removed, sorted. */
  items: string[];
}

const FOLDERS = ['agents', 'commands', 'rules', 'skills'];

/**
 * The workflow items that differ between `rev` and the workflow folder as a run would snapshot
 * it now: committed changes since `rev`, changes not yet committed, and new files not ignored
 * (a run copies the folder as it is, not its last commit). Null when `rev` names no commit of
 * the folder's repository, or the folder is in none.
 */
export async function changedWorkflowItems(workflowDir: string, rev: string): Promise<ChangedItems | null> {
  const git = (args: string[]) => execa('git', ['-C', workflowDir, ...args], { reject: false });
  // `--end-of-options` keeps a REV such as `--output=x` from being read as an option.
  const resolved = await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  if (resolved.exitCode !== 0) return null;
  const commit = String(resolved.stdout).trim();
  const changed = await git(['diff', '--name-only', '--relative', '--no-renames', '-z', commit, '--', ...FOLDERS]);
  const untracked = await git(['ls-files', '--others', '--exclude-standard', '-z', '--', ...FOLDERS]);
  const files = [String(changed.stdout), String(untracked.stdout)].flatMap((out) => out.split('\0')).filter(Boolean);
  const items = new Set(files.map(itemRefOfFile).filter((ref): ref is string => ref !== null));
  return { commit, items: [...items].sort() };
}
