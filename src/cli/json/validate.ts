import * as z from 'zod';
import { jsonDocument } from './document.js';

export const ValidateJson = jsonDocument(1, 'Every eval case checked and its problems (`evalflow validate`); the exit code is 1 when `problems` is not 0.', {
  cases: z
    .array(
    z.object({
      id: z.string().describe("the case folder's name (a valid case's id)"),
      dir: z.string().describe('absolute path of the case folder'),
      valid: z.boolean().describe('the case has no problem'),
      problems: z.array(z.string()).describe('one line each, naming the file and field'),
    }),
    )
    .describe('every case folder checked'),
  bank_problems: z.array(z.string()).describe('problems that belong to no single case: missing folders, duplicate or unknown ids'),
  checked: z.number().int().describe('case folders checked'),
  valid: z.number().int().describe('of them, valid'),
  problems: z.number().int().describe('problems in all, bank and cases'),
});
