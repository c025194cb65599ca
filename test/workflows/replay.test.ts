import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { installQuietRuntime } from '../../src/temporal/runtime.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/histories');
const WORKFLOWS = resolve(import.meta.dirname, '../../src/workflows/index.ts');

/**
 * Workflow code must replay every history it ever wrote: runs in flight when evalflow is
 * upgraded continue from their history. These histories were recorded by an earlier version;
 * a change that alters the commands a workflow issues fails here and needs `patched()`.
 * Re-record (only when that is intended) with `node --import tsx scripts/record-histories.ts`.
 * The `-local-…` histories were recorded after the bookkeeping moved to local activities behind
 * `patched()`, `-runs-together` and `-fewer-writes` after the batch started its runs together
 * and the run wrote fewer search attributes, `-host-here` after the host stages moved into the
 * workflow task, `-claim-with-prepare` after the first host stage took over the host claim, so
 * every side of each patch replays.
 */
describe('replaying recorded workflow histories', () => {
  it('replays every recorded history with the current workflow code', { timeout: 120_000 }, async () => {
    installQuietRuntime();
    const files = (await readdir(FIXTURES)).filter((f) => f.endsWith('.json')).sort();
    expect(files).toEqual([
      'evalBatchWorkflow-local-bookkeeping.json',
      'evalBatchWorkflow-runs-together.json',
      'evalBatchWorkflow.json',
      'evalRunWorkflow-aborted.json',
      'evalRunWorkflow-claim-with-prepare.json',
            'evalRunWorkflow-fewer-writes.json',
      'evalRunWorkflow-host-here.json',
      'evalRunWorkflow-local-claim.json',
      'evalRunWorkflow-review-host-here.json',
      'evalRunWorkflow-review.json',
      'evalRunWorkflow.json',
      'rejudgeWorkflow.json',
      'scheduledBatchWorkflow.json',
    ]);
    for (const file of files) {
      const history = historyFromJSON(JSON.parse(await readFile(join(FIXTURES, file), 'utf8')));
      await expect(Worker.runReplayHistory({ workflowsPath: WORKFLOWS, replayName: file }, history), file).resolves.toBeUndefined();
    }
  });
});
