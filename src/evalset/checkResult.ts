import * as z from 'zod';

/** The outcome of one precondition or postcondition check run in the sandbox. */
export const CheckResultSchema = z.object({
  description: z.string(),
  /** The shell command after variable expansion. */
  check: z.string(),
  severity: z.enum(['hard', 'soft']),
  passed: z.boolean(),
  exit_code: z.number().int().nullable(),
  /** Combined stdout/stderr, cut to a few KB. */
  output: z.string(),
  duration_ms: z.number().nonnegative(),
});
export type CheckResult = z.infer<typeof CheckResultSchema>;
