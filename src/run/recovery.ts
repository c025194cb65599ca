import type { Recovery, RunSpec } from './runSpec.js';

/**
 * Defaults of a run's recovery limits. Import-free but for types, because the workflows use it
 * and their bundle must stay small and free of Node code.
 */
export const DEFAULT_RECOVERY: Recovery = { modelOutageS: 3600, hostLostAfterS: 600 };

/** The run's recovery limits, the defaults where the spec sets none. */
export function recoveryOf(spec: Pick<RunSpec, 'recovery'>): Recovery {
  return spec.recovery ?? DEFAULT_RECOVERY;
}
