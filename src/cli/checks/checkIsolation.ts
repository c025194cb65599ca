import type { CandidateSpec } from '../../candidates/adapter.js';
import { isolationOf, whyCannotContain } from '../../containment/index.js';
import { ConfigError } from '../../errors.js';
import type { CommandIo } from '../io.js';

/**
 * Before anything runs: a contained candidate on a host that cannot contain it is refused with
 * the cause and the fix (ConfigError); an uncontained one is said, so its results are never
 * taken for contained ones. `probe: false` when the runs go to other machines' workers, which
 * check for themselves at their start.
 */
export function checkIsolation(candidates: CandidateSpec[], io: CommandIo, options: { probe: boolean }): void {
  const named = new Map(candidates.map((candidate) => [candidate.name, candidate]));
  const contained = [...named.values()].filter((candidate) => isolationOf(candidate) === 'sandbox');
  if (options.probe && contained.length > 0) {
    const why = whyCannotContain();
    if (why) throw new ConfigError(`candidate ${contained.map((c) => `"${c.name}"`).join(', ')} cannot be contained (isolation: sandbox): ${why}`);
  }
  for (const candidate of named.values()) {
    if (candidate.isolation === 'none') io.err(`warning: candidate "${candidate.name}" runs uncontained (isolation: none): it can read and write whatever the worker's user can; its results are marked uncontained`);
  }
}
