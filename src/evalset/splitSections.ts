/** One accepted `## ` section of a markdown file: its English heading first, then aliases. */
export interface SectionSpec<K extends string> {
  key: K;
  headings: readonly [string, ...string[]];
}

export interface SourceLine {
  text: string;
  /** 1-based line number in the file. */
  line: number;
}

export interface Section {
  /** The heading as written. */
  heading: string;
  line: number;
  body: SourceLine[];
}

/**
 * Split a markdown file into its `## ` sections. Headings match case-insensitively after
 * trimming. Every section in `specs` is required; an unknown or repeated heading is a problem,
 * because a misspelt heading would otherwise silently drop what the author wrote under it.
 * Text before the first `## ` (a title, notes for authors) and HTML comments are not parsed.
 */
export function splitSections<K extends string>(
  text: string,
  file: string,
  specs: readonly SectionSpec<K>[],
): { sections: Partial<Record<K, Section>>; problems: string[] } {
  const sections: Partial<Record<K, Section>> = {};
  const problems: string[] = [];
  let current: Section | undefined;
  let fence: string | undefined;

  for (const { text: lineText, line } of sourceLines(text)) {
    // `## ` inside a fenced code block is an example, not a heading.
    const fenceChar = /^ {0,3}(`{3,}|~{3,})/.exec(lineText)?.[1]?.[0];
    if (fenceChar !== undefined && (fence === undefined || fence === fenceChar)) fence = fence === undefined ? fenceChar : undefined;
    const heading = fence === undefined && fenceChar === undefined ? headingOf(lineText) : undefined;
    if (heading === undefined) {
      current?.body.push({ text: lineText, line });
      continue;
    }
    const spec = specs.find((candidate) => candidate.headings.some((h) => normalize(h) === normalize(heading)));
    current = { heading, line, body: [] };
    if (!spec) {
      problems.push(`${file}:${line}: unknown section "## ${heading}"; expected one of: ${specs.map(describeSpec).join(', ')}`);
    } else if (sections[spec.key]) {
      problems.push(`${file}:${line}: duplicate section "## ${heading}" (first at line ${sections[spec.key]?.line})`);
    } else {
      sections[spec.key] = current;
    }
  }

  for (const spec of specs) {
    if (!sections[spec.key]) problems.push(`${file}: missing section ${describeSpec(spec)}`);
  }
  return { sections, problems };
}

/** `"## Prompt" (or "## 题面")` */
export function describeSpec(spec: SectionSpec<string>): string {
  const [main, ...aliases] = spec.headings;
  const alias = aliases.length > 0 ? ` (or ${aliases.map((h) => `"## ${h}"`).join(', ')})` : '';
  return `"## ${main}"${alias}`;
}

/** The body lines as written, without leading and trailing blank lines, joined; '' when blank. */
export function bodyText(body: readonly SourceLine[]): string {
  const lines = body.map((l) => (l.text.trim() === '' ? '' : l.text));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

/** Lines with HTML comments blanked out, keeping line numbers. */
function sourceLines(text: string): SourceLine[] {
  const visible = text.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ''));
  return visible.split(/\r?\n/).map((lineText, index) => ({ text: lineText, line: index + 1 }));
}

function headingOf(line: string): string | undefined {
  const match = /^ {0,3}##(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
  return match ? (match[1] ?? '').trim() : undefined;
}

function normalize(heading: string): string {
  return heading.trim().replace(/\s+/g, ' ').toLowerCase();
}
