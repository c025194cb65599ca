import type { Settings } from '../config.js';
import type { EvalCase } from '../evalset/index.js';
import { UsageError } from '../errors.js';
import { changedOnlyLines, pickChangedCases } from '../run/changedOnly.js';
import { looksLikeGitUrl } from '../sandbox/gitUrl.js';
import { openStore } from '../store/index.js';
import type { SelectedCases } from '../run/selection.js';
import type { ChangedOnly } from '../vocabulary/changedOnly.js';
import { changedWorkflowItems, type ChangedItems } from '../workflowUsage/changedItems.js';
import type { BatchRequest } from './batch/start.js';
import type { CommandIo } from './io.js';
import { storeOptions } from './storeOptions.js';

/** The items changed since `rev`; a revision the workflow repository does not know is a usage error. */
export async function checkChangedOnly(rev: string, workflowDir: string): Promise<ChangedItems> {
  if (looksLikeGitUrl(workflowDir)) throw new UsageError(`--changed-only ${rev}: expected a workflow folder in a local git repository, found the git URL ${workflowDir} (its history is not read here); pass --workflow-dir <a clone of it>`);
  const changed = await changedWorkflowItems(workflowDir, rev);
  if (!changed) throw new UsageError(`--changed-only ${rev}: expected a revision of the workflow repository at ${workflowDir} (a commit, branch, tag or HEAD~N), found none there`);
  return changed;
}

/**
 * `--changed-only REV`: the selected cases a workflow change since REV can affect, printed with
 * what is skipped and why. A REV the workflow repository does not know is a usage error, raised
 * before anything runs.
 */
export async function applyChangedOnly(rev: string, settings: Settings, cases: readonly EvalCase[], io: CommandIo): Promise<{ cases: EvalCase[]; scope: ChangedOnly }> {
  const changed = await checkChangedOnly(rev, settings.workflowDir);
  const store = await openStore(storeOptions(settings));
  let scope: ChangedOnly;
  try {
    scope = pickChangedCases(cases, rev, changed, await store.listWorkflowItemUse(changed.items));
  } finally {
    await store.close();
  }
  for (const line of changedOnlyLines(scope)) io.out(line);
  const picked = new Set(scope.picked.map((c) => c.case_id));
  return { cases: cases.filter((c) => picked.has(c.id)), scope };
}

/** What a batch runs: the cases `--changed-only` picked (kept with the batch), else the selected ones. */
export function batchSelection({ paths, only, bank }: SelectedCases, changed: { cases: EvalCase[]; scope: ChangedOnly } | null): Pick<BatchRequest, 'paths' | 'only' | 'changedOnly' | 'cases'> {
  return {
    paths,
    ...(changed ? { only: changed.cases.map((c) => c.id), changedOnly: changed.scope } : only ? { only } : {}),
    cases: changed?.cases ?? bank.cases,
  };
}
