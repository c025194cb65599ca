import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as show } from '../../src/commands/show.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { aRun } from '../store/builders.js';

describe('evalflow show RUN', () => {
  it("says how the run's candidate was contained: sandbox, none, or none for a run of an earlier version", async () => {
    const root = await tempDir('evalflow-show-');
    const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
    try {
      await store.upsertRun(aRun({ run_id: 'run-contained@1', spec: { candidate: { isolation: 'sandbox' } }, config: { candidate: { isolation: 'sandbox' } } }));
      await store.upsertRun(aRun({ run_id: 'run-uncontained@1', spec: { candidate: { isolation: 'none' } }, config: { candidate: { isolation: 'none' } } }));
      await store.upsertRun(aRun({ run_id: 'run-earlier@1', spec: { candidate: { name: 'fake' } }, config: { candidate: { name: 'fake' } } }));
    } finally {
      await store.close();
    }
    const isolationOf = async (runId: string) => {
      const io = memoryIo(root, {});
      expect(await show({ runId }, io)).toBe(0);
      return io.stdout.find((line) => line.startsWith('isolation '));
    };
    expect(await isolationOf('run-contained@1')).toBe('isolation sandbox');
    expect(await isolationOf('run-uncontained@1')).toBe('isolation none (uncontained: the candidate ran outside a sandbox)');
    expect(await isolationOf('run-earlier@1')).toBe('isolation none (uncontained: the candidate ran outside a sandbox)');
  });
});
