import * as z from 'zod';

/** The three suggestion tags, in the order review.md lists them. */
export const SUGGESTION_TAGS = ['workflow', 'eval', 'capability'] as const;
export type SuggestionTag = (typeof SUGGESTION_TAGS)[number];

const TAGGED = /^\[(workflow|eval|capability)\]\s*\S/;

/** The tag of a well-formed suggestion, or undefined when the prefix is missing or unknown. */
export function suggestionTag(suggestion: string): SuggestionTag | undefined {
  return TAGGED.exec(suggestion)?.[1] as SuggestionTag | undefined;
}

export const SuggestionSchema = z
  .string()
  .refine((text) => suggestionTag(text) !== undefined, {
    error: (issue) =>
      `expected a suggestion starting with [workflow], [eval] or [capability], found '${excerpt(String(issue.input))}'`,
  })
  .describe('One improvement, prefixed by the part it concerns: [workflow], [eval] or [capability].');

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
