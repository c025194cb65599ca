import { spawnSync } from 'node:child_process';

/** What a user does when containment cannot work here. */
const NONE_HINT = 'or set `isolation: none` in evalflow.config.yaml to run candidates uncontained (recorded and shown with every result)';

let known: string | null | undefined;

/**
 * Why candidates cannot be contained on this host, as one line naming the cause and the fix,
 * or null when they can. Tried once per process with the namespaces a sandbox uses (a host
 * that refuses user namespaces fails here, not in the middle of a batch). Never throws.
 */
export function whyCannotContain(): string | null {
  if (known !== undefined) return known;
  known = probe();
  return known;
}

function probe(): string | null {
  if (process.platform !== 'linux') return `containment needs Linux (bubblewrap); this host runs ${process.platform}: ${NONE_HINT}`;
  const tried = spawnSync(
    'bwrap',
    ['--unshare-user', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--', '/bin/true'],
    { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const error = tried.error as NodeJS.ErrnoException | undefined;
  if (error?.code === 'ENOENT') return `bubblewrap (bwrap) is not installed: install it (\`apt-get install bubblewrap\` on Debian and Ubuntu, \`dnf install bubblewrap\` on Fedora), ${NONE_HINT}`;
  if (error) return `bubblewrap could not be started: ${error.message}; ${NONE_HINT}`;
  if (tried.status === 0) return null;
  const said = (tried.stderr ?? '').trim().split('\n').pop() ?? '';
  return `bubblewrap cannot make a sandbox on this host (${said || `exit ${tried.status ?? tried.signal}`}): user namespaces are probably refused (kernel.unprivileged_userns_clone, AppArmor's restrict_unprivileged_userns, or a container started without them); allow them, ${NONE_HINT}`;
}

/** For tests: forget what was found. */
export function forgetContainmentProbe(): void {
  known = undefined;
}
