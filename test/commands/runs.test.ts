import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../../src/cli/io.js';
import { run as runs } from '../../src/commands/runs.js';
import { UsageError } from '../../src/errors.js';
import { openStore } from '../../src/store/index.js';
import { tempDir } from '../sandbox/sandboxFixture.js';
import { aRun } from '../store/builders.js';

describe('evalflow runs --limit N --after RUN', () => {
  it('pages newest first, naming the next page while more follow, and refuses a cursor the store does not have', async () => {
    const root = await tempDir('evalflow-runs-pages-');
    const store = await openStore({ pgliteDir: join(root, '.evalflow', 'pglite') });
    try {
      for (let i = 1; i <= 5; i++) await store.upsertRun(aRun({ run_id: `run-page-${i}@1`, batch_id: 'batch-pages', run_dir: join(root, 'runs', `run-page-${i}@1`), created_at: `2026-03-01T00:00:0${i}Z` }));
    } finally {
      await store.close();
    }
    const seen: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 5; page++) {
      const io = memoryIo(root, {});
      expect(await runs({ batch: 'batch-pages', limit: 2, ...(after ? { after } : {}) }, io)).toBe(0);
      seen.push(...io.stdout.slice(2).map((line) => /runs\/(\S+)/.exec(line)![1]!));
      const more = io.stderr.find((line) => line.startsWith('more: '));
      if (!more) break;
      expect(more).toMatch(/^more: evalflow runs --batch batch-pages --limit 2 --after run-page-\d@1$/);
      after = more.split(' ').at(-1);
    }
    expect(seen).toEqual(['run-page-5@1', 'run-page-4@1', 'run-page-3@1', 'run-page-2@1', 'run-page-1@1']);
    await expect(runs({ limit: 2, after: 'run-nobody@1' }, memoryIo(root, {}))).rejects.toThrow(UsageError);
  }, 600_000);
});
