import { withoutCr } from './lineEndings.js';

/**
 * A small block-level Markdown scanner, faithful to CommonMark for what the `ep` example
 * format needs: ATX and setext headings, paragraphs, fenced code blocks (``` or ~~~, any
 * length, info string, indented fences, unclosed fences running to the end), indented code
 * blocks, thematic breaks and HTML blocks (which hide their content, as in CommonMark).
 *
 * Limits (documented, deliberate): list items and block quotes are recognised only as
 * containers whose content is skipped, so a fenced block inside a list or quote is not seen;
 * inline markup is not parsed (heading and paragraph text is the raw text with backslash
 * escapes resolved, lines joined without a separator as pulldown-cmark's soft breaks are);
 * link reference definitions are treated as paragraphs; entities are not decoded.
 *
 * Line endings: lines end at LF, and a line's structure (fence, heading, blank) is read
 * without the CR of a CRLF line, so CRLF files parse as LF ones do; a fenced block's content
 * keeps every byte, CRs included (pulldown-cmark turns a CRLF there into LF). A lone CR does
 * not end a line.
 */
export type MarkdownBlock =
  | { kind: 'heading'; level: number; text: string; line: number }
  | { kind: 'paragraph'; text: string; line: number }
  | { kind: 'fencedCode'; info: string; content: string; line: number }
  | { kind: 'indentedCode'; line: number }
  | { kind: 'html'; line: number }
  | { kind: 'thematicBreak'; line: number }
  | { kind: 'container'; line: number };

/** Scan `text` into blocks; `firstLine` is the file line number of its first line. */
export function scanMarkdownBlocks(text: string, firstLine = 1): MarkdownBlock[] {
  const rawLines = text.split('\n');
  if (rawLines[rawLines.length - 1] === '') rawLines.pop();
  const lines = rawLines.map(withoutCr);
  const blocks: MarkdownBlock[] = [];
  let paragraph: { lines: string[]; line: number } | undefined;
  let container: { kind: 'list' | 'quote'; blankSeen: boolean } | undefined;

  const closeParagraph = () => {
    if (!paragraph) return;
    blocks.push({ kind: 'paragraph', text: inlineText(paragraph.lines), line: paragraph.line });
    paragraph = undefined;
  };

  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const lineNumber = firstLine + index;
    if (/^[ \t]*$/.test(line)) {
      closeParagraph();
      if (container) container.blankSeen = true;
      continue;
    }
    const indent = leadingColumns(line);
    const body = line.replace(/^[ \t]*/, '');

    if (container) {
      const continues =
        (container.kind === 'quote' && indent < 4 && body.startsWith('>')) ||
        (container.kind === 'list' && (indent >= 2 || (indent < 4 && listItem(body) !== undefined))) ||
        (!container.blankSeen && !startsBlock(body, indent));
      if (continues) {
        container.blankSeen = false;
        continue;
      }
      container = undefined;
    }

    if (indent >= 4) {
      if (paragraph) paragraph.lines.push(line);
      else blocks.push({ kind: 'indentedCode', line: lineNumber });
      continue;
    }

    const fence = /^(`{3,}|~{3,})(.*)$/.exec(body);
    if (fence && !(fence[1]?.startsWith('`') && fence[2]?.includes('`'))) {
      closeParagraph();
      const marker = fence[1] as string;
      const contentLines: string[] = [];
      let end = index + 1;
      for (; end < rawLines.length; end += 1) {
        const candidate = lines[end] as string;
        if (leadingColumns(candidate) < 4 && isClosingFence(candidate.replace(/^[ \t]*/, ''), marker)) break;
        contentLines.push(stripIndent(rawLines[end] as string, indent));
      }
      blocks.push({
        kind: 'fencedCode',
        info: unescapeBackslashes((fence[2] as string).trim()),
        content: contentLines.map((content) => `${content}\n`).join(''),
        line: lineNumber,
      });
      index = end;
      continue;
    }

    const atx = /^(#{1,6})(?:[ \t]+(.*))?$/.exec(body);
    if (atx) {
      closeParagraph();
      const content = (atx[2] ?? '').replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim();
      blocks.push({ kind: 'heading', level: (atx[1] as string).length, text: unescapeBackslashes(content), line: lineNumber });
      continue;
    }

    if (paragraph && /^(=+|-+)[ \t]*$/.test(body)) {
      blocks.push({ kind: 'heading', level: body.startsWith('=') ? 1 : 2, text: inlineText(paragraph.lines), line: paragraph.line });
      paragraph = undefined;
      continue;
    }

    if (isThematicBreak(body)) {
      closeParagraph();
      blocks.push({ kind: 'thematicBreak', line: lineNumber });
      continue;
    }

    const item = listItem(body);
    if (body.startsWith('>') || (item !== undefined && (!paragraph || item.canInterrupt))) {
      closeParagraph();
      container = { kind: body.startsWith('>') ? 'quote' : 'list', blankSeen: false };
      blocks.push({ kind: 'container', line: lineNumber });
      continue;
    }

    const html = htmlBlockStart(body);
    if (html !== undefined && !(html.type === 7 && paragraph)) {
      closeParagraph();
      let end = index;
      if (html.endsWith) {
        while (end < lines.length && !html.endsWith.test(lines[end] as string)) end += 1;
      } else {
        while (end + 1 < lines.length && !/^[ \t]*$/.test(lines[end + 1] as string)) end += 1;
      }
      blocks.push({ kind: 'html', line: lineNumber });
      index = end;
      continue;
    }

    if (paragraph) paragraph.lines.push(line);
    else paragraph = { lines: [line], line: lineNumber };
  }
  closeParagraph();
  return blocks;
}

/** Leading indentation in columns (a tab advances to the next multiple of 4). */
function leadingColumns(line: string): number {
  let columns = 0;
  for (const char of line) {
    if (char === ' ') columns += 1;
    else if (char === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

/** Remove up to `columns` columns of leading spaces/tabs (a fence's own indentation). */
function stripIndent(line: string, columns: number): string {
  let removed = 0;
  let at = 0;
  while (at < line.length && removed < columns) {
    const char = line[at];
    if (char === ' ') removed += 1;
    else if (char === '\t') removed += 4 - (removed % 4);
    else break;
    at += 1;
  }
  return line.slice(at);
}

function isClosingFence(body: string, opening: string): boolean {
  const char = opening[0] as string;
  const match = /^(`+|~+)[ \t]*$/.exec(body);
  return match !== null && (match[1] as string)[0] === char && (match[1] as string).length >= opening.length;
}

