import type { CandidateSpec } from './runSpec.js';

/** Every host stage's first argument is the run's spec or carries it: the run it serves. */
export function runIdOf(args: readonly unknown[]): string {
  const first = args[0] as { runId?: string; spec?: { runId: string } };
  return first.runId ?? first.spec?.runId ?? 'unknown';
}

/** The candidate of the run a host stage serves, from the same first argument. */
export function candidateOf(args: readonly unknown[]): CandidateSpec | undefined {
  const first = args[0] as { candidate?: CandidateSpec; spec?: { candidate?: CandidateSpec } };
  return first.spec?.candidate ?? first.candidate;
}

/** The host stages before a run's first turn: a host that claims a run with one of them must be able to start its candidate. */
export function comesBeforeTurns(stage: string): boolean {
  return stage === 'prepareRun' || stage === 'setupSandbox';
}
