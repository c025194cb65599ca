import { VerdictResultSchema } from '../vocabulary/verdictResult.js';
import { type ReadAnswer } from './scoreSchema.js';
import { suggestionTag } from '../vocabulary/suggestions.js';

/** The three scores, in the order the answer lists them. */
const SCORE_FIELDS = ['compliance', 'execution_quality', 'overall'] as const;
const LEADING_NUMBER = /^\s*(-?\d+(?:\.\d+)?)/;

/**
 * Recover a judge answer field by field from a loose record (a YAML document that failed the
 * schema, or the fields `readLineFields` found). Returns undefined when neither `result` nor
 * any score can be read: then nothing of a verdict is left. Everything else degrades with a
 * note: a missing result is null (a person decides), a missing score becomes 0, a hard item
 * whose `met` is unreadable is not assessed (the judge's slip, not the candidate's fail), and a
 * suggestion without a valid tag is dropped.
 */
export function salvageAnswer(loose: Record<string, unknown>, notes: string[]): ReadAnswer | undefined {
  const result = readResult(loose.result);
  const found = SCORE_FIELDS.map((field) => [field, readNumber(loose[field])] as const);
  if (result === undefined && found.every(([, value]) => value === undefined)) return undefined;
  if (result === undefined) notes.push('salvage: result not found in the judge answer; left for a person to decide');

  const scores = Object.fromEntries(
    found.map(([field, value]) => {
      if (value === undefined) notes.push(`salvage: ${field} not found in the judge answer; set to 0`);
      return [field, value ?? 0];
    }),
  ) as Record<(typeof SCORE_FIELDS)[number], number>;

  return {
    reasoning: readText(loose.reasoning),
    result: result ?? null,
    ...scores,
    summary: readText(loose.summary),
    hard_requirements: readHardRequirements(loose.hard_requirements, notes),
    suggestions: readSuggestions(loose.suggestions, notes),
  };
}

function readResult(value: unknown): NonNullable<ReadAnswer['result']> | undefined {
  if (typeof value !== 'string') return undefined;
  const parsed = VerdictResultSchema.safeParse(value.trim().toLowerCase());
  return parsed.success ? parsed.data : undefined;
}

function readNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = LEADING_NUMBER.exec(value.replace(/^['"]/, ''));
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function readText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function readBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (word === 'true' || word === 'yes') return true;
  if (word === 'false' || word === 'no') return false;
  return undefined;
}

function readHardRequirements(value: unknown, notes: string[]): ReadAnswer['hard_requirements'] {
  if (value === undefined) {
    notes.push('salvage: hard_requirements not found in the judge answer');
    return [];
  }
  if (!Array.isArray(value)) {
    notes.push('salvage: hard_requirements is not a list; ignored');
    return [];
  }
  const items: ReadAnswer['hard_requirements'] = [];
  value.forEach((entry: unknown, index) => {
    const fields = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const item = readText(fields.item).trim();
    if (item === '') {
      notes.push(`salvage: hard_requirements.${index}: no item text; dropped`);
      return;
    }
    const met = readBoolean(fields.met);
    if (met === undefined) notes.push(`salvage: hard_requirements.${index}: met unreadable (found ${JSON.stringify(fields.met ?? null)}); not assessed`);
    items.push({ item, met: met ?? null, evidence: readText(fields.evidence) });
  });
  return items;
}

function readSuggestions(value: unknown, notes: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    notes.push('salvage: suggestions is not a list; ignored');
    return [];
  }
  return value.flatMap((entry: unknown, index) => {
    const text = readText(entry).trim();
    if (suggestionTag(text) !== undefined) return [text];
    notes.push(`salvage: suggestions.${index}: no [workflow], [eval] or [capability] prefix; dropped '${text}'`);
    return [];
  });
}
