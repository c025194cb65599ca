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

  it("fails on Fisher's regression once the decisions are gone: the check reads them, not the runs", async () => {
    await store.saveBatchDecisions(batchId, []);
    const io = memoryIo(root);
    expect(await reportGate(store, batchId, { gate: 'pass_rate>=0.5' }, {}, io)).toBe(GATE_EXIT.failed);
    expect(io.stdout).toContain('gate: new: FAILED: no regression against the baseline arm base (1 case(s) regressed: drifts)');
  });
});
