import { cp, mkdir, writeFile } from 'node:fs/promises';
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

describe('evalflow show RUN on hosts', () => {
  it('names the host of each attempt, in text and in --json', async () => {
    const root = await tempDir('evalflow-show-hosts-');
    const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
    try {
      await store.upsertRun(aRun({ run_id: 'run-moved@1' }));
      await store.saveRunHost({ run_id: 'run-moved@1', generation: 1, host_id: 'host-b', claimed_at: '2026-05-01T10:05:00.000Z' });
      await store.saveRunHost({ run_id: 'run-moved@1', generation: 0, host_id: 'host-a', claimed_at: '2026-05-01T10:00:00.000Z' });
    } finally {
      await store.close();
    }
    const io = memoryIo(root, {});
    expect(await show({ runId: 'run-moved@1' }, io)).toBe(0);
    expect(io.stdout.find((line) => line.startsWith('host '))).toBe('host      host-a (attempt 1, from 2026-05-01T10:00:00.000Z), host-b (attempt 2, from 2026-05-01T10:05:00.000Z)');
    const json = memoryIo(root, {});
    expect(await show({ runId: 'run-moved@1', json: true }, json)).toBe(0);
    const doc = JSON.parse(json.stdout.join('\n')) as { run: { hosts: string[] }; host_attempts: { host_id: string; attempt: number }[] };
    expect(doc.run.hosts).toEqual(['host-a', 'host-b']);
    expect(doc.host_attempts.map((h) => [h.host_id, h.attempt])).toEqual([
      ['host-a', 1],
      ['host-b', 2],
    ]);
  });
});

describe('evalflow show RUN in a copied workspace', () => {
  it("shows the copy's own files, for a run written with a relative run dir and for a row of an earlier version (absolute)", async () => {
    const original = await tempDir('evalflow-show-original-');
    const copy = await tempDir('evalflow-show-copy-');
    // One row as this evalflow writes it (relative to the workspace, see test/store/runDirs.test.ts)
    // and one as an earlier version did (absolute).
    const store = await openStore({ pgliteDir: join(original, '.evalflow', 'pglite') });
    try {
      await store.upsertRun(aRun({ run_id: 'run-now@1', run_dir: 'runs/run-now@1' }));
      await store.upsertRun(aRun({ run_id: 'run-earlier@1', run_dir: join(original, 'runs', 'run-earlier@1') }));
    } finally {
      await store.close();
    }
    for (const runId of ['run-now@1', 'run-earlier@1']) {
      await mkdir(join(original, 'runs', runId), { recursive: true });
      await writeFile(join(original, 'runs', runId, 'review.md'), `# the original's review of ${runId}\n`);
    }
    await cp(original, copy, { recursive: true });
    for (const runId of ['run-now@1', 'run-earlier@1']) await writeFile(join(copy, 'runs', runId, 'review.md'), `# the copy's review of ${runId}\n`);

    for (const runId of ['run-now@1', 'run-earlier@1']) {
      const io = memoryIo(copy, {});
      expect(await show({ runId }, io)).toBe(0);
      expect(io.stdout).toContain(`# the copy's review of ${runId}`);
      expect(io.stdout.join('\n')).not.toContain('the original');
      expect(io.stdout).toContain(`  ✓ runs/${runId}/review.md`);
    }
    // The original still reads its own.
    const io = memoryIo(original, {});
    expect(await show({ runId: 'run-earlier@1' }, io)).toBe(0);
    expect(io.stdout).toContain("# the original's review of run-earlier@1");
  }, 600_000);
});
