import type { JudgeRubric } from './judgeInput.js';
import type { ReadAnswer } from './scoreSchema.js';

type AnswerItem = ReadAnswer['hard_requirements'][number];

/** The judge's hard items laid over the rubric's: one slot per rubric item, and any items beyond. */
export interface MatchedItems {
  /** `slots[i]` is the judge's answer for rubric item i, or undefined when it gave none. */
  slots: (AnswerItem | undefined)[];
  /** Items past the rubric's count, kept as the judge wrote them. */
  extra: AnswerItem[];
}

/**
 * Lays the judge's hard items over the rubric. The prompt numbers the items and asks for them
 * in order, so a full list is matched by position. A short list is matched by its item texts
 * when each names a different rubric item (a judge that skips item 2 leaves 2 missing, not 3);
 * otherwise by position, the missing ones last.
 */
export function matchHardRequirements(items: readonly AnswerItem[], rubric: JudgeRubric): MatchedItems {
  const expected = rubric.hard.length;
  if (items.length >= expected) return { slots: items.slice(0, expected), extra: items.slice(expected) };
  const byText = matchByText(items, rubric.hard);
  if (byText) return { slots: byText, extra: [] };
  return { slots: rubric.hard.map((_, index) => items[index]), extra: [] };
}

/** 1-based numbers of the rubric items the judge gave no answer for. */
export function missingItems(matched: MatchedItems): number[] {
  return matched.slots.flatMap((slot, index) => (slot === undefined ? [index + 1] : []));
}

/** `2. Edits only greet.go; 3. Runs the tests`: rubric items by number, as the prompt shows them (their final full stop dropped). */
export function describeItems(numbers: readonly number[], rubric: JudgeRubric): string {
  return numbers.map((n) => `${n}. ${(rubric.hard[n - 1] ?? '').replace(/[.\s]+$/, '')}`).join('; ');
}

function matchByText(items: readonly AnswerItem[], hard: readonly string[]): (AnswerItem | undefined)[] | undefined {
  const slots: (AnswerItem | undefined)[] = hard.map(() => undefined);
  const wanted = hard.map(normalize);
  for (const item of items) {
    const text = normalize(item.item);
    const index = wanted.findIndex((rubricText, i) => slots[i] === undefined && text !== '' && (rubricText.includes(text) || text.includes(rubricText)));
    if (index === -1) return undefined;
    slots[index] = item;
  }
  return slots;
}

/** Case, numbering, quotes and punctuation aside, as a model copying an item may change them. */
function normalize(text: string): string {
  return text
    .toLowerCase()
    .replace(/^\s*\d+[.)]\s*/, '')
    .replace(/[`'"“”‘’]/g, '')
    .replace(/[\s.,;:!?]+/g, ' ')
    .trim();
}