function isThematicBreak(body: string): boolean {
  return /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/.test(body);
}

function listItem(body: string): { canInterrupt: boolean } | undefined {
  const bullet = /^[-+*](?:[ \t]+(.*))?$/.exec(body);
  if (bullet) return { canInterrupt: (bullet[1] ?? '').trim() !== '' };
  const ordered = /^([0-9]{1,9})[.)](?:[ \t]+(.*))?$/.exec(body);
  if (ordered) return { canInterrupt: ordered[1] === '1' && (ordered[2] ?? '').trim() !== '' };
  return undefined;
}

/** Whether a line (outside a paragraph) would open a block other than a paragraph. */
function startsBlock(body: string, indent: number): boolean {
  return (
    indent >= 4 ||
    /^(`{3,}|~{3,})/.test(body) ||
    /^#{1,6}(?:[ \t]|$)/.test(body) ||
    isThematicBreak(body) ||
    body.startsWith('>') ||
    listItem(body) !== undefined ||
    (htmlBlockStart(body)?.type ?? 7) < 7
  );
}

const BLOCK_TAGS =
  'address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul';
const OPEN_TAG = /^<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*\/?>[ \t]*$/;
const CLOSE_TAG = /^<\/[A-Za-z][A-Za-z0-9-]*\s*>[ \t]*$/;

/** CommonMark HTML block start conditions 1–7; types 1–5 end at a marker, 6–7 at a blank line. */
function htmlBlockStart(body: string): { type: number; endsWith?: RegExp } | undefined {
  if (/^<(?:script|pre|style|textarea)(?:\s|>|$)/i.test(body)) return { type: 1, endsWith: /<\/(?:script|pre|style|textarea)>/i };
  if (body.startsWith('<!--')) return { type: 2, endsWith: /-->/ };
  if (body.startsWith('<?')) return { type: 3, endsWith: /\?>/ };
  if (/^<![A-Za-z]/.test(body)) return { type: 4, endsWith: />/ };
  if (body.startsWith('<![CDATA[')) return { type: 5, endsWith: /\]\]>/ };
  if (new RegExp(`^</?(?:${BLOCK_TAGS})(?:\\s|/?>|$)`, 'i').test(body)) return { type: 6 };
  if (OPEN_TAG.test(body) || CLOSE_TAG.test(body)) return { type: 7 };
  return undefined;
}

/** Paragraph/heading text as pulldown-cmark's Text events concatenate it. */
function inlineText(lines: string[]): string {
  return unescapeBackslashes(lines.map((line) => line.trim()).join(''));
}

function unescapeBackslashes(text: string): string {
  return text.replace(/\\([!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~])/g, '$1');
}
