import type { Example } from './format/schema.js';

export interface SelectionOptions {
  /** Skip the first N examples in input order (`--offset`, applied before sorting). */
  offset?: number;
  /** Keep examples whose name contains this (`--name`, case-sensitive). */
  name?: string;
  /** Keep examples whose repository_url contains this (`--repo`). */
  repo?: string;
  /** Keep at most N examples (`--limit`, applied last). */
  limit?: number;
}

/**
 * The examples `ep` processes, in its order: `--offset` on the input order, then
 * sorted by repository_url ascending and revision descending, then the `--name`/`--repo`
 * filters, then `--limit`.
 */
export function selectExamples(examples: Example[], options: SelectionOptions = {}): Example[] {
  const sorted = examples.slice(options.offset ?? 0).sort((left, right) => {
    if (left.repository_url !== right.repository_url) return left.repository_url < right.repository_url ? -1 : 1;
    if (left.revision !== right.revision) return left.revision > right.revision ? -1 : 1;
    return 0;
  });
  const filtered = sorted.filter(
    (example) =>
      (options.name === undefined || example.name.includes(options.name)) &&
      (options.repo === undefined || example.repository_url.includes(options.repo)),
  );
  return options.limit === undefined ? filtered : filtered.slice(0, options.limit);
}

/**
 * Groups that must run one after another because they share a worktree: one per
 * repository_url (in first-seen order), and every example without a repository alone.
 */
export function groupExamplesByRepository(examples: Example[]): Example[][] {
  const groups = new Map<string, Example[]>();
  const singles: Example[][] = [];
  for (const example of examples) {
    if (example.repository_url === '') {
      singles.push([example]);
      continue;
    }
    const group = groups.get(example.repository_url);
    if (group) group.push(example);
    else groups.set(example.repository_url, [example]);
  }
  return [...groups.values(), ...singles];
}
