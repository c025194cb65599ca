import { changedOnlyOf, describeChangedOnly } from '../vocabulary/changedOnly.js';
import type { GroupStats } from './groupStats.js';

/** The words and numbers latest.md writes the same way wherever they appear. */

export function describeRate(g: GroupStats): string {
  if (!g.passRate) return 'Pass rate: nothing judged';
  return `Pass rate ${percent(g.passRate.rate)} (95% interval ${percent(g.passRate.low)}–${percent(g.passRate.high)}), ${g.passes} of ${g.completed} judged runs`;
}

/** `pass^2 0.50 (pass@2 0.83), pass^3 …`: reliability beside the chance of one success, for k > 1. */
export function describePassK(passHatK: Record<number, number | null>, passAtK: Record<number, number | null>): string {
  return Object.entries(passHatK)
    .filter(([k]) => Number(k) > 1)
    .map(([k, v]) => `pass^${k} ${fixed(v ?? null)} (pass@${k} ${fixed(passAtK[Number(k)] ?? null)})`)
    .join(', ');
}

/** `2 infra_error, 1 aborted`: the runs a rate does not count, by status. */
export function describeUncounted(g: GroupStats): string {
  return Object.entries(g.byStatus)
    .filter(([status]) => status !== 'completed')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}

export function describeTokens(g: GroupStats): string {
  return (['examiner', 'candidate', 'judge'] as const)
    .map((role) => {
      const usage = g.tokens[role];
      return `${role} ${usage ? `${usage.input_tokens} in / ${usage.output_tokens} out` : 'unknown'}`;
    })
    .join(', ');
}

export function describeCost(g: GroupStats): string {
  return g.cost.total === null ? 'unknown (a price or a usage is missing)' : `$${g.cost.total.toFixed(4)}`;
}

export function percent(value: number): string {
  return `${Math.round(value * 100)}%`;
}

export function fixed(value: number | null): string {
  return value === null ? '–' : value.toFixed(2);
}

/** A difference of rates in points, signed with a true minus: `+20`, `−100`, `±0`. */
export function signedPoints(value: number): string {
  const points = Math.round(value * 100);
  return `${points > 0 ? '+' : points < 0 ? '−' : '±'}${Math.abs(points)}`;
}

export function shortRev(rev: string | null): string | null {
  if (!rev) return rev;
  return /^[0-9a-f]{40}/.test(rev) ? `${rev.slice(0, 7)}${rev.endsWith('+dirty') ? '+dirty' : ''}` : rev;
}

/** The line that says a batch covers only the cases a workflow change can affect (`--changed-only`); null for a whole selection. */
export function changedOnlyLine(spec: Record<string, unknown>): string | null {
  const scope = changedOnlyOf(spec);
  return scope ? `Covers only the cases of ${describeChangedOnly(scope)}; skipped: ${scope.skipped.map((c) => c.case_id).join(', ') || 'none'}.` : null;
}
