import type { Isolation } from '../vocabulary/isolation.js';

/**
 * A candidate's isolation as its spec records it: specs of earlier versions record none, and
 * ran uncontained. A file of its own, free of Node, because the run workflow imports it.
 */
export function isolationOf(candidate: { isolation?: Isolation | undefined }): Isolation {
  return candidate.isolation ?? 'none';
}
