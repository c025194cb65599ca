import { fileURLToPath } from 'node:url';

/** A project or workflow repository given by its git URL, and the ref to pin (its HEAD when absent). */
export interface GitSource {
  /** The URL as git is given it, without the `#ref`. */
  url: string;
  ref?: string;
}

/** What `project` and `workflow_dir` accept besides a local path, for messages. */
export const GIT_URL_FORMS = 'a local path or a git URL (https://host/repo, ssh://host/repo, git@host:repo, file:///path), optionally ending in #ref';

const SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** scp-like `user@host:path`; a path with `@` and `:` before any `/` can only be meant as one. */
const SCP_LIKE = /^[^/\\]*@[^/\\]*:/;
const SCP = /^([A-Za-z0-9._-]+)@([A-Za-z0-9.-]+):(?!\/\/)(.+)$/;
const HEX_COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** Ref names as a user writes them (branch, tag, refs/…, a commit); nothing a shell or git option could read otherwise. */
const REF = /^(?!-)(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9._/+-]+(?<![./])$/;

/** True when `value` is meant as a git URL rather than a local path (it may still be a bad one). */
export function looksLikeGitUrl(value: string): boolean {
  return SCHEME.test(value) || SCP_LIKE.test(value);
}

/** `value` as a git source, or why it is not one (one phrase, for `<file>: <field>: …`). */
export function parseGitUrl(value: string): GitSource | { problem: string } {
  const bad = (why: string) => ({ problem: `expected ${GIT_URL_FORMS}, found '${value}' (${why})` });
  const hash = value.indexOf('#');
  const url = hash >= 0 ? value.slice(0, hash) : value;
  const ref = hash >= 0 ? value.slice(hash + 1) : undefined;
  if (ref !== undefined && !REF.test(ref)) return bad(`'${ref}' is not a ref name`);
  const withRef = (u: string): GitSource => ({ url: u, ...(ref !== undefined ? { ref } : {}) });
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (!scheme) {
    const scp = SCP.exec(url);
    if (!scp || /\s/.test(url)) return bad('an scp-like URL is user@host:path');
    return withRef(url);
  }
  if (!['https', 'ssh', 'file'].includes(scheme)) return bad(`scheme ${scheme}:// is not one git is fetched over here`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return bad('not a URL');
  }
  // The URL travels in the batch's input (Temporal's history) and the run's files.
  if (parsed.password) return bad('a password in the URL would be stored with every run; give it to git through a credential helper or an ssh key on each host');
  if (parsed.search) return bad('a query is not part of a git URL');
  if (scheme === 'file') {
    if (parsed.host && parsed.host !== 'localhost') return bad('a file URL is file:///absolute/path');
    if (parsed.pathname === '/' || parsed.pathname === '') return bad('no repository path');
    return withRef(url);
  }
  if (!parsed.hostname) return bad('no host');
  if (parsed.pathname === '/' || parsed.pathname === '') return bad('no repository path');
  return withRef(url);
}

/** `value` as a git source when it is meant as one; undefined for a local path. Throws nothing: a bad URL is the config's to refuse. */
export function gitSourceOf(value: string): GitSource | undefined {
  if (!looksLikeGitUrl(value)) return undefined;
  const parsed = parseGitUrl(value);
  return 'problem' in parsed ? undefined : parsed;
}

/** A full commit id: a pin that needs no asking the remote. */
export function isCommitId(ref: string): boolean {
  return HEX_COMMIT.test(ref);
}

/**
 * The folder on this host a source's URL names, when it names one (a local path, a file://
 * URL): a candidate must not read it, since it holds the history past the run's commit.
 */
export function localPathOfSource(value: string): string | undefined {
  if (!looksLikeGitUrl(value)) return value;
  const source = gitSourceOf(value);
  if (!source || !/^file:/i.test(source.url)) return undefined;
  try {
    return fileURLToPath(source.url);
  } catch {
    return undefined;
  }
}
