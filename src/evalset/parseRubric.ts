import { MAX_HARD_REQUIREMENTS } from './schema.js';
import type { Rubric } from './schema.js';
import { splitSections } from './splitSections.js';
import type { Section, SectionSpec } from './splitSections.js';

export const RUBRIC_SECTIONS = [
  { key: 'hard', headings: ['Hard requirements', '硬性通过项'] },
  { key: 'quality', headings: ['Quality', '质量项'] },
  { key: 'commonFailures', headings: ['Common failures', '典型失分项'] },
] as const satisfies readonly SectionSpec<keyof Rubric>[];

/**
 * Parse rubric.md. All three headings are required. Hard requirements hold 1 to 5 list items
 * (all must hold to pass); Quality and Common failures may be empty. Each section holds list
 * items only (`-`, `*`, `+` or `1.`): the judge receives the items, so free text under a
 * heading would be lost and is reported instead. A bullet may span several lines (indented or
 * lazy continuation lines, nested bullets); they are joined with spaces.
 */
export function parseRubric(text: string, file: string): { rubric?: Rubric; problems: string[] } {
  const { sections, problems } = splitSections(text, file, RUBRIC_SECTIONS);
  const items = (key: keyof Rubric) => {
    const section = sections[key];
    const name = RUBRIC_SECTIONS.find((spec) => spec.key === key)?.headings[0] ?? key;
    return section ? listItems(section, file, name, problems) : undefined;
  };
  const hard = items('hard');
  const quality = items('quality');
  const commonFailures = items('commonFailures');

  if (hard && sections.hard && (hard.length === 0 || hard.length > MAX_HARD_REQUIREMENTS)) {
    problems.push(
      `${file}:${sections.hard.line}: Hard requirements: expected 1 to ${MAX_HARD_REQUIREMENTS} list items, found ${hard.length}`,
    );
  }
  if (problems.length > 0 || !hard || !quality || !commonFailures) return { problems };
  return { rubric: { hard, quality, commonFailures }, problems };
}

const ITEM_START = /^ ?(?:[-*+]|\d{1,9}[.)])(?:[ \t]+(.*))?$/;

function listItems(section: Section, file: string, name: string, problems: string[]): string[] {
  const items: { parts: string[]; line: number }[] = [];
  let current: string[] | undefined;
  let afterBlank = false;
  for (const { text, line } of section.body) {
    if (text.trim() === '') {
      afterBlank = true;
      continue;
    }
    const start = ITEM_START.exec(text);
    const indented = /^(?: {2,}|\t)/.test(text);
    if (start) {
      current = [start[1] ?? ''];
      items.push({ parts: current, line });
    } else if (current && (indented || !afterBlank)) {
      current.push(text);
    } else {
      problems.push(
        `${file}:${line}: ${name}: expected a list item ("- ...", "* ..." or "1. ..."), found ${JSON.stringify(text.trim())}`,
      );
    }
    afterBlank = false;
  }
  const joined: string[] = [];
  for (const { parts, line } of items) {
    const item = parts.map((part) => part.trim()).filter((part) => part !== '').join(' ');
    if (item === '') problems.push(`${file}:${line}: ${name}: empty list item; expected text`);
    else joined.push(item);
  }
  return joined;
}
