import { inertMarkdown } from '../markdown/inertMarkdown.js';
import { relative } from 'node:path';
import type { RunWithVerdict } from '../store/index.js';
import { countUncontained, uncontainedLine } from './runIsolation.js';
import { SUGGESTION_TAGS, suggestionTag } from '../vocabulary/suggestions.js';

/** A suggestion as several runs made it, merged: the first wording, how often, and by which runs. */
export interface MergedSuggestion {
  text: string;
  count: number;
  runs: { runId: string; runDir: string }[];
}

/**
 * The batch's suggestions grouped by their tag, identical and near-identical ones merged (the
 * same words, whatever the case, punctuation and spacing; or the same set of words but for a
 * few), most frequent first.
 */
export function mergeSuggestions(entries: readonly RunWithVerdict[]): Record<string, MergedSuggestion[]> {
  const groups: Record<string, MergedSuggestion[]> = Object.fromEntries([...SUGGESTION_TAGS, 'untagged'].map((tag) => [tag, []]));
  const keys = new Map<MergedSuggestion, Set<string>>();
  const ordered = [...entries].sort((a, b) => a.run.run_id.localeCompare(b.run.run_id, 'en', { numeric: true }));
  for (const { run, verdict } of ordered) {
    for (const suggestion of verdict?.suggestions ?? []) {
      const tag = suggestionTag(suggestion) ?? 'untagged';
      const text = suggestion.replace(/^\[[a-z]+\]\s*/, '').trim();
      const words = wordsOf(text);
      const merged = groups[tag]!.find((m) => similar(keys.get(m)!, words));
      if (merged) {
        merged.count += 1;
        if (!merged.runs.some((r) => r.runId === run.run_id)) merged.runs.push({ runId: run.run_id, runDir: run.run_dir });
      } else {
        const created = { text, count: 1, runs: [{ runId: run.run_id, runDir: run.run_dir }] };
        groups[tag]!.push(created);
        keys.set(created, words);
      }
    }
  }
  for (const tag of Object.keys(groups)) groups[tag]!.sort((a, b) => b.count - a.count || (a.text < b.text ? -1 : 1));
  return groups;
}

/** batch-insights.md: every suggestion of the batch, grouped by tag, with counts and links to the runs' reviews. */
export function renderBatchInsights(batchId: string, entries: readonly RunWithVerdict[], summariesDir: string): string {
  const groups = mergeSuggestions(entries);
  const total = Object.values(groups).reduce((n, list) => n + list.reduce((m, s) => m + s.count, 0), 0);
  const parts = [`# Batch insights: ${batchId}`, '', `${total} suggestion${total === 1 ? '' : 's'} from ${entries.filter((e) => e.verdict).length} judged run(s), grouped by what they concern.`];
  const uncontained = uncontainedLine(countUncontained(entries), entries.length);
  if (uncontained) parts.push('', `${uncontained}.`);
  for (const [tag, list] of Object.entries(groups)) {
    if (list.length === 0) continue;
    parts.push('', `## [${tag}] (${list.reduce((n, s) => n + s.count, 0)})`, '');
    for (const suggestion of list) {
      const links = suggestion.runs.map((r) => `[${r.runId}](${relative(summariesDir, `${r.runDir}/review.md`)})`).join(', ');
      parts.push(`- ${suggestion.count > 1 ? `**×${suggestion.count}** ` : ''}${inertMarkdown(suggestion.text.replace(/\n/g, ' '))} — ${links}`);
    }
  }
  return `${parts.join('\n')}\n`;
}

function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, ' ').split(/\s+/).filter(Boolean));
}

/** Near-identical: the same words, or word sets that overlap by at least 80% (Jaccard). */
function similar(a: Set<string>, b: Set<string>): boolean {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  const union = a.size + b.size - shared;
  return union === 0 || shared / union >= 0.8;
}
