import { FormatError } from '../../errors.js';
import { ACCEPTED_PREDICTION_MARKER } from '../format/parseExampleMarkdown.js';
import type { EditEvent } from '../format/schema.js';
import { splitLines } from '../format/lineEndings.js';
import { matchIndices, rustTrim } from '../format/rustStr.js';
import { parseDiff, parseDiffLine } from './parseDiff.js';
import type { Hunk } from './parseDiff.js';
import { unifiedDiff } from './unifiedDiff.js';

/** Reads a repository-relative file of the worktree; `undefined` when it does not exist. */
export type ReadWorktreeFile = (relativePath: string) => Promise<string | undefined>;

export interface ReplayedHistory {
  /** Every buffer the history opened, by repository-relative path, after all edits. */
  buffers: Map<string, string>;
  /** One event per edited file section, as Zed's edit-prediction store records them. */
  events: EditEvent[];
}

/**
 * Replay an edit history into buffers (step 3 of *Replay* in docs/edit-prediction.md). Each
 * `--- a/<path>` section opens
 * its buffer (the path may carry the repository name as first component); every hunk's
 * context must occur exactly once in the buffer as it was when the section began; all the
 * section's edits then apply together, and a new path renames the buffer. Sections build on
 * each other. A section preceded by the accepted-prediction marker yields a `predicted`
 * event (an evalflow reading of the marker; Zed's replay treats it as a plain separator).
 */
export async function replayEditHistory(history: string, repoName: string, readFile: ReadWorktreeFile, example: string): Promise<ReplayedHistory> {
  const buffers = new Map<string, string>();
  const events: EditEvent[] = [];
  const predictedSections = acceptedSections(history);
  let section: { path: string; before: string; edits: Array<{ start: number; end: number; text: string }> } | undefined;
  let sectionIndex = 0;

  for (const event of parseDiff(history)) {
    if (event.kind === 'hunk') {
      if (!section) {
        const resolved = await openBuffer(event.path, event.status === 'created', buffers, repoName, readFile, example);
        section = { path: resolved, before: buffers.get(resolved) ?? '', edits: [] };
      }
      const offset = locateHunk(section.before, event.hunk, example, section.path);
      for (const edit of event.hunk.edits) section.edits.push({ start: offset + edit.start, end: offset + edit.end, text: edit.text });
      continue;
    }
    const predicted = predictedSections[sectionIndex] ?? false;
    sectionIndex += 1;
    if (!section) continue;
    let after = section.before;
    for (const edit of [...section.edits].sort((left, right) => right.start - left.start)) {
      after = after.slice(0, edit.start) + edit.text + after.slice(edit.end);
    }
    let path = section.path;
    if (event.renamedTo !== undefined && event.newPath !== '/dev/null') {
      buffers.delete(path);
      path = stripRepoName(event.renamedTo, repoName);
    }
    buffers.set(path, after);
    const diff = unifiedDiff(section.before, after);
    if (diff !== '') {
      events.push({ event: 'BufferChange', path: `${repoName}/${path}`, old_path: `${repoName}/${section.path}`, diff, predicted, in_open_source_repo: false });
    }
    section = undefined;
  }
  return { buffers, events };
}

/** The buffer for `diffPath`: already open, else read from the worktree, else new if created. */
async function openBuffer(
  diffPath: string,
  created: boolean,
  buffers: Map<string, string>,
  repoName: string,
  readFile: ReadWorktreeFile,
  example: string,
): Promise<string> {
  const candidates = [diffPath, stripRepoName(diffPath, repoName)];
  for (const candidate of candidates) if (buffers.has(candidate)) return candidate;
  for (const candidate of candidates) {
    const content = await readFile(candidate);
    if (content !== undefined) {
      buffers.set(candidate, content);
      return candidate;
    }
  }
  if (created) {
    const path = stripRepoName(diffPath, repoName);
    buffers.set(path, '');
    return path;
  }
  throw new FormatError(`${example}: edit_history edits ${diffPath}, which does not exist in the repository at this revision`);
}

/** Where the hunk's context occurs in `text`: exactly once, or an error naming the hunk. */
function locateHunk(text: string, hunk: Hunk, example: string, path: string): number {
  if (hunk.context === '') return 0;
  const found = matchIndices(text, hunk.context);
  const where = `${example}: edit_history line ${hunk.diffLine} (${path})`;
  if (found.length === 0) throw new FormatError(`${where}: Failed to match context; expected these lines in the file:\n${hunk.context}`);
  if (found.length > 1) {
    throw new FormatError(`${where}: Context is not unique enough (found ${found.length} times); add context lines to the hunk:\n${hunk.context}`);
  }
  return found[0] as number;
}

/** For each `--- ` file section in order, whether the accepted-prediction marker precedes it. */
function acceptedSections(history: string): boolean[] {
  const lines = splitLines(history);
  const flags: boolean[] = [];
  lines.forEach((line, index) => {
    if (parseDiffLine(line).kind === 'oldPath') flags.push(index > 0 && rustTrim(lines[index - 1] as string) === ACCEPTED_PREDICTION_MARKER);
  });
  return flags;
}

function stripRepoName(path: string, repoName: string): string {
  return path.startsWith(`${repoName}/`) ? path.slice(repoName.length + 1) : path;
}
