import * as z from 'zod';
import type { RevRow } from '../../summaries/history.js';
import { RateIntervalJson, TimestampJson } from './common.js';
import { jsonDocument } from './document.js';

/** One workflow revision of `evalflow history`. */
export const RevisionJson = z.object({
  workflow_rev: z.string().describe('the workflow revision (a git commit, `+dirty` when its folders had uncommitted changes)'),
  since: TimestampJson.describe("when the revision's first run was created"),
  runs: z.number().int().describe('runs on the revision, whatever their status'),
  judged: z.number().int().describe('runs judged pass or fail'),
  pass_rate: RateIntervalJson.nullable().describe('over the judged runs; null when none was judged'),
  mean_overall: z.number().nullable().describe('mean overall score of the judged runs'),
  versus_previous: z
    .object({
      difference: z.number().nullable().describe('pass rate minus the previous revision’s (−1..1); null when no case compares'),
      regressions: z.number().int().describe('cases a paired comparison labels regression'),
      improvements: z.number().int().describe('cases it labels improvement'),
      method_notes: z
        .array(z.string())
        .describe("one note per batch run until decided whose runs either revision takes in: these labels are Fisher's exact test on its runs (its stored decisions answer its own two arms only, or it stored none), approximate; empty otherwise"),
    })
    .nullable()
    .describe('against the revision before; null for the first'),
});

export const HistoryJson = jsonDocument(1, 'Per workflow revision in the order they were first run (`evalflow history`).', {
  revisions: z.array(RevisionJson).describe('the rows of the table, oldest revision first'),
});

/** `notes`: the row's method notes against the revision before (`sequentialRevisionNotes`). */
export function revisionJson(row: RevRow, notes: readonly string[] = []): z.input<typeof RevisionJson> {
  return {
    workflow_rev: row.workflowRev,
    since: row.since,
    runs: row.runs,
    judged: row.judged,
    pass_rate: row.rate,
    mean_overall: row.meanOverall,
    versus_previous: row.versusPrevious && { ...row.versusPrevious, method_notes: [...notes] },
  };
}
