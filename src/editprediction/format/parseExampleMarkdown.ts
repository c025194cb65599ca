import { parse as parseToml } from 'smol-toml';
import * as z from 'zod';
import { FormatError } from '../../errors.js';
import { scanMarkdownBlocks } from './markdownBlocks.js';
import type { ExampleSpec, RecentFile } from './schema.js';
import { splitLines } from './lineEndings.js';
import { rustTrim, rustTrimStart } from './rustStr.js';

/** The paragraph that flags the next Edit History block as a prediction the user accepted. */
export const ACCEPTED_PREDICTION_MARKER = '// User accepted prediction:';

/** Front matter keys; anything else is ignored, and a mismatch ignores the whole block. */
export const FrontMatterSchema = z.object({
  repository_url: z.string(),
  revision: z.string(),
  tags: z.array(z.string()).default([]),
  uncommitted_diff_requires_edit_history_rollback: z.boolean().default(false),
});

type Section = 'start' | 'uncommittedDiff' | 'recentlyOpened' | 'recentlyViewed' | 'editHistory' | 'cursorPosition' | 'expectedPatch' | 'rejectedPatch' | 'other';

const SECTION_HEADINGS: Array<[string, Section]> = [
  ['uncommitted diff', 'uncommittedDiff'],
  ['recently opened files', 'recentlyOpened'],
  ['recently viewed files', 'recentlyViewed'],
  ['edit history', 'editHistory'],
  ['cursor position', 'cursorPosition'],
  ['expected patch', 'expectedPatch'],
  ['rejected patch', 'rejectedPatch'],
];

/**
 * Read an example in Zed's Markdown format (*Markdown files* in docs/edit-prediction.md).
 * `source` names the file in errors. The name is the H1 text, or "" when there is none (the
 * caller substitutes the file stem). Broken front matter is ignored, as Zed does; a missing
 * cursor block, an H5/H6 heading or an indented code block is an error. Block texts keep their
 * bytes, CRs included (Zed's Markdown parser turns a CRLF inside a block into LF).
 */
export function parseExampleMarkdown(markdown: string, source: string): ExampleSpec {
  const spec: ExampleSpec = {
    name: '',
    repository_url: '',
    revision: '',
    tags: [],
    reasoning: undefined,
    uncommitted_diff: '',
    recently_opened_files: [],
    recently_viewed_files: [],
    uncommitted_diff_contains_edit_history: false,
    cursor_path: '',
    cursor_position: '',
    edit_history: '',
    expected_patches: [],
    rejected_patch: undefined,
    telemetry: undefined,
    human_feedback: [],
    rating: undefined,
  };

  let body = markdown;
  let firstLine = 1;
  // Zed knows only `+++` LF; a CRLF file (`+++` CRLF) is read the same way.
  const open = /^\+\+\+\r?\n/.exec(markdown);
  if (open) {
    const rest = markdown.slice(open[0].length);
    const close = /\+\+\+\r?\n/.exec(rest);
    if (close) {
      applyFrontMatter(spec, rest.slice(0, close.index));
      const after = rest.slice(close.index + close[0].length);
      body = rustTrimStart(after);
      const consumed = markdown.length - body.length;
      firstLine = 1 + countNewlines(markdown.slice(0, consumed));
    }
  }

  let section: Section = 'start';
  let text = '';
  let nextIsPredicted = false;
  for (const block of scanMarkdownBlocks(body, firstLine)) {
    switch (block.kind) {
      case 'heading':
        if (block.level === 1) spec.name = block.text;
        else if (block.level === 2) section = sectionFor(block.text);
        else if (block.level > 4) {
          throw new FormatError(`${source}:${block.line}: Unexpected heading level: h${block.level} (expected # for the name, ## for a section, ### or #### for notes)`);
        }
        text = '';
        break;
      case 'paragraph':
        text = block.text;
        break;
      case 'html':
      case 'container':
        text = '';
        break;
      case 'thematicBreak':
        break;
      case 'indentedCode':
        throw new FormatError(`${source}:${block.line}: Unexpected indented codeblock (a line indented by 4 or more spaces outside a fenced block; put code inside \`\`\` fences)`);
      case 'fencedCode': {
        if (section === 'editHistory' && rustTrim(text) === ACCEPTED_PREDICTION_MARKER) nextIsPredicted = true;
        text = '';
        const content = block.content;
        if (section === 'uncommittedDiff') spec.uncommitted_diff = content;
        else if (section === 'recentlyOpened') spec.recently_opened_files = parsePathList(content);
        else if (section === 'recentlyViewed') spec.recently_viewed_files = parsePathList(content);
        else if (section === 'editHistory') {
          // The marker line ends as the block's first line does (CRLF in a CRLF block).
          if (nextIsPredicted) spec.edit_history += `${ACCEPTED_PREDICTION_MARKER}${/^[^\n]*\r\n/.test(content) ? '\r\n' : '\n'}`;
          nextIsPredicted = false;
          spec.edit_history += content;
        } else if (section === 'cursorPosition') {
          spec.cursor_path = rustTrim(block.info);
          spec.cursor_position = content;
        } else if (section === 'expectedPatch') spec.expected_patches.push(content);
        else if (section === 'rejectedPatch') spec.rejected_patch = content;
        break;
      }
    }
  }

  if (spec.cursor_path === '' || spec.cursor_position === '') {
    throw new FormatError(
      `${source}: Missing cursor position codeblock (expected a "## Cursor Position" section holding a fenced block whose info string is the cursor file path, e.g. \`\`\`src/main.rs)`,
    );
  }
  return spec;
}

function sectionFor(title: string): Section {
  // ASCII-case-insensitive, exact otherwise (as Rust's eq_ignore_ascii_case).
  const lowered = title.replace(/[A-Z]/g, (char) => char.toLowerCase());
  return SECTION_HEADINGS.find(([heading]) => heading === lowered)?.[1] ?? 'other';
}

function applyFrontMatter(spec: ExampleSpec, toml: string): void {
  let table: unknown;
  try {
    table = parseToml(toml);
  } catch {
    // Zed ignores front matter it cannot parse; keep repository_url and revision empty.
    return;
  }
  const parsed = FrontMatterSchema.safeParse(table);
  if (!parsed.success) return;
  spec.repository_url = parsed.data.repository_url;
  spec.revision = parsed.data.revision;
  spec.tags = parsed.data.tags;
  spec.uncommitted_diff_contains_edit_history = parsed.data.uncommitted_diff_requires_edit_history_rollback;
}

/** `path` or `path<TAB>offset` per line (split at the last tab); a bad offset keeps the path. */
export function parsePathList(text: string): RecentFile[] {
  return splitLines(text)
    .map((line) => rustTrim(line))
    .filter((line) => line !== '')
    .map((line) => {
      const tab = line.lastIndexOf('\t');
      if (tab === -1) return { path: line };
      const position = line.slice(tab + 1);
      const path = line.slice(0, tab);
      return /^\+?[0-9]+$/.test(position) ? { path, cursor_position: Number(position) } : { path };
    });
}

function countNewlines(text: string): number {
  let count = 0;
  for (const char of text) if (char === '\n') count += 1;
  return count;
}
