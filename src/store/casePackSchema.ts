import * as z from 'zod';

/** One case of a batch's selection: which case, where the client read it, and the pack it travels as. */
export const CaseSetEntrySchema = z.object({
  case_id: z.string().min(1),
  case_dir: z.string().describe("the case folder on the client: what runs record, not where hosts read it"),
  case_hash: z.string().describe('sha256 of the four case files (`hashCaseFiles`), as the client validated them'),
  pack_hash: z.string().min(1).describe('`sha256:…` of the whole case folder, the key of its row in case_packs'),
});
export type CaseSetEntry = z.infer<typeof CaseSetEntrySchema>;

export const CaseSetSchema = z.array(CaseSetEntrySchema);
