import type { ExampleSpec, RecentFile } from './schema.js';

/**
 * Write an example in Zed's Markdown format, as `to_markdown` does: TOML front
 * matter, `# name`, then Reasoning, Uncommitted Diff, Recently Opened/Viewed Files (when
 * set), Edit History (always), Cursor Position (always), Expected Patch (always) and
 * Rejected Patch (when set). Only the spec fields are written; pipeline state is not. One deliberate
 * difference: when a block's content has a line starting with ``` the fence is made longer
 * so the block survives (Zed would write a broken file).
 */
export function exampleToMarkdown(spec: ExampleSpec): string {
  let markdown = '+++\n';
  markdown += frontMatter(spec);
  markdown += '+++\n\n';
  markdown += `# ${spec.name}\n\n`;

  if (spec.reasoning !== undefined && spec.reasoning !== null) {
    markdown += '## Reasoning\n\n';
    markdown += spec.reasoning;
    if (!markdown.endsWith('\n')) markdown += '\n';
    markdown += '\n';
  }
  if (spec.uncommitted_diff !== '') {
    markdown += '## Uncommitted Diff\n\n';
    markdown = codeBlock(markdown, 'diff', spec.uncommitted_diff);
  }
  markdown = pathList(markdown, 'Recently Opened Files', spec.recently_opened_files);
  markdown = pathList(markdown, 'Recently Viewed Files', spec.recently_viewed_files);

  markdown += '## Edit History\n\n';
  if (spec.edit_history === '') markdown += '(No edit history)\n\n';
  else markdown = codeBlock(markdown, 'diff', spec.edit_history);

  markdown += '## Cursor Position\n\n';
  markdown = codeBlock(markdown, spec.cursor_path, spec.cursor_position);

  markdown += '## Expected Patch\n\n';
  for (const patch of spec.expected_patches) markdown = codeBlock(markdown, 'diff', patch);

  if (spec.rejected_patch !== undefined && spec.rejected_patch !== null) {
    markdown += '## Rejected Patch\n\n';
    markdown = codeBlock(markdown, 'diff', spec.rejected_patch);
  }
  return markdown;
}

function codeBlock(markdown: string, info: string, content: string): string {
  const longestRun = Math.max(2, ...Array.from(content.matchAll(/^ {0,3}(`{3,})/gm), (match) => (match[1] as string).length));
  const fence = '`'.repeat(longestRun + 1);
  let out = `${markdown}${fence}${info}\n${content}`;
  if (!out.endsWith('\n')) out += '\n';
  return `${out}${fence}\n\n`;
}

function pathList(markdown: string, heading: string, files: RecentFile[]): string {
  if (files.length === 0) return markdown;
  let out = `${markdown}## ${heading}\n\n\`\`\`\n`;
  for (const file of files) {
    out += file.path;
    if (file.cursor_position !== undefined && file.cursor_position !== null) out += `\t${file.cursor_position}`;
    out += '\n';
  }
  return `${out}\`\`\`\n\n`;
}

/** TOML as toml-rs `to_string_pretty` lays it out for these four keys. */
function frontMatter(spec: ExampleSpec): string {
  let toml = `repository_url = ${tomlString(spec.repository_url)}\n`;
  toml += `revision = ${tomlString(spec.revision)}\n`;
  if (spec.tags.length > 0) toml += `tags = [\n${spec.tags.map((tag) => `    ${tomlString(tag)},\n`).join('')}]\n`;
  if (spec.uncommitted_diff_contains_edit_history) toml += 'uncommitted_diff_requires_edit_history_rollback = true\n';
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
