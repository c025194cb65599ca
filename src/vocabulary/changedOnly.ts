import * as z from 'zod';

/** One case `--changed-only` ran or left out, and why. */
export const ChangedOnlyCaseSchema = z.object({
  case_id: z.string().min(1),
  why: z.string(),
});

/**
 * What `--changed-only REV` did to a batch: the workflow items changed since REV, the cases a
 * change can affect (run) and the others (skipped), each with why. Kept in the batch row's spec
 * (`changed_only`), so the gate, JUnit and the summaries say they cover the picked cases only.
 */
export const ChangedOnlySchema = z.object({
  /** The revision as given (`HEAD~1`, `main`). */
  since: z.string().min(1),
  /** The commit it named when the batch was planned. */
  commit: z.string().min(1),
  /** `skills/node-test`, …: the items whose files differ between that commit and the workflow folder now. */
  changed: z.array(z.string()),
  picked: z.array(ChangedOnlyCaseSchema),
  skipped: z.array(ChangedOnlyCaseSchema),
});
export type ChangedOnly = z.infer<typeof ChangedOnlySchema>;

/** `--changed-only HEAD~1 (ab12cd3): 2 of 5 cases`, the line every report of such a batch carries. */
export function describeChangedOnly(scope: ChangedOnly): string {
  const total = scope.picked.length + scope.skipped.length;
  return `--changed-only ${scope.since} (${scope.commit.slice(0, 7)}): ${scope.picked.length} of ${total} case${total === 1 ? '' : 's'}, those a change of ${scope.changed.join(', ') || 'no workflow item'} can affect`;
}

/** The `changed_only` a batch row's spec holds, or null for a batch that ran its whole selection. */
export function changedOnlyOf(spec: Record<string, unknown>): ChangedOnly | null {
  const parsed = ChangedOnlySchema.safeParse(spec.changed_only);
  return parsed.success ? parsed.data : null;
}
