import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../../../src/cli/io.js';
import { GATE_EXIT, reportGate } from '../../../src/cli/output/gateReport.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempDir } from '../../sandbox/sandboxFixture.js';
import { DRIFTS_AND_IMPROVES, seedDecidedBatch } from '../../support/decidedBatch.js';

/**
 * `evalflow run --until-decided --gate` over an embedded store: the regression check of arm new
 * against the baseline arm reads the batch's stored decisions. `drifts` ended undecided at its
 * limit, so it is no regression, though Fisher's test on its accumulated 12/12 → 7/12 says one.
 */
describe('reportGate of a batch run until decided', () => {
  const batchId = 'batch-20260305T000000-gatedd';
  let store: Store;
  let root: string;

  beforeAll(async () => {
    store = await openStore({});
    root = await tempDir('evalflow-gate-decided-');
    await seedDecidedBatch(store, root, batchId, DRIFTS_AND_IMPROVES);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('finds no regression where the sequential test decided none, and says where its labels came from', async () => {
    const io = memoryIo(root);
    expect(await reportGate(store, batchId, { gate: 'pass_rate>=0.5' }, {}, io)).toBe(GATE_EXIT.met);
    expect(io.stdout).toContain('gate: new: met: no regression against the baseline arm base (no case regressed)');
    expect(io.stdout).toContain('gate: arm new against base: regressions from the sequential test that stopped the batch (α 0.05), not from a test of its accumulated runs');
  });

  it("says a --baseline check of its arms is Fisher's test, on counts the sequential test chose", async () => {
    const io = memoryIo(root);
    await reportGate(store, batchId, { baseline: `${batchId}:base` }, {}, io);
    // The batch is on both sides here (its base arm as --baseline): one note for it, naming both.
    expect(io.stdout).toContain(
      `gate: against --baseline: sides --baseline (${batchId}:base) and this batch (${batchId}) are of batch ${batchId}, run until decided: its runs stopped when the sequential test of its own arms decided (\`evalflow compare ${batchId}:base ${batchId}:new\` gives those labels); these labels are Fisher's exact test on its runs, which that stopping skews: read them as approximate`,
    );
  });

  it("fails on Fisher's regression once the decisions are gone: the check reads them, not the runs", async () => {
    await store.saveBatchDecisions(batchId, []);
    const io = memoryIo(root);
    expect(await reportGate(store, batchId, { gate: 'pass_rate>=0.5' }, {}, io)).toBe(GATE_EXIT.failed);
    expect(io.stdout).toContain('gate: new: FAILED: no regression against the baseline arm base (1 case(s) regressed: drifts)');
    // ... and says so, rather than reading as if the sequential test had found it.
    expect(io.stdout).toContain(
      `gate: batch ${batchId} ran until decided and stored no sequential decisions: regressions against the baseline arm are Fisher's exact test on its runs, whose counts were chosen while looking: read them as approximate`,
    );
  });
});
