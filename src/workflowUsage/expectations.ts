import { FormatError } from '../errors.js';
import type { WorkflowExpectation, WorkflowUsageRow } from '../vocabulary/workflowUsage.js';
import type { WorkflowItem } from './workflowItems.js';

/** One expectation of `expect_workflow`, checked against the run's usage: a hard requirement of its own. */
export interface ExpectationResult {
  /** As score.yaml lists it: `uses skills/node-test (expect_workflow.must_use)`. */
  item: string;
  /** null when the usage is unknown: a person settles it, it is never counted as the candidate's fail. */
  met: boolean | null;
  /** The usage row the result rests on. */
  evidence: string;
}

/**
 * Checks every expectation against the usage rows. Using a skill, command or subagent is
 * invoking it; using a rule is loading it (rules are not invoked).
 */
export function checkExpectations(expectation: WorkflowExpectation, rows: readonly WorkflowUsageRow[]): ExpectationResult[] {
  const byRef = new Map(rows.map((row) => [row.item, row]));
  const check = (ref: string, wanted: boolean, field: string): ExpectationResult => {
    const row = byRef.get(ref);
    const item = `${wanted ? 'uses' : 'does not use'} ${ref} (expect_workflow.${field})`;
    if (!row) return { item, met: null, evidence: `${ref} has no usage row (it is not in the run's workflow snapshot)` };
    const used = row.kind === 'rule' ? row.loaded : row.invoked;
    const met = used === 'unknown' ? null : (used === 'yes') === wanted;
    return { item, met, evidence: describeUsageRow(row) };
  };
  return [...expectation.must_use.map((ref) => check(ref, true, 'must_use')), ...expectation.must_not_use.map((ref) => check(ref, false, 'must_not_use'))];
}

/** `skills/node-test: loaded yes, invoked yes, first turn 1; [Turn 1] skill: node-test`. */
export function describeUsageRow(row: WorkflowUsageRow): string {
  const turn = row.first_turn === null ? '' : `, first turn ${row.first_turn}`;
  return `${row.item}: loaded ${row.loaded}, invoked ${row.invoked}${turn}${row.evidence ? `; ${row.evidence}` : ''}`;
}

/**
 * Every item the expectations name must be in the run's snapshot: a missing one is the case's
 * mistake (a typo, a renamed skill), reported naming the file and field, never a fail.
 */
export function checkExpectedItemsExist(expectation: WorkflowExpectation, items: readonly WorkflowItem[], metaFile: string): void {
  const known = new Set(items.map((item) => item.ref));
  const problems: string[] = [];
  for (const field of ['must_use', 'must_not_use'] as const) {
    for (const [index, ref] of expectation[field].entries()) {
      if (!known.has(ref)) problems.push(`${metaFile}: expect_workflow.${field}.${index}: ${ref} is not in the run's workflow snapshot (it has ${[...known].join(', ') || 'no items'})`);
    }
  }
  if (problems.length > 0) throw new FormatError(problems.join('\n'), problems);
}
