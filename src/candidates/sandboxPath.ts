import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Resolve a path the builtin agent asked for, confined to the sandbox: relative paths are
 * taken from the sandbox root; absolute paths must already be inside it; `..` may not climb
 * out; and the nearest existing ancestor, with symlinks resolved, must still be inside (a link
 * that points elsewhere is refused). Throws an Error whose message is meant for the model.
 * `readableLinks` are sandbox-relative links evalflow placed (the workflow's skills): reading
 * through them is allowed, as long as the path stays inside the link's own target.
 */
export async function resolveInSandbox(sandboxDir: string, requested: string, readableLinks: readonly string[] = []): Promise<string> {
  if (requested.includes('\0')) throw new Error('the path contains a NUL byte');
  const root = resolve(sandboxDir);
  const realRoot = await realpath(root);
  const wanted = resolve(root, requested === '' ? '.' : requested);
  if (!isInside(root, wanted) && !isInside(realRoot, wanted)) {
    throw new Error(`${requested} is outside the sandbox; use a path relative to the project root`);
  }
  let probe = wanted;
  while (!(await exists(probe))) {
    const parent = dirname(probe);
    if (parent === probe) break;
    probe = parent;
  }
  const real = await realpath(probe);
  for (const link of readableLinks) {
    const linkPath = resolve(root, link);
    if (!isInside(linkPath, wanted) || !(await exists(linkPath))) continue;
    if (isInside(await realpath(linkPath), real)) return wanted;
  }
  if (!isInside(realRoot, real)) throw new Error(`${requested} leads outside the sandbox through a symbolic link`);
  return wanted;
}

/** The path as the agent should see it: relative to the sandbox root. */
export function sandboxRelative(sandboxDir: string, path: string): string {
  return relative(resolve(sandboxDir), path) || '.';
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
