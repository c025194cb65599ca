import * as z from 'zod';

/**
 * One path a protected-path restore put back before the postconditions: `changed` (its content,
 * mode or kind differed, e.g. a file or folder replaced by a symlink), `deleted` (it was gone),
 * `added` (the candidate created it where the revision has nothing). Folders end in `/`.
 */
export const RestoredPathSchema = z.object({
  path: z.string(),
  change: z.enum(['changed', 'deleted', 'added']),
});
export type RestoredPath = z.infer<typeof RestoredPathSchema>;
