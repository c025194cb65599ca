import { isCrlfThroughout } from './lineEndings.js';
import type { ExampleSpec, RecentFile } from './schema.js';

/**
 * Write an example in Zed's Markdown format, as `to_markdown` does: TOML front matter,
 * `# name`, then Reasoning, Uncommitted Diff, Recently Opened/Viewed Files (when set), Edit
 * History (always), Cursor Position (always), Expected Patch (always) and Rejected Patch (when
 * set). Only the spec fields are written; pipeline state is not. Block texts are written byte
 * for byte. The file's own lines end in LF, or in CRLF when every line of every block does (so
 * a CRLF file reads and writes back identically). One deliberate difference: when a block's
 * content has a line starting with ``` the fence is made longer so the block survives (Zed
 * would write a broken file).
 */
export function exampleToMarkdown(spec: ExampleSpec): string {
  const nl = markdownLineEnding(spec);
  let markdown = `+++${nl}`;
  markdown += frontMatter(spec, nl);
  markdown += `+++${nl}${nl}`;
  markdown += `# ${spec.name}${nl}${nl}`;

  if (spec.reasoning !== undefined && spec.reasoning !== null) {
    markdown += `## Reasoning${nl}${nl}`;
    markdown += spec.reasoning;
    if (!markdown.endsWith('\n')) markdown += nl;
    markdown += nl;
  }
  if (spec.uncommitted_diff !== '') {
    markdown += `## Uncommitted Diff${nl}${nl}`;
    markdown = codeBlock(markdown, 'diff', spec.uncommitted_diff, nl);
  }
  markdown = pathList(markdown, 'Recently Opened Files', spec.recently_opened_files, nl);
  markdown = pathList(markdown, 'Recently Viewed Files', spec.recently_viewed_files, nl);

  markdown += `## Edit History${nl}${nl}`;
  if (spec.edit_history === '') markdown += `(No edit history)${nl}${nl}`;
  else markdown = codeBlock(markdown, 'diff', spec.edit_history, nl);

  markdown += `## Cursor Position${nl}${nl}`;
  markdown = codeBlock(markdown, spec.cursor_path, spec.cursor_position, nl);

  markdown += `## Expected Patch${nl}${nl}`;
  for (const patch of spec.expected_patches) markdown = codeBlock(markdown, 'diff', patch, nl);

  if (spec.rejected_patch !== undefined && spec.rejected_patch !== null) {
    markdown += `## Rejected Patch${nl}${nl}`;
    markdown = codeBlock(markdown, 'diff', spec.rejected_patch, nl);
  }
  return markdown;
}

/** CRLF when the block texts have line ends and every one is a CRLF; LF otherwise (as Zed). */
function markdownLineEnding(spec: ExampleSpec): '\n' | '\r\n' {
  const blocks = [spec.uncommitted_diff, spec.edit_history, spec.cursor_position, ...spec.expected_patches, spec.rejected_patch ?? ''];
  const withLines = blocks.filter((block) => block.includes('\n'));
  return withLines.length > 0 && withLines.every(isCrlfThroughout) ? '\r\n' : '\n';
}

function codeBlock(markdown: string, info: string, content: string, nl: string): string {
  const longestRun = Math.max(2, ...Array.from(content.matchAll(/^ {0,3}(`{3,})/gm), (match) => (match[1] as string).length));
  const fence = '`'.repeat(longestRun + 1);
  let out = `${markdown}${fence}${info}${nl}${content}`;
  if (!out.endsWith('\n')) out += nl;
  return `${out}${fence}${nl}${nl}`;
}

function pathList(markdown: string, heading: string, files: RecentFile[], nl: string): string {
  if (files.length === 0) return markdown;
  let out = `${markdown}## ${heading}${nl}${nl}\`\`\`${nl}`;
  for (const file of files) {
    out += file.path;
    if (file.cursor_position !== undefined && file.cursor_position !== null) out += `\t${file.cursor_position}`;
    out += nl;
  }
  return `${out}\`\`\`${nl}${nl}`;
}

/** TOML as toml-rs `to_string_pretty` lays it out for these four keys. */
function frontMatter(spec: ExampleSpec, nl: string): string {
  let toml = `repository_url = ${tomlString(spec.repository_url)}${nl}`;
  toml += `revision = ${tomlString(spec.revision)}${nl}`;
  if (spec.tags.length > 0) toml += `tags = [${nl}${spec.tags.map((tag) => `    ${tomlString(tag)},${nl}`).join('')}]${nl}`;
  if (spec.uncommitted_diff_contains_edit_history) toml += `uncommitted_diff_requires_edit_history_rollback = true${nl}`;
  return toml;
}

function tomlString(value: string): string {
  const isControl = (char: string) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f;
  const chars = Array.from(value);
  // Literal strings when they avoid escapes (toml-rs prefers them), basic strings otherwise.
  if ((value.includes('"') || value.includes('\\')) && !chars.some((char) => char === "'" || isControl(char))) return `'${value}'`;
  const named: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
  const escaped = chars.map((char) => named[char] ?? (isControl(char) ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char)).join('');
  return `"${escaped}"`;
}
