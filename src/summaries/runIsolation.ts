import type { Run, RunWithVerdict } from '../store/index.js';
import type { Isolation } from '../vocabulary/isolation.js';

/**
 * How a run's candidate was contained, as its row in the store records it: the spec's
 * `candidate.isolation`, else config's. Only a recorded `sandbox` counts as contained: runs
 * of earlier versions record nothing and ran uncontained, and an uncontained result must
 * never pass for a contained one.
 */
export function runIsolation(run: Pick<Run, 'spec' | 'config'>): Isolation {
  const recorded = candidateIsolation(run.spec) ?? candidateIsolation(run.config);
  return recorded === 'sandbox' ? 'sandbox' : 'none';
}

/** How many of the runs ran uncontained. */
export function countUncontained(entries: readonly RunWithVerdict[]): number {
  return entries.filter((e) => runIsolation(e.run) === 'none').length;
}

/** `uncontained: 3 of 10 runs (isolation: none)`, or null when every run was contained. */
export function uncontainedLine(uncontained: number, runs: number): string | null {
  return uncontained === 0 ? null : `uncontained: ${uncontained} of ${runs} run${runs === 1 ? '' : 's'} (isolation: none)`;
}

function candidateIsolation(record: Record<string, unknown> | null): unknown {
  const candidate = record?.candidate;
  return candidate && typeof candidate === 'object' ? (candidate as { isolation?: unknown }).isolation : undefined;
}
