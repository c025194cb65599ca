import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FormatError, SandboxError } from '../../errors.js';
import { decodeCursorExcerpt } from '../format/cursorMarkers.js';
import { replayEditHistory } from './editHistory.js';
import { runGit } from './git.js';
import { parseRepositoryUrl } from './repositoryLocation.js';
import { prepareWorktree } from './worktree.js';
import type { WorktreeOptions } from './worktree.js';
import type { EditEvent, ExampleSpec } from '../format/schema.js';
import { byteToIndex, indexToByte, matchIndices } from '../format/rustStr.js';
import { stripDiffPathPrefix } from './parseDiff.js';

export interface ReplayOptions extends WorktreeOptions {
  /** Relative local repository paths resolve against this directory (default: process cwd). */
  cwd?: string;
}

/** The buffer an example describes, rebuilt from its repository (*Replay* in docs/edit-prediction.md). */
export interface ReplayResult {
  worktree: string;
  commit: string;
  /** Repository-relative path of the cursor file as found in the worktree. */
  cursorPath: string;
  /** Full text of the cursor file after the uncommitted diff and the edit history (LF line ends). */
  cursorFileText: string;
  /** UTF-8 byte offset of the cursor in `cursorFileText`. */
  cursorOffset: number;
  /** The cursor excerpt of the example (marker removed) and where it starts in the file. */
  excerpt: string;
  excerptOffset: number;
  /** Edit history events, one per edited file section, in order. */
  events: EditEvent[];
}

/**
 * Rebuild the example's buffer: the repository at `revision` in a cached worktree, then the
 * uncommitted diff (`git apply`), then the edit history replayed in memory, then the cursor
 * excerpt located exactly once in the cursor file. Every failure names the example and step.
 */
export async function replayExample(spec: ExampleSpec, options: ReplayOptions): Promise<ReplayResult> {
  const name = spec.name || spec.cursor_path;
  const location = parseRepositoryUrl(spec.repository_url, options.cwd ?? process.cwd());
  if (spec.revision.trim() === '') throw new FormatError(`${name}: revision: expected a git revision, found an empty string`);
  const prepared = await prepareWorktree(location, spec.revision, options);

  if (spec.uncommitted_diff !== '') {
    const diff = stripDiffPathPrefix(spec.uncommitted_diff, location.name);
    try {
      await runGit(prepared.worktree, ['apply', '-'], diff);
    } catch (error) {
      throw new SandboxError(`${name}: uncommitted_diff does not apply at ${spec.revision}: ${(error as Error).message}`, { cause: error });
    }
  }

  const readWorktreeFile = async (relative: string): Promise<string | undefined> => {
    const absolute = path.resolve(prepared.worktree, relative);
    if (!absolute.startsWith(`${prepared.worktree}${path.sep}`)) return undefined;
    try {
      // Zed's buffers hold LF line endings whatever the file uses.
      return (await readFile(absolute, 'utf8')).replace(/\r\n/g, '\n');
    } catch {
      return undefined;
    }
  };
  const history = await replayEditHistory(spec.edit_history, location.name, readWorktreeFile, name);

  const { cursorPath, text } = await openCursorFile(spec.cursor_path, location.name, history.buffers, readWorktreeFile, name, spec.revision);
  let decoded: { excerpt: string; offset: number };
  try {
    decoded = decodeCursorExcerpt(spec.cursor_position);
  } catch (error) {
    throw new FormatError(`${name}: ${(error as Error).message}`, undefined, { cause: error });
  }
  const { excerpt, offset } = decoded;
  const matches = matchIndices(text, excerpt);
  if (matches.length === 0) {
    throw new FormatError(`${name}: Cursor excerpt did not exist in buffer ${cursorPath} (after the edit history); the excerpt was:\n${excerpt}`);
  }
  if (matches.length > 1) {
    throw new FormatError(`${name}: More than one cursor position match found: the excerpt occurs ${matches.length} times in ${cursorPath}; include more lines around the cursor`);
  }
  const excerptOffset = indexToByte(text, matches[0] as number);
  // Keep the cursor on a character boundary even when an unclamped `<` column spills over.
  const cursorOffset = indexToByte(text, byteToIndex(text, excerptOffset + offset));
  return { worktree: prepared.worktree, commit: prepared.commit, cursorPath, cursorFileText: text, cursorOffset, excerpt, excerptOffset, events: history.events };
}

async function openCursorFile(
  cursorPath: string,
  repoName: string,
  buffers: Map<string, string>,
  readWorktreeFile: (relative: string) => Promise<string | undefined>,
  name: string,
  revision: string,
): Promise<{ cursorPath: string; text: string }> {
  const withoutFirst = cursorPath.split('/').slice(1).join('/');
  const candidates = withoutFirst === '' ? [cursorPath] : [cursorPath, withoutFirst];
  for (const candidate of candidates) {
    const text = buffers.get(candidate);
    if (text !== undefined) return { cursorPath: candidate, text };
  }
  for (const candidate of candidates) {
    const text = await readWorktreeFile(candidate);
    if (text !== undefined) return { cursorPath: candidate, text };
  }
  throw new FormatError(`${name}: cursor_path ${JSON.stringify(cursorPath)} does not exist in ${repoName} at ${revision}, nor was it created by the edit history`);
}
