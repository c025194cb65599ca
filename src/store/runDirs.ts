import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Where run dirs are kept relative to: the workspace, and the runs folder inside it. */
export interface RunDirAnchor {
  /** The workspace folder (the config file's folder): a run dir inside it is stored relative to it. */
  workspace: string;
  /** The folder run dirs are made in (`runs_dir`), to recognise rows written before they were relative. */
  runsDir: string;
}

/** How `runs.run_dir` is written and read. */
export interface RunDirs {
  /** What goes into the row: a path relative to the workspace when the dir is inside it, else the path as given. */
  toStored(runDir: string): string;
  /** The absolute run dir of a row, in this workspace. */
  fromStored(stored: string): string;
}

/**
 * The store keeps a run dir inside the workspace relative to it, so a moved or copied
 * workspace (store included) reads its own files, never those of the workspace it came from.
 *
 * Rows written before were absolute. One inside this workspace reads as it is; one outside it
 * that ends in this workspace's runs folder and the run's own folder (`…/runs/run-…`) was
 * written by the workspace this one was moved or copied from, and reads as the same folder
 * here. Any other absolute row (a runs folder outside every workspace) reads as it is.
 * Without an anchor (tests, scripts) paths are stored and read unchanged.
 */
export function runDirs(anchor: RunDirAnchor | undefined): RunDirs {
  if (!anchor) return { toStored: (dir) => dir, fromStored: (dir) => dir };
  const workspace = resolve(anchor.workspace);
  const runsInWorkspace = relative(workspace, resolve(anchor.runsDir));
  const runsInside = runsInWorkspace !== '' && !runsInWorkspace.startsWith('..') && !isAbsolute(runsInWorkspace);
  const inside = (dir: string) => {
    const rel = relative(workspace, dir);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : undefined;
  };
  return {
    toStored: (dir) => (isAbsolute(dir) ? (inside(dir)?.split(sep).join('/') ?? dir) : dir),
    fromStored(stored) {
      if (!isAbsolute(stored)) return join(workspace, stored);
      if (!runsInside || inside(stored) !== undefined) return stored;
      const tail = `${sep}${runsInWorkspace}${sep}`;
      const at = stored.lastIndexOf(tail);
      const name = at < 0 ? '' : stored.slice(at + tail.length);
      // Only the run's own folder, one name deep, straight under a runs folder of that name.
      return name !== '' && !name.includes(sep) ? join(workspace, runsInWorkspace, name) : stored;
    },
  };
}
