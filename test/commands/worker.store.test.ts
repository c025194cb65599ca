import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../support/cliProcess.js';

describe('evalflow worker on a cluster', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'evalflow-worker-store-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses to start without a shared store, in one line, before touching Temporal or PGlite', { timeout: 60_000 }, async () => {
    // Nothing listens at this address: the refusal comes before any connection.
    const env = { PATH: process.env.PATH, HOME: dir, TEMPORAL_ADDRESS: '127.0.0.1:1', EVALFLOW_ISOLATION: 'none' };
    const worker = startCli(['worker'], { cwd: dir, env });
    const code = await worker.exited;
    expect(code).not.toBe(0);
    expect(worker.stderr.join('\n')).toContain('this worker joins the cluster at 127.0.0.1:1 (TEMPORAL_ADDRESS) without a shared store: set DATABASE_URL to the PostgreSQL its clients use');
    expect(worker.stderr.join('\n')).not.toMatch(/\n\s+at /);
  });
});
