import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError } from '../../errors.js';

/**
 * Where an example's repository comes from. Remote URLs (https, ssh, `git@host:owner/repo`)
 * are keyed `owner/repo` as Zed does; a local path or `file://` URL is keyed by its parent
 * folder and folder name, which is how tests and offline users point at a checkout.
 */
export type RepositoryLocation =
  | { kind: 'remote'; url: string; owner: string; name: string }
  | { kind: 'local'; url: string; path: string; owner: string; name: string };

/** Parse `repository_url`; relative local paths resolve against `cwd`. */
export function parseRepositoryUrl(url: string, cwd: string): RepositoryLocation {
  if (url.trim() === '') {
    throw new FormatError('repository_url: expected a repository URL or local path, found an empty string (is the front matter missing or unparsable?)');
  }
  if (url.startsWith('file://')) return localLocation(url, fileURLToPath(url));
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new FormatError(`repository_url: expected a valid URL, found ${JSON.stringify(url)}`);
    }
    const segments = parsed.pathname.split('/').filter((segment) => segment !== '');
    if (segments.length !== 2) {
      throw new FormatError(`repository_url: expected <host>/<owner>/<repo>, found ${JSON.stringify(url)}`);
    }
    return { kind: 'remote', url, owner: segments[0] as string, name: stripGit(segments[1] as string) };
  }
  const scp = /^[^/:@]+@[^/:]+:([^/]+)\/([^/]+?)\/?$/.exec(url);
  if (scp) return { kind: 'remote', url, owner: scp[1] as string, name: stripGit(scp[2] as string) };
  return localLocation(url, path.resolve(cwd, url));
}

function localLocation(url: string, absolute: string): RepositoryLocation {
  const normalized = absolute.replace(/\/+$/, '');
  return { kind: 'local', url, path: normalized, owner: path.basename(path.dirname(normalized)) || 'local', name: stripGit(path.basename(normalized)) };
}

function stripGit(name: string): string {
  return name.endsWith('.git') ? name.slice(0, -4) : name;
}
