/**
 * Reads the judge's top-level fields line by line, for answers the YAML parser rejects (most
 * often an unquoted colon). Produces the same loose shape a YAML parse would (strings, arrays
 * of strings, arrays of `{item, met, evidence}` strings), which `salvageAnswer` then checks
 * field by field. A key's section runs to the next top-level key; the last section of a
 * repeated key wins, as a model's final word.
 */

const TOP_KEYS = [
  'reasoning',
  'result',
  'compliance',
  'execution_quality',
  'overall',
  'summary',
  'hard_requirements',
  'suggestions',
] as const;
type TopKey = (typeof TOP_KEYS)[number];

const KEY_LINE = new RegExp(`^\\s*(${TOP_KEYS.join('|')})\\s*:(.*)$`);
const ITEM_FIELD_LINE = /^\s*(item|met|evidence)\s*:(.*)$/;
const LIST_ITEM_LINE = /^\s*-(?:\s+(.*)|\s*)$/;
const BLOCK_SCALAR = /^[|>][-+]?$/;

interface Section {
  inline: string;
  lines: string[];
}

export function readLineFields(text: string): Record<string, unknown> {
  const sections = new Map<TopKey, Section>();
  let current: Section | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const key = KEY_LINE.exec(line);
    if (key) {
      current = { inline: key[2] ?? '', lines: [] };
      sections.set(key[1] as TopKey, current);
    } else {
      current?.lines.push(line);
    }
  }

  const fields: Record<string, unknown> = {};
  for (const [key, section] of sections) {
    if (key === 'hard_requirements') fields[key] = listItems(section).map(hardItemFields);
    else if (key === 'suggestions') fields[key] = listItems(section).map((item) => scalar(item[0] ?? '', item.slice(1)));
    else fields[key] = scalar(section.inline, section.lines);
  }
  return fields;
}

/** The text of a scalar whose first line is `inline` and which may continue on `rest`. */
function scalar(inline: string, rest: string[]): string {
  const head = inline.trim();
  if (BLOCK_SCALAR.test(head)) return dedent(rest).join(head.startsWith('|') ? '\n' : ' ').trim();
  const joined = [head, ...rest.map((line) => line.trim())].filter((part) => part !== '').join(' ');
  return unquote(joined);
}

/**
 * Greedy on purpose: a broken answer often has an undoubled quote inside ('the candidate's
 * test'), so everything between the first and the last quote is kept.
 */
function unquote(value: string): string {
  if (value.startsWith("'")) {
    return value.replace(/'\s+#[^']*$/, "'").replace(/^'/, '').replace(/'$/, '').replace(/''/g, "'");
  }
  if (value.startsWith('"')) {
    return value
      .replace(/"\s+#[^"]*$/, '"')
      .replace(/^"/, '')
      .replace(/"$/, '')
      .replace(/\\n/g, '\n')
      .replace(/\\(["\\])/g, '$1');
  }
  return value.replace(/\s+#.*$/, '').trim();
}

/** Each list item as its lines: the text after `- ` first, then its continuation lines. */
function listItems(section: Section): string[][] {
  if (section.inline.trim() === '[]') return [];
  const items: string[][] = [];
  for (const line of section.lines) {
    const item = LIST_ITEM_LINE.exec(line);
    if (item) items.push([item[1] ?? '']);
    else if (line.trim() !== '') items[items.length - 1]?.push(line);
  }
  return items;
}

function hardItemFields(lines: string[]): Record<string, string> {
  const fields: Record<string, { inline: string; rest: string[] }> = {};
  let current: { inline: string; rest: string[] } | undefined;
  for (const line of lines) {
    const field = ITEM_FIELD_LINE.exec(line);
    if (field) {
      current = { inline: field[2] ?? '', rest: [] };
      fields[field[1] ?? ''] = current;
    } else {
      current?.rest.push(line);
    }
  }
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, scalar(value.inline, value.rest)]));
}

function dedent(lines: string[]): string[] {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^\s*/.exec(line)?.[0].length ?? 0);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(cut).trimEnd());
}
