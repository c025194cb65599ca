import * as z from 'zod';

/**
 * How a candidate's processes are contained: `sandbox` (bubblewrap: the run's clone, a
 * private HOME and /tmp, no host process, loopback-only network) or `none` (as the worker's
 * user, with the worker's machine; allowed, but said wherever the result is shown).
 */
export const IsolationSchema = z.enum(['sandbox', 'none']);
export type Isolation = z.infer<typeof IsolationSchema>;
