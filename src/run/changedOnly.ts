import type { EvalCase } from '../evalset/schema.js';
import type { WorkflowItemUse } from '../store/index.js';
import type { ChangedItems } from '../workflowUsage/changedItems.js';
import type { ChangedOnly } from '../vocabulary/changedOnly.js';

/**
 * `--changed-only REV`: of the selected cases, those a change of the workflow since REV can
 * affect, each with why, and the others with why not. A case is picked when its
 * `expect_workflow` names a changed item (the case tests that item), or when a recorded run of
 * it loaded or invoked one (the case exercised it, whatever it expects). A case with no recorded
 * run and no expectation naming a changed item is skipped: nothing says the change reaches it.
 */
export function pickChangedCases(cases: readonly EvalCase[], since: string, changed: ChangedItems, use: readonly WorkflowItemUse[]): ChangedOnly {
  const items = new Set(changed.items);
  const picked: ChangedOnly['picked'] = [];
  const skipped: ChangedOnly['skipped'] = [];
  for (const evalCase of cases) {
    const expectation = evalCase.meta.expect_workflow;
    const expected = [
      ...(expectation?.must_use ?? []).filter((ref) => items.has(ref)).map((ref) => `expect_workflow.must_use names ${ref}`),
      ...(expectation?.must_not_use ?? []).filter((ref) => items.has(ref)).map((ref) => `expect_workflow.must_not_use names ${ref}`),
    ];
    const used = use
      .filter((u) => u.case_id === evalCase.id && items.has(u.item))
      .map((u) => `${u.runs} recorded run${u.runs === 1 ? '' : 's'} used ${u.item} (e.g. ${u.example_run_id})`);
    const reasons = [...expected, ...used];
    if (reasons.length > 0) picked.push({ case_id: evalCase.id, why: reasons.join('; ') });
    else skipped.push({ case_id: evalCase.id, why: changed.items.length === 0 ? 'no workflow item changed' : 'expects none of the changed items, and no recorded run used one' });
  }
  return { since, commit: changed.commit, changed: changed.items, picked, skipped };
}

/** What `--changed-only` ran and skipped, one line per case, for the command's output. */
export function changedOnlyLines(scope: ChangedOnly): string[] {
  return [
    `--changed-only ${scope.since} (${scope.commit.slice(0, 7)}): changed ${scope.changed.join(', ') || 'nothing in agents/ commands/ rules/ skills/'}`,
    ...scope.picked.map((c) => `  runs   ${c.case_id}: ${c.why}`),
    ...scope.skipped.map((c) => `  skips  ${c.case_id}: ${c.why}`),
  ];
}
