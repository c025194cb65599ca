import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FormatError, SandboxError } from '../../errors.js';
import { decodeCursorExcerpt } from '../format/cursorMarkers.js';
import type { CursorExcerpt } from '../format/cursorMarkers.js';
import { normalizeLineEndings } from '../format/lineEndings.js';
import type { EditEvent, ExampleSpec } from '../format/schema.js';
import { replayEditHistory } from './editHistory.js';
import { runGit } from './git.js';
import { locateCursor } from './locateCursor.js';
import { stripDiffPathPrefix } from './parseDiff.js';
import { parseRepositoryUrl } from './repositoryLocation.js';
import { prepareWorktree } from './worktree.js';
import type { WorktreeOptions } from './worktree.js';

export interface ReplayOptions extends WorktreeOptions {
  /** Relative local repository paths resolve against this directory (default: process cwd). */
  cwd?: string;
}

/**
 * How the repository's files were read: `asIs`, their bytes; `normalized`, with every CRLF and
 * lone CR as LF, as Zed's editor buffers hold them (only when the example matches no other way).
 */
export type ReplayLineEndings = 'asIs' | 'normalized';

/** The buffer an example describes, rebuilt from its repository (*Replay* in docs/edit-prediction.md). */
export interface ReplayResult {
  worktree: string;
  commit: string;
  /** Repository-relative path of the cursor file as found in the worktree. */
  cursorPath: string;
  /** Full text of the cursor file after the uncommitted diff and the edit history, line endings as `lineEndings` says. */
  cursorFileText: string;
  /** UTF-8 byte offset of the cursor in `cursorFileText`. */
  cursorOffset: number;
  /** The cursor excerpt of the example (marker removed) and where it starts in the file. */
  excerpt: string;
  excerptOffset: number;
  /** Edit history events, one per edited file section, in order. */
  events: EditEvent[];
  lineEndings: ReplayLineEndings;
}

/**
 * Rebuild the example's buffer: the repository at `revision` in a cached worktree, then the
 * uncommitted diff (`git apply`), then the edit history replayed in memory, then the cursor
 * excerpt located exactly once in the cursor file. Files are read byte for byte; when the
 * example does not match them and one of them has CRs, the history and cursor are tried once
 * more on the files with their line endings normalised to LF (what an example captured by
 * Zed, whose buffers are LF, was written against). Every failure names the example and step.
 */
export async function replayExample(spec: ExampleSpec, options: ReplayOptions): Promise<ReplayResult> {
  const name = spec.name || spec.cursor_path;
  const location = parseRepositoryUrl(spec.repository_url, options.cwd ?? process.cwd());
  if (spec.revision.trim() === '') throw new FormatError(`${name}: revision: expected a git revision, found an empty string`);
  let decoded: CursorExcerpt;
  try {
    decoded = decodeCursorExcerpt(spec.cursor_position);
  } catch (error) {
    throw new FormatError(`${name}: ${(error as Error).message}`, undefined, { cause: error });
  }
  const prepared = await prepareWorktree(location, spec.revision, options);

  if (spec.uncommitted_diff !== '') {
    const diff = stripDiffPathPrefix(spec.uncommitted_diff, location.name);
    try {
      await runGit(prepared.worktree, ['apply', '-'], diff);
    } catch (error) {
      throw new SandboxError(`${name}: uncommitted_diff does not apply at ${spec.revision}: ${(error as Error).message}`, { cause: error });
    }
  }

  let sawCarriageReturn = false;
  const rebuild = async (lineEndings: ReplayLineEndings) => {
    const readWorktreeFile = async (relative: string): Promise<string | undefined> => {
      const absolute = path.resolve(prepared.worktree, relative);
      if (!absolute.startsWith(`${prepared.worktree}${path.sep}`)) return undefined;
      let content: string;
      try {
        content = await readFile(absolute, 'utf8');
      } catch {
        return undefined;
      }
      if (content.includes('\r')) sawCarriageReturn = true;
      return lineEndings === 'normalized' ? normalizeLineEndings(content) : content;
    };
    const history = await replayEditHistory(spec.edit_history, location.name, readWorktreeFile, name);
    const { cursorPath, text } = await openCursorFile(spec.cursor_path, location.name, history.buffers, readWorktreeFile, name, spec.revision);
    const { excerptOffset, cursorOffset } = locateCursor(text, decoded, cursorPath, name);
    return { cursorPath, cursorFileText: text, cursorOffset, excerptOffset, events: history.events, lineEndings };
  };

  let rebuilt: Awaited<ReturnType<typeof rebuild>>;
  try {
    rebuilt = await rebuild('asIs');
  } catch (error) {
    if (!(error instanceof FormatError) || !sawCarriageReturn) throw error;
    try {
      rebuilt = await rebuild('normalized');
    } catch {
      // Normalising did not help either: the error about the files as they are is the one to fix.
      throw error;
    }
  }
  return { worktree: prepared.worktree, commit: prepared.commit, excerpt: decoded.excerpt, ...rebuilt };
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
